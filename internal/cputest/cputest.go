// Package cputest measures a benchmark's CPU time (user + system) beside
// its wall time: on a shared machine wall time measures the neighbours,
// CPU time measures the code. Benchmarks report it as cpu-ms/op.
package cputest

import (
	"testing"
	"time"
)

// Clock sums the process's CPU time over the parts of a benchmark it is
// running for (Start … Stop, as often as the benchmark likes).
type Clock struct {
	t0, total time.Duration
	running   bool
}

// Start returns a clock already running.
func Start() *Clock {
	c := &Clock{}
	c.Start()
	return c
}

// Start starts (or restarts) the clock.
func (c *Clock) Start() { c.t0, c.running = now(), true }

// Stop adds the CPU time since Start.
func (c *Clock) Stop() {
	if c.running {
		c.total += now() - c.t0
		c.running = false
	}
}

// Report stops the clock and reports its total per operation as cpu-ms/op
// (0 where the system gives no process CPU time).
func (c *Clock) Report(b *testing.B) {
	c.Stop()
	b.ReportMetric(float64(c.total)/float64(b.N)/1e6, "cpu-ms/op")
}
