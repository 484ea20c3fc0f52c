//go:build unix

package store

import (
	"os"
	"syscall"
)

// openRegular opens path for reading only if it is a regular file. The open
// does not block (a FIFO would wait for a writer forever); what was opened is
// then checked, so a file swapped for a FIFO between a look and the open is
// refused too.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return checkRegular(f)
}
