//go:build !(linux && (amd64 || arm64))

package pack

import "os"

// startWriteback is a no-op where sync_file_range is not available; the
// fsync at the end of each file still makes it durable.
func startWriteback(f *os.File, off, n int64) {}

// syncFS is unavailable here: every file is fsynced on its own.
const syncFSAvailable = false

func syncFS(dir string) bool { return false }
