//go:build !unix

package trust

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// readNoFollow refuses a link in path's last component (checked with
// Lstat, then the file opened: off Unix there is no O_NOFOLLOW) and reads
// at most limit bytes of a regular file.
func readNoFollow(path string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("is a symbolic link; the store is never read through one")
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errTooLarge
	}
	return data, nil
}
