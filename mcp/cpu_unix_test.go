//go:build unix

package mcp_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far (user and system): on a
// machine shared with other work, a benchmark's CPU per call says more
// than its wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
