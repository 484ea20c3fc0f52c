//go:build linux

package store

import (
	"os"
	"syscall"
	"time"
)

// fileStamp is a file's identity for LandedFrom's memory: which inode, how
// big, when its content and its inode last changed.
type fileStamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // ns since the epoch
}

// stampOf is path's stamp (the link itself, not followed); false when it
// cannot be taken, and then nothing is remembered.
func stampOf(path string) (fileStamp, bool) {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileStamp{}, false
	}
	sys, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{dev: uint64(sys.Dev), ino: uint64(sys.Ino), size: sys.Size,
		mtime: time.Unix(int64(sys.Mtim.Sec), int64(sys.Mtim.Nsec)).UnixNano(),
		ctime: time.Unix(int64(sys.Ctim.Sec), int64(sys.Ctim.Nsec)).UnixNano()}, true
}

// racy reports whether the file changed so close to now that another
// change in the same timestamp tick would leave the stamp as it is: the
// kernel's file clock is coarse (a scheduler tick, up to 10 ms), and a
// filesystem whose stamps have no sub-second part (FAT, some network
// mounts) counts in whole seconds or two.
func (st fileStamp) racy(now time.Time) bool {
	window := 50 * time.Millisecond
	if st.mtime%int64(time.Second) == 0 || st.ctime%int64(time.Second) == 0 {
		window = 3 * time.Second
	}
	changed := max(st.mtime, st.ctime)
	return now.UnixNano()-changed < int64(window)
}
