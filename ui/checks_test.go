package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/howrun"
)

type fakeChecks struct {
	sheet *CheckSheet
	saved []map[string]CheckDecision
}

func (f *fakeChecks) LoadChecks(ctx context.Context, id string) (*CheckSheet, error) {
	return f.sheet, nil
}
func (f *fakeChecks) SaveChecks(ctx context.Context, id string, s map[string]CheckDecision) error {
	f.saved = append(f.saved, s)
	return nil
}

func sampleCheckSheet() *CheckSheet {
	p := samplePlan()
	return &CheckSheet{ID: "TP-AB23-CD45", Title: "Image pipeline", Origin: p.Origin, Checks: p.Checks}
}

func TestChecksScreen(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		saved string
		ran   bool
	}{
		// D12: the run is saved with the status the person attests.
		{"run confirmed, mark, save", []string{"r", "y", "p", "w"}, "[map[c1:{passed touch created-by-how 0 true}]]", true},
		{"run confirmed, not marked, save", []string{"r", "y", "w"}, "[map[c1:{ touch created-by-how 0 true}]]", true},
		{"run saved once", []string{"r", "y", "p", "w", "w"}, "[map[c1:{passed touch created-by-how 0 true}]]", true},
		{"declined, mark two, save", []string{"r", "n", "p", "f", "w"}, "[map[c1:{passed  0 false} c2:{failed  0 false}]]", false},
		{"quit without saving", []string{"p", "q"}, "[]", false},
		{"esc leaves without saving", []string{"p", "esc"}, "[]", false},
		{"nothing to save", []string{"w"}, "[]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			f := &fakeChecks{sheet: sampleCheckSheet()}
			c := testCommon(t, Deps{Checks: f, RunHow: howrun.Run})
			c.WorkDir = dir
			d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
			d.keys(tt.keys...)
			for _, m := range f.saved {
				for id, d := range m {
					// When it ran is recorded with the run (run.ran_at), and
					// only with a run.
					if d.Ran == d.RanAt.IsZero() {
						t.Fatalf("%s: ran %v at %v", id, d.Ran, d.RanAt)
					}
					d.RanAt = time.Time{}
					m[id] = d
				}
			}
			if got := strings.ReplaceAll(fmt.Sprint(f.saved), " 0001-01-01 00:00:00 +0000 UTC}", "}"); got != tt.saved {
				t.Fatalf("saved %s, want %s", got, tt.saved)
			}
			_, err := os.Stat(filepath.Join(dir, "created-by-how"))
			if (err == nil) != tt.ran {
				t.Fatalf("ran = %v, want %v", err == nil, tt.ran)
			}
		})
	}
}

func TestChecksScreenGolden(t *testing.T) {
	c := testCommon(t, Deps{Checks: &fakeChecks{sheet: sampleCheckSheet()}})
	d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
	d.keys("p")
	assertSafe(t, d.view())
	requireGolden(t, d.view())
}

// Issue 10: tp checks runs a check in the passport's luggage folder, and
// the confirmation names it.
func TestChecksScreenRunsInFilesDir(t *testing.T) {
	files := t.TempDir()
	sh := sampleCheckSheet()
	sh.FilesDir = files
	rr := &recordRunner{}
	c := testCommon(t, Deps{Checks: &fakeChecks{sheet: sh}, RunHow: rr.run})
	c.WorkDir = t.TempDir()
	d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
	d.keys("r")
	if !strings.Contains(d.view(), "folder   "+files) {
		t.Fatalf("confirmation:\n%s", d.view())
	}
	d.keys("y")
	if len(rr.got) != 1 || rr.got[0].Dir != files {
		t.Fatalf("ran %+v", rr.got)
	}
}
