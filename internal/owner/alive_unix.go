//go:build unix

package owner

import (
	"errors"
	"syscall"
)

// PIDAlive is kill(pid, 0): only ESRCH proves the owner is gone; EPERM
// means it lives under another user, so its lock stands (as in the
// reference).
func PIDAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}
