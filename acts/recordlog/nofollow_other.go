//go:build !unix

package recordlog

import (
	"fmt"
	"io/fs"
	"os"
)

const oNoFollow = 0

// openNoFollow opens path for reading after checking that it is not a
// link (no O_NOFOLLOW here: a link made between the two is followed).
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link; tp follows no link inside the acts dir (D9)", path)
	}
	return os.Open(path)
}
