//go:build linux

package filestamp

import (
	"os"
	"syscall"
	"time"
)

// Of is path's stamp, the link itself when path is a symbolic link; false
// when it cannot be taken (then nothing may be remembered).
func Of(path string) (Stamp, bool) { return of(os.Lstat(path)) }

// OfTarget is the stamp of the file path names, links followed: the file
// whose bytes a reader of path gets.
func OfTarget(path string) (Stamp, bool) { return of(os.Stat(path)) }

// OfInfo is the stamp fi holds, for a caller that needs the file's mode too.
func OfInfo(fi os.FileInfo) (Stamp, bool) { return of(fi, nil) }

func of(fi os.FileInfo, err error) (Stamp, bool) {
	if err != nil {
		return Stamp{}, false
	}
	sys, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{}, false
	}
	return Stamp{Dev: uint64(sys.Dev), Ino: uint64(sys.Ino), Size: sys.Size,
		Mtime: time.Unix(int64(sys.Mtim.Sec), int64(sys.Mtim.Nsec)).UnixNano(),
		Ctime: time.Unix(int64(sys.Ctim.Sec), int64(sys.Ctim.Nsec)).UnixNano()}, true
}
