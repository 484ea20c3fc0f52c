//go:build linux

package landing

import (
	"io/fs"
	"strings"

	"golang.org/x/sys/unix"
)

// rawCreate says createIn is available: a new luggage file made with three
// system calls (openat, write, close). os.Root.OpenFile also asks the file
// for its flags, sets them, and tries to add it to the poller: four more
// calls per file, most of what a pack of 5,000 small files cost over the
// floor (issue 20).
const rawCreate = true

// createIn creates name, one path element, in the folder dir: exclusively
// (a name that exists, a planted link included, fails), never following a
// link, mode 0644 less the umask as os.Root.OpenFile makes it, and writes
// data. The caller flushes the folder's file system once for the batch
// (durable.Batch with FlushOnce).
//
// name must be one element: a separator, "." or ".." is refused here too,
// though extraction only passes the base of a name luggageName accepted.
func createIn(dir *folderFile, name string, data []byte) error {
	dir.mu.Lock()
	defer dir.mu.Unlock()
	return createInLocked(dir, name, data)
}

// createInLocked is createIn with dir.mu held by the caller (the openat is
// what the lock is for; the write and close need not hold it, but a run of
// small files is created under one hold: see smallRunFiles.create).
func createInLocked(dir *folderFile, name string, data []byte) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') || strings.ContainsRune(name, 0) {
		return &fs.PathError{Op: "create", Path: name, Err: fs.ErrInvalid}
	}
	fd, err := unix.Openat(dir.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return &fs.PathError{Op: "openat", Path: name, Err: err}
	}
	for len(data) > 0 {
		n, err := unix.Write(fd, data)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			unix.Close(fd)
			return &fs.PathError{Op: "write", Path: name, Err: err}
		}
		data = data[n:]
	}
	if err := unix.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}
