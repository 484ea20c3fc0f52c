//go:build linux && (amd64 || arm64)

package pack

import (
	"os"
	"runtime"
	"syscall"
)

// startWriteback asks the kernel to start writing [off, off+n) of f to disk
// now (sync_file_range with SYNC_FILE_RANGE_WRITE), without waiting: the
// disk works while the next chunk is inflated and verified, so the fsync at
// the end of the file has little left to do. Errors are ignored; the fsync
// is what vouches for the bytes.
func startWriteback(f *os.File, off, n int64) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		const syncFileRangeWrite = 2
		syscall.Syscall6(syscall.SYS_SYNC_FILE_RANGE, fd, uintptr(off), uintptr(n), syncFileRangeWrite, 0, 0)
	})
}

// syncFS flushes the whole file system holding dir (syncfs(2)): one call
// instead of an fsync per file when a pack carries many small files.
const syncFSAvailable = true

func syncFS(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	rc.Control(func(fd uintptr) {
		_, _, errno := syscall.Syscall(sysSyncfs(), fd, 0, 0)
		ok = errno == 0
	})
	return ok
}

// sysSyncfs is syncfs(2)'s number; package syscall predates it.
func sysSyncfs() uintptr {
	if runtime.GOARCH == "arm64" {
		return 267
	}
	return 306 // amd64
}
