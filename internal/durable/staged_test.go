package durable

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Staged publishes new files whole, in order, never replaces an existing
// one, stops when told to, and leaves no temporary file behind — for a
// small batch (fsync per file) and a large one (one flush).
func TestStagedPublish(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, ManyFiles + 1} {
		dir := t.TempDir()
		existing := filepath.Join(dir, "f1")
		if err := os.WriteFile(existing, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		s := NewStaged(n)
		for i := 0; i < n; i++ {
			p := filepath.Join(dir, "f"+string(rune('0'+i%10))+strings.Repeat("x", i/10))
			if err := s.Add(p, []byte("new"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		stop := errors.New("stop")
		err := s.Publish(func(i int, err error) error {
			switch {
			case err == nil:
				got = append(got, "ok")
			case errors.Is(err, fs.ErrExist):
				got = append(got, "exists")
			default:
				t.Fatalf("item %d: %v", i, err)
			}
			if i == 2 {
				return stop
			}
			return nil
		})
		if err != stop {
			t.Fatalf("n=%d: Publish returned %v, want the stop error", n, err)
		}
		if strings.Join(got, " ") != "ok exists ok" {
			t.Errorf("n=%d: outcomes %v", n, got)
		}
		if b, _ := os.ReadFile(existing); string(b) != "old" {
			t.Errorf("n=%d: an existing file was replaced: %q", n, b)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "f2")); string(b) != "new" {
			t.Errorf("n=%d: f2 = %q", n, b)
		}
		if info, err := os.Stat(filepath.Join(dir, "f0")); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("n=%d: f0: %v %v", n, info, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "f3")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("n=%d: f3 published after the stop: %v", n, err)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if IsTemp(e.Name()) {
				t.Errorf("n=%d: temporary file left: %s", n, e.Name())
			}
		}
	}
}
