//go:build !unix

package store

import "os"

// pidAlive: without kill(pid, 0), a process handle that opens counts as
// alive; FindProcess fails on Windows when the pid is gone.
func pidAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
