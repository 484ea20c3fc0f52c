//go:build !unix

package actsession

import (
	"testing"
	"time"
)

type cpuTimer struct{}

func cpuNow() time.Duration          { return 0 }
func startCPU() cpuTimer             { return cpuTimer{} }
func (c cpuTimer) report(*testing.B) {}
