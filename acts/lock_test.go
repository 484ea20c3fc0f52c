//go:build unix

package acts

import (
	"testing"
	"time"
)

// Two registrar runs over one project take turns (D9): the second waits,
// told so once, until the first unlocks; another project is not held up.
func TestLockProjectTakesTurns(t *testing.T) {
	l := &Log{Dir: t.TempDir()}
	unlock, err := l.LockProject("demo", func() { t.Error("the first lock waited") })
	if err != nil {
		t.Fatal(err)
	}
	other, err := l.LockProject("other", func() { t.Error("another project's lock waited") })
	if err != nil {
		t.Fatal(err)
	}
	other()
	waited := make(chan bool, 1)
	got := make(chan func())
	go func() {
		u, err := l.LockProject("demo", func() { waited <- true })
		if err != nil {
			t.Error(err)
		}
		got <- u
	}()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("the second run was not told it waits")
	}
	select {
	case <-got:
		t.Fatal("the second run got the lock while the first held it")
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	select {
	case u := <-got:
		u()
	case <-time.After(10 * time.Second):
		t.Fatal("the second run never got the lock")
	}
}
