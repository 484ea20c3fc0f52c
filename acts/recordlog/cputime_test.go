//go:build unix

package recordlog

import (
	"syscall"
	"testing"
	"time"
)

// cpuTimer reports the process's CPU time (user + system) per operation
// beside the wall time: on a shared machine wall time measures the
// neighbours, CPU time measures the code.
type cpuTimer struct{ start time.Duration }

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuTimer { return cpuTimer{cpuNow()} }

func (c cpuTimer) report(b *testing.B) {
	b.ReportMetric(float64(cpuNow()-c.start)/float64(b.N)/1e6, "cpu-ms/op")
}
