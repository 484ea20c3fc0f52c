//go:build unix

package mcpserve

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	rc.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, syscall.F_GETFL, 0) })
	if err != nil {
		t.Fatal(err)
	}
	return flags&syscall.O_NONBLOCK != 0
}

// A pipe is read through the poller (a non-blocking copy of it) and given
// back blocking; a file or any other reader is read as it is.
func TestPollable(t *testing.T) {
	t.Parallel()
	// A blocking pipe, as a harness hands a child its stdin (os.Pipe's
	// are non-blocking already).
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "client")
	defer r.Close()
	if nonblocking(t, r) {
		t.Fatal("the pipe is non-blocking from the start")
	}
	in, restore := pollable(r)
	if in == io.Reader(r) {
		t.Fatal("a pipe was not made pollable")
	}
	go func() { w.WriteString("line\n"); w.Close() }()
	got, err := io.ReadAll(in)
	if err != nil || string(got) != "line\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	if !nonblocking(t, r) {
		t.Error("the pipe's flags were not shared with the copy: the poller cannot have read it")
	}
	restore()
	if nonblocking(t, r) {
		t.Error("the pipe was left non-blocking for the process that gave it")
	}

	file := filepath.Join(t.TempDir(), "requests.jsonl")
	if err := os.WriteFile(file, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, other := range []io.Reader{f, strings.NewReader("x"), &bytes.Buffer{}} {
		got, restore := pollable(other)
		restore()
		if got != other {
			t.Errorf("%T was not read as it is", other)
		}
	}
	if nonblocking(t, f) {
		t.Error("a file was made non-blocking")
	}
}
