package store

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
)

// landedOf is List's answer in LandedFrom's shape: what LandedFrom must
// always equal, however much it remembers.
func landedOf(t *testing.T, s *Store) ([]string, []Skipped) {
	t.Helper()
	entries, skipped, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.ID+" "+string(ojson.Compact(orNull(e.V.Get("landed_from")))))
	}
	return out, skipped
}

func landedNow(t *testing.T, s *Store) ([]string, []Skipped) {
	t.Helper()
	ls, skipped, err := s.LandedFrom()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range ls {
		out = append(out, l.ID+" "+string(ojson.Compact(orNull(l.From))))
	}
	return out, skipped
}

func sameAsList(t *testing.T, s *Store, when string) {
	t.Helper()
	wantL, wantS := landedOf(t, s)
	gotL, gotS := landedNow(t, s)
	if !reflect.DeepEqual(gotL, wantL) || !reflect.DeepEqual(gotS, wantS) {
		t.Fatalf("%s: LandedFrom\n%q %v\nList\n%q %v", when, gotL, gotS, wantL, wantS)
	}
}

func landedState(id, updated, sha string) string {
	from := ""
	if sha != "" {
		from = `,"landed_from":{"file":"x.taskpack","sha256":"` + sha + `"}`
	}
	return `{"id":"` + id + `","title":"t","version":1,"updated_at":"` + updated + `"` + from + `}`
}

// TestLandedFromIsListWithoutStaleness: whatever LandedFrom remembers, its
// answer is List's, after every way a passport file can change under it: a
// save by rename, an edit in place of the same size with its times put
// back, a removal, a new file, a file turned unreadable, a stray file.
func TestLandedFromIsListWithoutStaleness(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	// Nothing is racy: every file counts as changed long ago, so all are
	// remembered and only the stamps can tell a change. Each step is
	// looked at more than refilesEvery after the last, as an edit in
	// place is only promised to be seen then.
	later := time.Now().Add(time.Hour)
	s.landed.clock = func() time.Time { return later }
	writeFile(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("a", 64)))
	writeFile(t, s.Path("TP-BBBB-BBBB"), landedState("TP-BBBB-BBBB", "2026-02-01T00:00:00Z", ""))
	writeFile(t, s.Path("broken"), `{"id":"broken",`)
	writeFile(t, filepath.Join(s.Dir(), "notes.txt"), `hello`)
	sameAsList(t, s, "first look")
	before := s.landed.reads
	sameAsList(t, s, "nothing changed")
	if s.landed.reads != before {
		t.Errorf("nothing changed, yet %d files were read again", s.landed.reads-before)
	}

	steps := []struct {
		name   string
		change func()
	}{
		{"saved by rename", func() {
			tmp := filepath.Join(s.Dir(), ".tmp-x")
			writeFile(t, tmp, landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("b", 64)))
			if err := os.Rename(tmp, s.Path("TP-AAAA-AAAA")); err != nil {
				t.Fatal(err)
			}
		}},
		{"edited in place, same size, times put back", func() {
			p := s.Path("TP-AAAA-AAAA")
			fi, _ := os.Stat(p)
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("c", 64))); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"removed", func() { os.Remove(s.Path("TP-BBBB-BBBB")) }},
		{"a new passport", func() {
			writeFile(t, s.Path("TP-CCCC-CCCC"), landedState("TP-CCCC-CCCC", "2026-03-01T00:00:00Z", strings.Repeat("d", 64)))
		}},
		{"turned unreadable", func() {
			tmp := filepath.Join(s.Dir(), ".tmp-y")
			writeFile(t, tmp, `{"id":"TP-CCCC-CCCC"`)
			os.Rename(tmp, s.Path("TP-CCCC-CCCC"))
		}},
		{"readable again", func() {
			writeFile(t, s.Path("TP-CCCC-CCCC"), landedState("TP-CCCC-CCCC", "2026-03-01T00:00:00Z", ""))
		}},
	}
	for _, st := range steps {
		st.change()
		later = later.Add(2 * refilesEvery)
		sameAsList(t, s, st.name)
	}
}

// TestLandedFromTrustsAnUnchangedFolder: while the store folder is as it
// was and refilesEvery has not passed, LandedFrom answers without looking
// at a file; a save by rename is seen at once all the same, and an edit in
// place once refilesEvery has passed.
func TestLandedFromTrustsAnUnchangedFolder(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	later := time.Now().Add(time.Hour)
	s.landed.clock = func() time.Time { return later }
	writeFile(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("a", 64)))
	sameAsList(t, s, "first look")
	scans := s.landed.scans
	sameAsList(t, s, "nothing changed")
	if s.landed.scans != scans {
		t.Errorf("nothing changed, yet the folder was read again")
	}

	// Saved by rename, within the second: seen at once.
	tmp := filepath.Join(s.Dir(), ".tmp-x")
	writeFile(t, tmp, landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("b", 64)))
	if err := os.Rename(tmp, s.Path("TP-AAAA-AAAA")); err != nil {
		t.Fatal(err)
	}
	sameAsList(t, s, "saved by rename")

	// Edited in place: the folder is as it was, so the old answer stands
	// until refilesEvery has passed, then the edit is seen.
	p := s.Path("TP-AAAA-AAAA")
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", strings.Repeat("c", 64))); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, _ := landedNow(t, s); len(got) != 1 || !strings.Contains(got[0], strings.Repeat("b", 64)) {
		t.Errorf("within refilesEvery, the answer changed without a change to the folder: %q", got)
	}
	later = later.Add(refilesEvery)
	sameAsList(t, s, "edited in place, a second later")
}

// TestLandedFromRacyFilesAreReadAgain: a file that changed within the
// timestamp resolution of the look is not remembered (a second change in
// the same tick would leave its stamp as it was).
func TestLandedFromRacyFilesAreReadAgain(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	writeFile(t, s.Path("TP-AAAA-AAAA"), landedState("TP-AAAA-AAAA", "2026-01-01T00:00:00Z", ""))
	fi, err := os.Stat(s.Path("TP-AAAA-AAAA"))
	if err != nil {
		t.Fatal(err)
	}
	s.landed.clock = func() time.Time { return fi.ModTime().Add(time.Millisecond) } // the same tick
	landedNow(t, s)
	before := s.landed.reads
	landedNow(t, s)
	if s.landed.reads != before+1 {
		t.Errorf("a file changed in the tick it was read was remembered (%d reads, want 1)", s.landed.reads-before)
	}
}

// TestLandedFromAnswersAreTheCallers: two callers read the records
// LandedFrom returned at once, as two landings of one file do; each gets
// its own copy (run under -race, this fails when they share one).
func TestLandedFromAnswersAreTheCallers(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.landed.clock = func() time.Time { return time.Now().Add(time.Hour) }
	from := `,"landed_from":{"file":"x.taskpack","a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"sha256":"` + strings.Repeat("a", 64) + `"}`
	writeFile(t, s.Path("TP-AAAA-AAAA"), `{"id":"TP-AAAA-AAAA","version":1,"updated_at":"2026-01-01T00:00:00Z"`+from+`}`)
	landedNow(t, s) // remembered now
	done := make(chan string, 2)
	for range 2 {
		go func() {
			ls, _, err := s.LandedFrom()
			if err != nil || len(ls) != 1 {
				done <- "no answer"
				return
			}
			done <- ls[0].From.Get("sha256").Text() + ls[0].From.Get("j").Text()
		}()
	}
	for range 2 {
		if got := <-done; got != strings.Repeat("a", 64) {
			t.Errorf("read %q", got)
		}
	}
	ls, _, _ := s.LandedFrom()
	ls[0].From.Set("sha256", ojson.NewString("changed by a caller"))
	if again, _, _ := s.LandedFrom(); again[0].From.Get("sha256").Text() != strings.Repeat("a", 64) {
		t.Errorf("a caller's change reached what the store remembers")
	}
}
