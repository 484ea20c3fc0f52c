//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// pidAlive is kill(pid, 0): only ESRCH proves the owner is gone; EPERM
// means it lives under another user, so its lock stands (as in the
// reference).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}

// syncDir makes a rename durable; errors are ignored because the data file
// itself is already synced and some file systems refuse a folder fsync.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
