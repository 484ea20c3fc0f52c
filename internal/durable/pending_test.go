package durable

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// beginSyncCommit is Write made of Pending's steps.
func beginSyncCommit(path string, perm fs.FileMode, fill func(*bufio.Writer) error) error {
	p, err := Begin(path, perm, fill)
	if err != nil {
		return err
	}
	if err := p.Sync(); err != nil {
		p.Abort()
		return err
	}
	return p.Commit()
}

// temps lists the temporary files left in dir.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if IsTemp(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// A Pending file is nowhere under its target's name until Commit; Abort
// at any step, a failed fill, and a Commit before Sync leave the target as
// it was and no temporary file.
func TestPendingSteps(t *testing.T) {
	t.Parallel()
	fill := func(w *bufio.Writer) error { _, err := w.WriteString("new"); return err }
	fillFails := errors.New("fill failed")
	cases := []struct {
		name string
		run  func(path string) error
		want string // the target's bytes afterwards
	}{
		{"commit", func(path string) error { return beginSyncCommit(path, 0o600, fill) }, "new"},
		{"abort before sync", func(path string) error {
			p, err := Begin(path, 0o600, fill)
			if err != nil {
				return err
			}
			p.Abort()
			p.Abort() // twice is harmless
			return nil
		}, "old"},
		{"abort after sync", func(path string) error {
			p, err := Begin(path, 0o600, fill)
			if err != nil {
				return err
			}
			if err := p.Sync(); err != nil {
				return err
			}
			p.Abort()
			return nil
		}, "old"},
		{"commit without sync", func(path string) error {
			p, err := Begin(path, 0o600, fill)
			if err != nil {
				return err
			}
			if err := p.Commit(); !errors.Is(err, errNotSynced) {
				t.Errorf("commit without sync: %v, want errNotSynced", err)
			}
			return nil
		}, "old"},
		{"sync twice", func(path string) error {
			p, err := Begin(path, 0o600, fill)
			if err != nil {
				return err
			}
			if err := p.Sync(); err != nil {
				return err
			}
			if err := p.Sync(); !errors.Is(err, fs.ErrClosed) {
				t.Errorf("second sync: %v, want fs.ErrClosed", err)
			}
			p.Abort()
			return nil
		}, "old"},
		{"fill fails", func(path string) error {
			if _, err := Begin(path, 0o600, func(w *bufio.Writer) error { w.WriteString("half"); return fillFails }); err != fillFails {
				t.Errorf("Begin: %v, want the fill's error", err)
			}
			return nil
		}, "old"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := c.run(path); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(path); string(b) != c.want {
				t.Errorf("target holds %q, want %q", b, c.want)
			}
			if left := temps(t, dir); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// Together runs every step, however many fail, and returns the first
// failure in the order given.
func TestTogether(t *testing.T) {
	t.Parallel()
	e1, e2 := errors.New("first"), errors.New("second")
	cases := []struct {
		name  string
		errs  []error // nil: a step that succeeds
		nils  bool    // a nil step among them
		want  error
		calls int
	}{
		{"none", nil, false, nil, 0},
		{"all succeed", []error{nil, nil, nil}, false, nil, 3},
		{"the second fails", []error{nil, e2}, false, e2, 2},
		{"both fail: the first given", []error{e1, e2}, false, e1, 2},
		{"the later fails: still its error", []error{nil, nil, e2}, false, e2, 3},
		{"nil steps skipped", []error{nil, e2}, true, e2, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			called := make([]bool, len(c.errs))
			var steps []func() error
			if c.nils {
				steps = append(steps, nil)
			}
			for i, err := range c.errs {
				steps = append(steps, func() error { called[i] = true; return err })
			}
			if c.nils {
				steps = append(steps, nil)
			}
			if err := Together(steps...); err != c.want {
				t.Errorf("Together = %v, want %v", err, c.want)
			}
			n := 0
			for _, ok := range called {
				if ok {
					n++
				}
			}
			if n != c.calls {
				t.Errorf("%d steps ran, want %d", n, c.calls)
			}
		})
	}
}
