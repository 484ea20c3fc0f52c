//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
	"testing"
	"time"
)

// A FIFO (or any file that is not regular) where a passport or a lock
// should be is refused, never read forever (issue 11).
func TestNonRegularStoreFilesRefused(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	id := "TP-FIFO-AAAA"
	if err := syscall.Mkfifo(s.Path(id), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.Get(id); done <- err }()
	select {
	case err := <-done:
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Path != s.Path(id) {
			t.Fatalf("Get of a FIFO = %v, want a NotRegularError naming it", err)
		}
	case <-time.After(20 * time.Second): // a deadlock guard, not a measurement
		// Unblock the reader so the test binary can end.
		if f, err := os.OpenFile(s.Path(id), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("Get blocked on a FIFO")
	}
	// List skips it and still lists the rest.
	if _, _, err := s.List(); err != nil {
		t.Fatalf("List: %v", err)
	}

	// A FIFO in place of a lock file: the save waits for it as for any
	// lock and ends busy; it never blocks reading it.
	v, err := s.Create("t", "g", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lock := s.Path(v.Get("id").Text()) + ".lock"
	if err := syscall.Mkfifo(lock, 0o600); err != nil {
		t.Fatal(err)
	}
	s.LockTimeout = 100 * time.Millisecond
	go func() { _, err := s.Save(v, 1); done <- err }()
	select {
	case err := <-done:
		var busy *BusyError
		if !errors.As(err, &busy) {
			t.Fatalf("save with a FIFO lock = %v, want busy", err)
		}
	case <-time.After(20 * time.Second):
		if f, err := os.OpenFile(lock, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("save blocked reading a FIFO lock")
	}
}
