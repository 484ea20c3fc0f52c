//go:build linux

package durable

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameNoReplace moves oldpath to newpath unless newpath exists (one
// metadata operation instead of a link and an unlink). ok is false when the
// file system cannot do it, and the caller links instead.
func renameNoReplace(oldpath, newpath string) (ok bool, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		return false, nil
	}
	return true, err
}
