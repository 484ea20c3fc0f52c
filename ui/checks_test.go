package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/internal/howrun"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
)

// fakeChecks saves as the store does: the statuses and runs applied, the
// version one higher, the sheet as saved returned.
type fakeChecks struct {
	sheet   *common.CheckSheet
	saved   []map[string]common.CheckDecision
	saveErr error
}

func (f *fakeChecks) LoadChecks(ctx context.Context, id string) (*common.CheckSheet, error) {
	cp := *f.sheet
	cp.Checks = append([]common.Check(nil), f.sheet.Checks...)
	return &cp, nil
}

func (f *fakeChecks) SaveChecks(ctx context.Context, id string, s map[string]common.CheckDecision) (*common.CheckSheet, error) {
	f.saved = append(f.saved, s)
	if f.saveErr != nil {
		return nil, f.saveErr
	}
	sh, _ := f.LoadChecks(ctx, id)
	sh.Version++
	for i, c := range sh.Checks {
		d, ok := s[c.ID]
		if !ok {
			continue
		}
		if d.Status != "" {
			sh.Checks[i].Status = d.Status
		}
		if d.Ran {
			sh.Checks[i].Run = &common.CheckRun{Command: d.Command, Edited: d.Command != c.How, Exit: d.Exit, By: "bob@beta", At: d.RanAt.UTC().Format(time.RFC3339)}
		}
	}
	f.sheet = sh
	return sh, nil
}

func sampleCheckSheet() *common.CheckSheet {
	p := samplePlan()
	return &common.CheckSheet{ID: "TP-AB23-CD45", Title: "Image pipeline", Version: 3, Origin: p.Origin, Checks: p.Checks}
}

func TestChecksScreen(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		saved string
		ran   bool
	}{
		// D12: the run is saved with the status the person attests; w
		// reviews, y saves (issue 10: as the asks screen saves).
		{"run confirmed, mark, save", []string{"r", "y", "p", "w", "y"}, "[map[c1:{passed touch created-by-how 0 true}]]", true},
		{"run confirmed, not marked, save", []string{"r", "y", "w", "y"}, "[map[c1:{ touch created-by-how 0 true}]]", true},
		{"run saved once", []string{"r", "y", "p", "w", "y", "w", "y"}, "[map[c1:{passed touch created-by-how 0 true}]]", true},
		{"declined, mark two, save", []string{"r", "n", "p", "f", "w", "y"}, "[map[c1:{passed  0 false} c2:{failed  0 false}]]", false},
		{"review, n goes back, nothing saved", []string{"p", "w", "n"}, "[]", false},
		{"review, esc goes back, then save", []string{"p", "w", "esc", "w", "y"}, "[map[c1:{passed  0 false}]]", false},
		{"w alone saves nothing", []string{"p", "w"}, "[]", false},
		{"quit without saving", []string{"p", "q"}, "[]", false},
		{"esc leaves without saving", []string{"p", "esc"}, "[]", false},
		{"nothing to save", []string{"w", "y"}, "[]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			f := &fakeChecks{sheet: sampleCheckSheet()}
			c := testCommon(t, common.Deps{Checks: f, RunHow: howrun.Run})
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
	c := testCommon(t, common.Deps{Checks: &fakeChecks{sheet: sampleCheckSheet()}})
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
	c := testCommon(t, common.Deps{Checks: &fakeChecks{sheet: sh}, RunHow: rr.Run})
	c.WorkDir = t.TempDir()
	d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
	d.keys("r")
	if !strings.Contains(d.view(), "folder   "+files) {
		t.Fatalf("confirmation:\n%s", d.view())
	}
	d.keys("y")
	if len(rr.Got) != 1 || rr.Got[0].Dir != files {
		t.Fatalf("ran %+v", rr.Got)
	}
}

// Issue 10: the checks screen saves as the asks screen does — w shows the
// changes, y saves them — and then shows the version saved, with nothing
// left unsaved and the run as recorded.
func TestChecksScreenReviewThenSave(t *testing.T) {
	f := &fakeChecks{sheet: sampleCheckSheet()}
	c := testCommon(t, common.Deps{Checks: f, RunHow: (&recordRunner{}).Run})
	d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
	hasLines(t, d.view(), "version 3")
	d.keys("r", "y", "p", "f", "w")
	v := d.view()
	hasLines(t, v, "Save these changes to TP-AB23-CD45?", "c1 → passed · ran the sender's command (exit 0)", "c2 → failed", "y save")
	if len(f.saved) != 0 {
		t.Fatal("saved before y")
	}
	d.keys("y")
	v = d.view()
	hasLines(t, v, "version 4", "✓ saved as version 4 (2 checks changed)")
	if strings.Contains(v, "unsaved") {
		t.Fatalf("still unsaved after saving:\n%s", v)
	}
	s := d.app().Top().(*ChecksScreen)
	if s.Sheet().Version != 4 || s.Sheet().Checks[0].Status != "passed" || s.Sheet().Checks[0].Run == nil {
		t.Fatalf("sheet after saving: %+v", s.Sheet())
	}
	if n := len(s.changes()); n != 0 {
		t.Fatalf("%d changes left after saving", n)
	}
}

// A save that fails says why, keeps the changes and goes back to the list.
func TestChecksScreenSaveFails(t *testing.T) {
	f := &fakeChecks{sheet: sampleCheckSheet(), saveErr: errors.New("passport changed on disk (version 4, expected 3)")}
	c := testCommon(t, common.Deps{Checks: f})
	d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
	d.keys("p", "w", "y")
	hasLines(t, d.view(), "version 3", "✗ passport changed on disk")
	if n := len(d.app().Top().(*ChecksScreen).changes()); n != 1 {
		t.Fatalf("%d changes kept", n)
	}
}

// Issue 10: tp checks shows the run the store recorded for each check: the
// command (when edited), its exit status, who ran it and when.
func TestChecksScreenShowsRecordedRun(t *testing.T) {
	sh := sampleCheckSheet()
	sh.Checks[0].Status = "passed"
	sh.Checks[0].Run = &common.CheckRun{Command: "touch created-by-how", Exit: 0, By: "bob@beta", At: "2026-11-30T09:15:00Z"}
	sh.Checks[1].Run = &common.CheckRun{Command: "python3 --version || true", Edited: true, Exit: 2, By: "carol@gamma", At: "2026-11-30T09:20:00Z"}
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			c := testCommon(t, common.Deps{Checks: &fakeChecks{sheet: sh}})
			c.Width, c.Height = size[0], size[1]
			d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
			hasLines(t, d.view(), "Last run: the sender's command · ✓ exit 0", "by bob@beta at 2026-11-30T09:15:00Z")
			d.keys("down")
			v := d.view()
			hasLines(t, v, "Last run: the person's edit · ✗ exit 2", "by carol@gamma at 2026-11-30T09:20:00Z", "$ python3 --version || true")
			assertSafe(t, v)
			requireGolden(t, v)
		})
	}
}

// storePassports reads the passport the checks fake holds, as a store
// would: its version and pending checks.
type storePassports struct{ checks *fakeChecks }

func (s storePassports) LoadPassport(ctx context.Context, id string) (*common.PassportView, error) {
	sh := s.checks.sheet
	pending := 0
	for _, c := range sh.Checks {
		if c.Status == "" || c.Status == "pending" {
			pending++
		}
	}
	return &common.PassportView{Text: common.PassportText{Title: sh.Title}, Version: sh.Version, PendingChecks: pending}, nil
}

// Issue 10: after saving, every screen shows the new version — the passport
// screen reads the passport again when the checks screen above it closes.
func TestPassportShowsVersionSavedAbove(t *testing.T) {
	f := &fakeChecks{sheet: sampleCheckSheet()}
	c := testCommon(t, common.Deps{Checks: f, Passports: storePassports{f}})
	d := newDriver(t, New(c, NewPassport(c, "TP-AB23-CD45")))
	hasLines(t, d.view(), "version 3", "checks: 3 pending")
	d.keys("c", "p", "w", "y")
	hasLines(t, d.view(), "version 4")
	d.keys("esc")
	if _, ok := d.app().Top().(*PassportScreen); !ok {
		t.Fatalf("esc went to %T", d.app().Top())
	}
	hasLines(t, d.view(), "version 4", "checks: 2 pending")
}

// Issue 10: the help line always ends with ? and q, whole, at any width:
// the screen's own keys give way (cut with …) before them.
func TestHelpLineKeepsHelpAndQuit(t *testing.T) {
	data := &common.HomeData{Passports: []common.PassportRow{{ID: "TP-AB23-CD45", Title: "Image pipeline"}}}
	screens := map[string]func(c *common.Common) common.Component{
		"checks": func(c *common.Common) common.Component { return NewChecks(c, "TP-AB23-CD45") },
		"home":   func(c *common.Common) common.Component { return NewHome(c) },
	}
	for name, w := range map[string]int{"checks/40": 40, "checks/60": 60, "checks/80": 80, "checks/100": 100,
		// At 58 and 47 the home screen's keys end exactly where the room
		// for them ends, where help.Model would let every key through.
		"home/60": 60, "home/58": 58, "home/47": 47} {
		t.Run(name, func(t *testing.T) {
			f := &fakeChecks{sheet: sampleCheckSheet()}
			c := testCommon(t, common.Deps{Checks: f, Home: &fakeHome{data}})
			d := newDriver(t, New(c, screens[strings.Split(name, "/")[0]](c)))
			d.send(tea.WindowSizeMsg{Width: w, Height: 24})
			ls := strings.Split(d.view(), "\n")
			foot := ls[len(ls)-1]
			if !strings.HasSuffix(foot, "? help • q quit") || components.Width(foot) > w {
				t.Fatalf("help line at %d columns: %q", w, foot)
			}
			if w >= 100 && strings.HasPrefix(name, "checks") && !strings.Contains(foot, "w review and save…") {
				t.Fatalf("w not in the help line at %d columns: %q", w, foot)
			}
		})
	}
}

// The review before saving, at 60×20 and 80×24: an edited run shows the
// command that ran.
func TestChecksScreenReviewGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			c := testCommon(t, common.Deps{Checks: &fakeChecks{sheet: sampleCheckSheet()}, RunHow: (&recordRunner{}).Run})
			c.Width, c.Height = size[0], size[1]
			d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
			d.keys("e")
			d.typeText(" && echo mine")
			d.keys("ctrl+s", "y", "p", "s", "w")
			v := d.view()
			hasLines(t, v, "c1 → passed · ran your command (exit 0)", "touch created-by-how && echo mine", "c2 → skipped")
			requireGolden(t, v)
		})
	}
}

// `tp checks ID` shares the walkthrough's dialog: the same edit runs the
// same exact text there.
func TestChecksScreenMultiLineEdit(t *testing.T) {
	rr := &recordRunner{}
	sh := sampleCheckSheet()
	sh.Checks[0].How = twoLineHow
	f := &fakeChecks{sheet: sh}
	c := testCommon(t, common.Deps{Checks: f, RunHow: rr.Run})
	d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
	d.keys("e", "enter")
	d.typeText("echo third-line")
	d.keys("ctrl+s")
	want := twoLineHow + "\necho third-line"
	hasLines(t, d.view(), strings.Split(want, "\n")...)
	d.keys("y", "p", "w", "y")
	if len(rr.Got) != 1 || rr.Got[0].Command != want {
		t.Fatalf("ran %+v", rr.Got)
	}
	if len(f.saved) != 1 || f.saved[0]["c1"].Command != want {
		t.Fatalf("saved %+v", f.saved)
	}
}
