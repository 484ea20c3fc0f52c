//go:build unix

package recordlog

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// oNoFollow makes open fail on a symbolic link at the last component.
const oNoFollow = syscall.O_NOFOLLOW

// openNoFollow opens path for reading without following a link at its
// last component, and without blocking on a FIFO.
func openNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symbolic link; tp follows no link inside the acts dir (D9)", path)
	}
	return f, err
}
