package mcp

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/store"
)

// judgeWorld is a server whose working directory holds one pack, old
// enough that its stamp is not racy.
func judgeWorld(t *testing.T) (*Server, string, []byte) {
	t.Helper()
	base := t.TempDir()
	work := filepath.Join(base, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(base, "store"))
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Store: st, WorkDir: work, Env: func(string) string { return "" }, Log: io.Discard})
	body, err := os.ReadFile(filepath.Join("..", "examples", "handoff.taskpack"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(work, "in.taskpack")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	// The pack changed long ago as far as the racy rule is concerned: its
	// clock reads an hour after the file's own stamps.
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(time.Hour)
	s.judged.Clock = func() time.Time { return later }
	return s, path, body
}

// conform judges path through the tool and returns how many passed, or -1
// when the file is not a pack at all.
func conform(t *testing.T, s *Server, path string) int {
	t.Helper()
	c, err := s.conformance(context.Background(), pathArgs{Path: path})
	if err != nil {
		return -1
	}
	return c.Passed
}

// TestJudgedReportRemembered: a pack judged again unchanged is not read
// again.
func TestJudgedReportRemembered(t *testing.T) {
	s, path, _ := judgeWorld(t)
	first := conform(t, s, path)
	if first <= 0 {
		t.Fatalf("the example pack passes %d checks", first)
	}
	if again := conform(t, s, path); again != first || s.judged.Made != 1 {
		t.Fatalf("judged again: %d passed, %d judgements, want %d and 1", again, s.judged.Made, first)
	}
}

// packSwaps are the ways a pack is changed under the same size and
// modification time, each of which must give it a new stamp: rewritten in
// place (a new change time), or replaced by rename (a new inode).
var packSwaps = []struct {
	name string
	do   func(t *testing.T, path string, spoiled []byte)
}{
	{"rewritten in place, same size and mtime", func(t *testing.T, path string, spoiled []byte) {
		fi, _ := os.Stat(path)
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt(spoiled, 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}},
	{"replaced by rename, same size and mtime", func(t *testing.T, path string, spoiled []byte) {
		fi, _ := os.Stat(path)
		tmp := path + ".new"
		if err := os.WriteFile(tmp, spoiled, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}},
}

// TestJudgedPackSwapped: a pack changed after it was judged is judged
// again, however the change tries to hide: rewritten in place to the same
// size with its modification time put back (a new change time), replaced
// by rename under the same size and times (a new inode), or a link
// pointed at another file.
func TestJudgedPackSwapped(t *testing.T) {
	for _, swap := range packSwaps {
		t.Run(swap.name, func(t *testing.T) {
			s, path, body := judgeWorld(t)
			// Time passes, as between two calls: the swap's change time is
			// not the first write's.
			time.Sleep(20 * time.Millisecond)
			first := conform(t, s, path)
			spoiled := append([]byte{}, body...)
			spoiled[len(spoiled)/2] ^= 0x20
			swap.do(t, path, spoiled)
			if again := conform(t, s, path); s.judged.Made != 2 || again == first {
				t.Fatalf("after the swap: %d passed (before %d), %d judgements: the old report was trusted", again, first, s.judged.Made)
			}
		})
	}
	t.Run("a link pointed elsewhere", func(t *testing.T) {
		s, path, body := judgeWorld(t)
		dir := filepath.Dir(path)
		link := filepath.Join(dir, "link.taskpack")
		if err := os.Symlink(path, link); err != nil {
			t.Skip("no symbolic links here")
		}
		first := conform(t, s, link)
		spoiled := append([]byte{}, body...)
		spoiled[len(spoiled)/2] ^= 0x20
		other := filepath.Join(dir, "other.taskpack")
		if err := os.WriteFile(other, spoiled, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(link)
		if err := os.Symlink(other, link); err != nil {
			t.Fatal(err)
		}
		if again := conform(t, s, link); s.judged.Made != 2 || again == first {
			t.Fatalf("after the link moved: %d passed (before %d), %d judgements", again, first, s.judged.Made)
		}
	})
}

// TestJudgedReportRacy: a pack that changed within the timestamp
// resolution of the moment it was judged is not remembered: a second
// change in the same tick would leave its stamp as it is.
func TestJudgedReportRacy(t *testing.T) {
	s, path, _ := judgeWorld(t)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	s.judged.Clock = func() time.Time { return fi.ModTime().Add(time.Millisecond) }
	conform(t, s, path)
	conform(t, s, path)
	if s.judged.Made != 2 {
		t.Fatalf("%d judgements of a pack that had just changed, want 2", s.judged.Made)
	}
}
