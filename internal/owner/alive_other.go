//go:build !unix

package owner

import "os"

// PIDAlive: without kill(pid, 0), a process handle that opens counts as
// alive; FindProcess fails on Windows when the pid is gone.
func PIDAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
