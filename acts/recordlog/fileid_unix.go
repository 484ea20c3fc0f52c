//go:build unix

package recordlog

import (
	"fmt"
	"os"
	"syscall"
)

// fileID is the device and inode of fi.
func fileID(fi os.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("dev:%d ino:%d", st.Dev, st.Ino), true
}
