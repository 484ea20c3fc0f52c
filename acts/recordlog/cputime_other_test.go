//go:build !unix

package recordlog

import (
	"testing"
	"time"
)

type cpuTimer struct{}

func cpuNow() time.Duration          { return 0 }
func startCPU() cpuTimer             { return cpuTimer{} }
func (c cpuTimer) report(*testing.B) {}
