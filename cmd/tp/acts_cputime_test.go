//go:build unix

package main

import (
	"syscall"
	"testing"
	"time"
)

// cpuClock sums the process's CPU time (user + system) over the timed
// parts of a benchmark: on a shared machine wall time measures the
// neighbours, CPU time measures the code.
type cpuClock struct{ t0, total time.Duration }

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (c *cpuClock) start() { c.t0 = cpuNow() }
func (c *cpuClock) stop()  { c.total += cpuNow() - c.t0 }
func (c *cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(c.total)/float64(b.N)/1e6, "cpu-ms/op")
}
