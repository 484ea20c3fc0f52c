package home

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/store"
)

func TestIsPackName(t *testing.T) {
	for name, want := range map[string]bool{
		"deck.taskpack": true, "deck.taskpack.json": true, "old.tpx": true,
		".taskpack": false, "deck.json": false, "deck.taskpack.bak": false, "taskpack": false,
	} {
		if got := IsPackName(name); got != want {
			t.Errorf("IsPackName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSummarizeFolders: packs are listed by file name, folders named like
// packs are not, and a folder that cannot be read is a problem, not an error.
func TestSummarizeFolders(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.taskpack", "a.taskpack.json", "notes.md"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "c.taskpack"), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Summarize(context.Background(), Sources{Store: st, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Packs) != 2 || s.Packs[0] != "a.taskpack.json" || s.Packs[1] != "b.taskpack" || len(s.Problems) != 0 {
		t.Errorf("packs %q problems %q", s.Packs, s.Problems)
	}
	s, err = Summarize(context.Background(), Sources{Dir: filepath.Join(dir, "gone")})
	if err != nil || len(s.Problems) != 1 || len(s.Packs) != 0 {
		t.Errorf("a missing folder: %v %q", err, s.Problems)
	}
}
