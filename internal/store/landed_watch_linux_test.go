package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// watched is a store following its folder (Store.Watch), with a clock that
// never moves: refilesEvery never passes, so only the watch can show a
// change that leaves the folder's stamp as it was.
func watched(t *testing.T) *Store {
	t.Helper()
	s := newStore(t)
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Add(time.Hour)
	s.landed.clock = func() time.Time { return now }
	if !s.Watch() {
		t.Fatal("the kernel does not watch the store folder (inotify)")
	}
	return s
}

// editInPlace rewrites path in place with body (the same size as before)
// and puts its modification time back: only its change time tells.
func editInPlace(t *testing.T, path, body string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(body); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func saveByRename(t *testing.T, s *Store, id, body string) {
	t.Helper()
	tmp := filepath.Join(s.Dir(), ".tmp-"+id)
	writeFile(t, tmp, body)
	if err := os.Rename(tmp, s.Path(id)); err != nil {
		t.Fatal(err)
	}
}

// TestLandedFromWatchedSeesEachChangeAtOnce: a watched store's answer is
// List's after every way a passport file can change, at once — an edit in
// place included, which an unwatched store sees only after refilesEvery —
// and it never looks at the whole folder again to know it: it reads only
// the file that changed.
func TestLandedFromWatchedSeesEachChangeAtOnce(t *testing.T) {
	t.Parallel()
	s := watched(t)
	a, b, c := strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64)
	writeFile(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", a))
	writeFile(t, s.Path("TP-BBBB-BBBB"), landedState("TP-BBBB-BBBB", "2026-02-01T00:00:00Z", ""))
	writeFile(t, s.Path("broken"), `{"id":"broken",`)
	sameAsList(t, s, "first look")
	scans := s.landed.scans

	for _, st := range []struct {
		name   string
		reads  int // files read for the change
		change func()
	}{
		{"saved by rename", 1, func() {
			saveByRename(t, s, "TP-AAAA-AAAA", landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", b))
		}},
		{"edited in place, same size, times put back", 1, func() {
			editInPlace(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", c))
		}},
		{"made unreadable in place", 1, func() {
			editInPlace(t, s.Path("TP-BBBB-BBBB"), strings.Repeat(" ", len(landedState("TP-BBBB-BBBB", "2026-02-01T00:00:00Z", ""))))
		}},
		{"removed", 0, func() { os.Remove(s.Path("TP-BBBB-BBBB")) }},
		{"a new passport", 1, func() {
			writeFile(t, s.Path("TP-CCCC-CCCC"), landedState("TP-CCCC-CCCC", "2026-03-01T00:00:00Z", a))
		}},
		{"a record of packs sent and a stray file", 0, func() {
			writeFile(t, filepath.Join(s.Dir(), "TP-CCCC-CCCC.sent"), `{}`)
			writeFile(t, filepath.Join(s.Dir(), "notes.txt"), `hello`)
		}},
		{"a passport turned into a folder", 0, func() {
			os.Remove(s.Path("TP-CCCC-CCCC"))
			if err := os.Mkdir(s.Path("TP-CCCC-CCCC"), 0o700); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		reads := s.landed.reads
		st.change()
		sameAsList(t, s, st.name)
		if got := s.landed.reads - reads; got != st.reads {
			t.Errorf("%s: %d files read, want %d", st.name, got, st.reads)
		}
	}
	if s.landed.scans != scans {
		t.Errorf("the folder was looked at whole %d more times; the watch names what changed", s.landed.scans-scans)
	}
}

// TestLandedFromWatchedChangeWithoutEvent: a folder whose stamp changed
// with no event since (a change the kernel did not report: another
// machine's, on a network filesystem) is looked at whole; so is one whose
// events were lost (the kernel's queue overflowed).
func TestLandedFromWatchedChangeWithoutEvent(t *testing.T) {
	t.Parallel()
	s := watched(t)
	writeFile(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("a", 64)))
	sameAsList(t, s, "first look")

	saveByRename(t, s, "TP-AAAA-AAAA", landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("b", 64)))
	s.landed.sub.take() // the events never came
	sameAsList(t, s, "saved by rename, unreported")

	// An edit in place leaves the folder's stamp: only the lost events say
	// to look.
	editInPlace(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("c", 64)))
	s.landed.sub.take()
	// As an overflow marks every subscriber, this one only: the tests
	// beside it watch their own folders.
	sub := s.landed.sub
	sub.w.mu.Lock()
	sub.lost = true
	sub.w.mu.Unlock()
	sameAsList(t, s, "edited in place, events lost")
}

// TestLandedFromWatchedFolderReplaced: the store folder moved away and
// another put in its place is the new folder's answer, and the new folder
// is watched in turn.
func TestLandedFromWatchedFolderReplaced(t *testing.T) {
	t.Parallel()
	s := watched(t)
	writeFile(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("a", 64)))
	sameAsList(t, s, "first look")
	if err := os.Rename(s.Dir(), s.Dir()+".old"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.Path("TP-BBBB-BBBB"), landedState("TP-BBBB-BBBB", "2026-02-01T00:00:00Z", strings.Repeat("b", 64)))
	sameAsList(t, s, "another folder in its place")
	// The old folder's changes are not this store's.
	writeFile(t, filepath.Join(s.Dir()+".old", "TP-CCCC-CCCC.json"), landedState("TP-CCCC-CCCC", "2026-03-01T00:00:00Z", ""))
	sameAsList(t, s, "the old folder changed")
	sameAsList(t, s, "looked again")
	if s.landed.sub == nil {
		t.Fatal("the new folder is not watched")
	}
	scans := s.landed.scans
	editInPlace(t, s.Path("TP-BBBB-BBBB"), landedState("TP-BBBB-BBBB", "2026-02-01T00:00:00Z", strings.Repeat("c", 64)))
	sameAsList(t, s, "the new folder edited in place")
	if s.landed.scans != scans {
		t.Errorf("the new folder's change was found by a whole look, not the watch")
	}
}

// TestLandedFromWatchedTwice: two stores on one folder each see every
// change (the kernel's watch is one; each store takes its own events).
func TestLandedFromWatchedTwice(t *testing.T) {
	t.Parallel()
	s1 := watched(t)
	s2, err := Open(s1.Dir())
	if err != nil {
		t.Fatal(err)
	}
	s2.landed.clock = s1.landed.clock
	if !s2.Watch() {
		t.Fatal("the second store is not watched")
	}
	writeFile(t, s1.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("a", 64)))
	sameAsList(t, s1, "first store, first look")
	sameAsList(t, s2, "second store, first look")
	editInPlace(t, s1.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("b", 64)))
	sameAsList(t, s1, "first store, after an edit in place")
	sameAsList(t, s2, "second store, after an edit in place")
}

// TestLandedFromWatchedStillRefiles: a change the kernel never reported
// and that left the folder as it was (an edit in place through a network
// filesystem) is still seen once refilesEvery has passed, as in an
// unwatched store.
func TestLandedFromWatchedStillRefiles(t *testing.T) {
	t.Parallel()
	s := watched(t)
	now := time.Now().Add(time.Hour)
	s.landed.clock = func() time.Time { return now }
	writeFile(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("a", 64)))
	sameAsList(t, s, "first look")
	editInPlace(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("b", 64)))
	s.landed.sub.take() // never reported
	if got, _ := landedNow(t, s); len(got) != 1 || !strings.Contains(got[0], strings.Repeat("a", 64)) {
		t.Fatalf("within refilesEvery the unreported edit was seen, so this test proves nothing: %q", got)
	}
	now = now.Add(refilesEvery)
	sameAsList(t, s, "a second later")
}
