//go:build unix

package mcpserve

import (
	"io"
	"os"
	"syscall"
)

// pollable is the client's input made readable through Go's poller when it
// is a pipe or a socket (as an agent harness connects it): a copy of the
// descriptor, set non-blocking, so a read waiting for the next request
// parks its goroutine instead of holding a thread in a blocking read. The
// request that arrives is then read and handled by the thread the poller
// wakes, not handed to another one that must be woken first (issue 16:
// each round trip paid that wake-up). A terminal, a file or anything else
// is read as it is. restore puts the descriptor back as it was (its flags
// are shared with the process that gave it) and closes the copy.
func pollable(in io.Reader) (r io.Reader, restore func()) {
	f, ok := in.(*os.File)
	if !ok {
		return in, func() {}
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return in, func() {}
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return in, func() {}
	}
	dup := -1
	rc.Control(func(fd uintptr) {
		if d, err := syscall.Dup(int(fd)); err == nil {
			dup = d
		}
	})
	if dup < 0 {
		return in, func() {}
	}
	syscall.CloseOnExec(dup)
	if err := syscall.SetNonblock(dup, true); err != nil {
		syscall.Close(dup)
		return in, func() {}
	}
	nb := os.NewFile(uintptr(dup), f.Name())
	return nb, func() {
		if rc, err := nb.SyscallConn(); err == nil {
			rc.Control(func(fd uintptr) { syscall.SetNonblock(int(fd), false) })
		}
		nb.Close()
	}
}
