package recordlog

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Two registrar runs over one project take turns (D9): the second waits,
// told so once, until the first unlocks; another project is not held up.
func TestLockProjectTakesTurns(t *testing.T) {
	t.Parallel()
	l := &Log{Dir: t.TempDir()}
	unlock, err := l.LockProject("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Another project's lock is had while demo's is held.
	other, err := l.LockProject("other", nil)
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

// The principals' lock takes turns the same way, on every OS (it was a
// no-op off Unix before lockedfile), and is its own file: not the
// registrar's, so a sync does not hold up a settle.
func TestLockPrincipalsTakesTurns(t *testing.T) {
	t.Parallel()
	for _, cache := range []bool{false, true} {
		l := &Log{Dir: t.TempDir()}
		if cache {
			l.CacheDir = t.TempDir()
		}
		lockPrincipalsTakesTurns(t, l)
		if cache {
			// Nothing in the project folder (a git working tree, D20).
			if _, err := os.Lstat(filepath.Join(l.ProjectDir("demo"), ".principals.lock")); err == nil {
				t.Error("with a cache folder, the principals' lock file is in the project folder")
			}
		}
	}
}

func lockPrincipalsTakesTurns(t *testing.T, l *Log) {
	unlock, err := l.lockPrincipals("demo")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := l.LockProject("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	reg()
	got := make(chan func())
	go func() {
		u, err := l.lockPrincipals("demo")
		if err != nil {
			t.Error(err)
		}
		got <- u
	}()
	select {
	case <-got:
		t.Fatal("the second change got the lock while the first held it")
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	select {
	case u := <-got:
		u()
	case <-time.After(10 * time.Second):
		t.Fatal("the second change never got the lock")
	}
}

// A link planted where the lock file goes is not followed: the lock is
// refused, and nothing is created where the link points (D9).
func TestLockFollowsNoLink(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	l := &Log{Dir: t.TempDir()}
	if err := os.MkdirAll(l.ProjectDir("demo"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, filepath.Join(l.ProjectDir("demo"), ".registrar.lock")); err != nil {
		t.Fatal(err)
	}
	if u, err := l.LockProject("demo", nil); err == nil {
		u()
		t.Fatal("locked through a link")
	}
	if _, err := os.Lstat(target); err == nil {
		t.Fatal("the lock created the link's target")
	}
}

// One project folder reached by two paths (a link to the acts dir, a
// spelling with "..") is one principals lock, not two: two settles
// registering a first principal through different paths still take turns.
func TestPrincipalsLockIsTheFolders(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	cache := t.TempDir()
	real := filepath.Join(base, "acts")
	l := &Log{Dir: real, CacheDir: cache}
	want, err := l.principalsLockPath("demo")
	if err != nil {
		t.Fatal(err)
	}
	others := []string{filepath.Join(base, "acts", "..", "acts")}
	if err := os.Symlink(real, filepath.Join(base, "link")); err == nil {
		others = append(others, filepath.Join(base, "link"))
	}
	for _, dir := range others {
		got, err := (&Log{Dir: dir, CacheDir: cache}).principalsLockPath("demo")
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("through %s the principals lock is %s, not %s", dir, got, want)
		}
	}
	// another project folder is another lock
	if got, _ := l.principalsLockPath("other"); got == want {
		t.Error("two projects share one principals lock")
	}
}
