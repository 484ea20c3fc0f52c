//go:build linux

package durable

import (
	"os"

	"golang.org/x/sys/unix"
)

const syncFSAvailable = true

// syncFS flushes the whole file system holding dir (syncfs(2)); since
// Linux 5.8 it also reports writeback errors on that file system.
func syncFS(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}

func deviceOf(dir string) (uint64, bool) {
	var st unix.Stat_t
	if unix.Stat(dir, &st) != nil {
		return 0, false
	}
	return uint64(st.Dev), true
}

// StartWriteback asks the kernel to start writing [off, off+n) of f to disk
// now (sync_file_range with SYNC_FILE_RANGE_WRITE) without waiting, so the
// disk works while the writer produces the next chunk and the fsync at the
// end has little left to do. It promises nothing: errors are ignored and
// the fsync is what vouches for the bytes.
func StartWriteback(f *os.File, off, n int64) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE)
	})
}
