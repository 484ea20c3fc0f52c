package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"
)

type fakeAsks struct {
	sheet    *common.AskSheet
	saved    [][]common.AskEdit
	packed   []string
	carried  [][]common.ReceiptFile
	conflict bool
	// files are what CheckFiles lists per path; a path not here is outside.
	files map[string][]common.ReceiptFile
}

func (f *fakeAsks) CheckFiles(ctx context.Context, paths []string) ([]common.ReceiptFile, error) {
	var out []common.ReceiptFile
	for _, p := range paths {
		fs, ok := f.files[p]
		if !ok {
			return nil, fmt.Errorf("luggage %s leads outside /fake/here (through a link or ..): only files inside the folder tp runs in are carried from this screen; nothing was added", p)
		}
		out = append(out, fs...)
	}
	return out, nil
}

func (f *fakeAsks) LoadAsks(ctx context.Context, id string) (*common.AskSheet, error) {
	if f.sheet == nil || f.sheet.ID != id {
		return nil, fmt.Errorf("passport %s not found", id)
	}
	return f.sheet, nil
}

func (f *fakeAsks) SaveAsks(ctx context.Context, s *common.AskSheet, e []common.AskEdit) (*common.AskSheet, error) {
	if f.conflict {
		return nil, errors.New("TP-1: expected version 3, found 4")
	}
	f.saved = append(f.saved, e)
	n := *s
	n.Version++
	return &n, nil
}

func (f *fakeAsks) PackReceipt(ctx context.Context, id, out string, files []common.ReceiptFile) (string, error) {
	f.packed = append(f.packed, out)
	f.carried = append(f.carried, files)
	return out, nil
}

func sampleSheet() *common.AskSheet {
	return &common.AskSheet{ID: "TP-AB23-CD45", Title: "Image pipeline", Version: 3, ReceiptName: "TP-AB23-CD45-receipt.taskpack",
		Asks: []common.Ask{
			{ID: "a1", What: "Which bucket?", Accept: "a bucket name", Status: "open"},
			{ID: "a2", What: "Approve the budget " + hostile, Accept: "yes or no", Status: "open"},
			{ID: "a3", What: "Old question", Accept: "anything", Status: "answered", Answer: "done", AnsweredBy: "bob@box", AnsweredAt: "2026-11-01T00:00:00Z"},
		}}
}

func newAsksApp(t *testing.T, f *fakeAsks) *driver {
	c := testCommon(t, common.Deps{Asks: f})
	return newDriver(t, New(c, NewAsks(c, "TP-AB23-CD45")))
}

func TestAsksFlow(t *testing.T) {
	tests := []struct {
		name   string
		keys   []string
		saved  string
		packed []string
	}{
		{"answer, drop, save, pack", []string{"enter", "b", "1", "ctrl+s", "down", "d", "w", "y", "y", "enter", "enter"},
			"[[{a1 answer b1} {a2 drop }]]", []string{"TP-AB23-CD45-receipt.taskpack"}},
		{"save, no receipt", []string{"d", "w", "y", "n"}, "[[{a1 drop }]]", nil},
		{"review declined writes nothing", []string{"d", "w", "n"}, "[]", nil},
		{"leave undoes", []string{"d", "o", "w", "n"}, "[]", nil},
		{"q quits unsaved", []string{"enter", "x", "ctrl+s", "q"}, "[]", nil},
		{"esc discards an answer", []string{"enter", "x", "esc", "w", "n"}, "[]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeAsks{sheet: sampleSheet()}
			d := newAsksApp(t, f)
			d.keys(tt.keys...)
			if got := fmt.Sprint(f.saved); got != tt.saved {
				t.Fatalf("saved %s, want %s", got, tt.saved)
			}
			if fmt.Sprint(f.packed) != fmt.Sprint(tt.packed) {
				t.Fatalf("packed %v", f.packed)
			}
		})
	}
}

func TestAsksConflictShown(t *testing.T) {
	f := &fakeAsks{sheet: sampleSheet(), conflict: true}
	d := newAsksApp(t, f)
	d.keys("d", "w", "y")
	s := d.app().Top().(*AsksScreen)
	if s.mode != asksList || len(s.Edits()) != 1 {
		t.Fatalf("mode %d edits %v", s.mode, s.Edits())
	}
	requireGolden(t, d.view())
}

func TestAsksGoldens(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"list", nil},
		{"answering", []string{"enter", "h", "i"}},
		{"review", []string{"d", "down", "enter", "o", "k", "ctrl+s", "w"}},
		{"offer", []string{"d", "w", "y"}},
		{"answered", []string{"G"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newAsksApp(t, &fakeAsks{sheet: sampleSheet()})
			d.keys(tc.keys...)
			assertSafe(t, d.view())
			requireGolden(t, d.view())
		})
	}
}

type fakeHome struct{ data *common.HomeData }

func (f *fakeHome) LoadHome(ctx context.Context) (*common.HomeData, error) { return f.data, nil }

func TestHome(t *testing.T) {
	data := &common.HomeData{
		Passports: []common.PassportRow{{ID: "TP-AB23-CD45", Title: "Image pipeline " + hostile, Chain: []string{"TP-G6RZ-DS3B@3", "TP-K2VQ-8M4N@2"}, OpenAsks: 1, PendingChecks: 2}},
		Projects:  []common.ProjectRow{{Project: "shop", Open: 2}},
		Packs:     []string{"handoff.taskpack"},
	}
	c := testCommon(t, common.Deps{Home: &fakeHome{data}, Passports: fakePassports{}, Checks: &fakeChecks{sheet: sampleCheckSheet()}, Asks: &fakeAsks{sheet: sampleSheet()}, Inbox: &fakeInbox{acts: sampleActs()}, Lander: &fakeLander{plan: samplePlan()}})
	d := newDriver(t, New(c, NewHome(c)))
	assertSafe(t, d.view())
	requireGolden(t, d.view())
	d.keys("enter")
	if _, ok := d.app().Top().(*PassportScreen); !ok {
		t.Fatalf("enter on a passport opened %T", d.app().Top())
	}
	d.keys("a")
	if _, ok := d.app().Top().(*AsksScreen); !ok {
		t.Fatalf("a on a passport opened %T", d.app().Top())
	}
	d.keys("esc", "esc", "c")
	if _, ok := d.app().Top().(*ChecksScreen); !ok {
		t.Fatalf("c on a passport opened %T", d.app().Top())
	}
	d.keys("esc", "down", "enter")
	in, ok := d.app().Top().(*InboxScreen)
	if !ok || len(in.Visible()) != 2 {
		t.Fatalf("enter on a project opened %T", d.app().Top())
	}
	d.keys("esc", "esc", "down", "enter")
	if _, ok := d.app().Top().(*landing.Landing); !ok {
		t.Fatalf("enter on a pack opened %T", d.app().Top())
	}
	d.keys("esc", "esc")
	if !d.Quit {
		t.Fatal("esc on home did not quit")
	}
}

type fakePassports struct{}

func (fakePassports) LoadPassport(ctx context.Context, id string) (*common.PassportView, error) {
	p := samplePlan().Passport
	p.ID = ""
	return &common.PassportView{Text: p, Version: 4, Chain: []string{"TP-G6RZ-DS3B@3", "TP-K2VQ-8M4N@2"}, OpenAsks: 1, PendingChecks: 2, FilesDir: "/store/" + id + ".files"}, nil
}

func TestPassportScreen(t *testing.T) {
	c := testCommon(t, common.Deps{Passports: fakePassports{}, Checks: &fakeChecks{sheet: sampleCheckSheet()}})
	d := newDriver(t, New(c, NewPassport(c, "TP-AB23-CD45")))
	assertSafe(t, d.view())
	requireGolden(t, d.view())
	d.keys("c")
	if _, ok := d.app().Top().(*ChecksScreen); !ok {
		t.Fatalf("c opened %T", d.app().Top())
	}
}

type countingHome struct {
	data  *common.HomeData
	loads int
}

func (c *countingHome) LoadHome(ctx context.Context) (*common.HomeData, error) {
	c.loads++
	return c.data, nil
}

// Coming back to the home screen refreshes it (a landing adds a passport).
func TestHomeRefreshesOnReturn(t *testing.T) {
	h := &countingHome{data: &common.HomeData{Packs: []string{"handoff.taskpack"}}}
	c := testCommon(t, common.Deps{Home: h, Lander: &fakeLander{plan: samplePlan()}})
	d := newDriver(t, New(c, NewHome(c)))
	d.keys("enter")
	if _, ok := d.app().Top().(*landing.Landing); !ok {
		t.Fatalf("%T", d.app().Top())
	}
	d.keys("esc")
	if h.loads != 2 {
		t.Fatalf("home loaded %d times", h.loads)
	}
}

// More changes than fit: the review scrolls, and the question and its
// keys stay on screen; every change can be seen before y saves them all.
func TestAsksReviewScrolls(t *testing.T) {
	sh := &common.AskSheet{ID: "TP-AB23-CD45", Title: "Many", Version: 1}
	for i := 1; i <= 40; i++ {
		sh.Asks = append(sh.Asks, common.Ask{ID: fmt.Sprintf("a%d", i), What: fmt.Sprintf("question %d", i), Accept: "x", Status: "open"})
	}
	f := &fakeAsks{sheet: sh}
	d := newAsksApp(t, f)
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	for range sh.Asks {
		d.keys("d", "down")
	}
	d.keys("w")
	seen := map[string]bool{}
	look := func() string {
		v := d.view()
		if n := strings.Count(v, "\n") + 1; n > 24 {
			t.Fatalf("review is %d lines on a 24-line terminal:\n%s", n, v)
		}
		for _, want := range []string{"Save these changes", " of 40 ·", "y saves"} {
			if !strings.Contains(v, want) {
				t.Fatalf("review lost %q:\n%s", want, v)
			}
		}
		for _, ln := range strings.Split(v, "\n") {
			if f := strings.Fields(ln); len(f) > 1 && f[1] == "→" {
				seen[f[0]] = true
			}
		}
		return v
	}
	if v := look(); strings.Contains(v, "a40 → dropped") {
		t.Fatalf("40 changes fit on 24 lines?\n%s", v)
	}
	for i := 0; i < 40 && !seen["a40"]; i++ {
		d.keys("down")
		look()
	}
	if len(seen) != 40 {
		t.Fatalf("scrolling showed %d of 40 changes", len(seen))
	}
	d.keys("y")
	if len(f.saved) != 1 || len(f.saved[0]) != 40 {
		t.Fatalf("saved %v", f.saved)
	}
}

// Editing an answer starts from the answer it already has: the one saved on
// the passport, or the one staged on this screen.
func TestAsksEditStartsFromOldAnswer(t *testing.T) {
	f := &fakeAsks{sheet: sampleSheet()}
	d := newAsksApp(t, f)
	d.keys("down", "down", "enter") // a3, answered "done"
	d.typeText(" and more")
	d.keys("ctrl+s", "enter")
	d.typeText("!")
	d.keys("ctrl+s", "w", "y")
	if len(f.saved) != 1 || f.saved[0][0].Answer != "done and more!" {
		t.Fatalf("saved %+v", f.saved)
	}
}

// The landing's asks step too: an ask that arrived answered is edited from
// its answer.
func TestLandingAnswerStartsFromOldAnswer(t *testing.T) {
	p := samplePlan()
	p.Asks[0].Answer, p.Asks[0].Status = "bucket-a", "answered"
	f := &fakeLander{plan: p, landed: sampleLanded()}
	d := newLandingApp(t, f, t.TempDir())
	d.keys("tab", "tab", "tab", "enter")
	d.typeText("-2")
	d.keys("ctrl+s")
	if got := landingOf(d).Decisions().Answers["a1"]; got != "bucket-a-2" {
		t.Fatalf("answer %q", got)
	}
}

// Packs that arrived over A2A are listed on the home screen as on tp
// --plain (issue 21, D23): a waiting one lands only when the person presses
// enter, a landed one opens its passport, a withdrawn one is shown and
// does nothing.
func TestHomeListsA2APacks(t *testing.T) {
	data := &common.HomeData{Incoming: []common.IncomingRow{
		{TaskID: "TP-G6RZ-DS3B", Kind: "handoff", Title: "Q4 deck " + hostile, State: "waiting", Path: "/store/incoming/a.taskpack"},
		{TaskID: "TP-K2VQ-8M4N", Kind: "handoff", Title: "Close", State: "landed", LandedAs: "TP-AB23-CD45", Path: "/store/incoming/b.taskpack"},
		{TaskID: "TP-K2VQ-8M4N~2", Kind: "handoff", Title: "Gone", State: "withdrawn", Path: "/store/incoming/c.taskpack"},
	}}
	c := testCommon(t, common.Deps{Home: &fakeHome{data}, Passports: fakePassports{}, Lander: &fakeLander{plan: samplePlan()}})
	d := newDriver(t, New(c, NewHome(c)))
	v := d.view()
	assertSafe(t, v)
	for _, want := range []string{"Packs over A2A (3)", "TP-G6RZ-DS3B", "enter to land", "landed as TP-AB23-CD45", "withdrawn"} {
		if !strings.Contains(v, want) {
			t.Fatalf("home does not show %q:\n%s", want, v)
		}
	}
	d.keys("enter")
	if _, ok := d.app().Top().(*landing.Landing); !ok {
		t.Fatalf("enter on a waiting A2A pack opened %T", d.app().Top())
	}
	d.keys("esc", "down", "enter")
	if _, ok := d.app().Top().(*PassportScreen); !ok {
		t.Fatalf("enter on a landed A2A pack opened %T", d.app().Top())
	}
	d.keys("esc", "down", "enter")
	if _, ok := d.app().Top().(*Home); !ok {
		t.Fatalf("enter on a withdrawn A2A pack opened %T", d.app().Top())
	}
}

// A passport never landed from a pack has no passport for a receipt to go
// home to (D6 homeless): after saving, the screen says so and offers no
// receipt; y packs nothing.
func TestAsksOffersNoReceiptWithoutHome(t *testing.T) {
	t.Parallel()
	sh := sampleSheet()
	sh.NoReceipt = "TP-AB23-CD45 was not landed from a pack (its lineage names no passport before it), so a receipt from it has no passport to go home to (TaskPack 0.1 §4.4.1, D6); nothing was written"
	f := &fakeAsks{sheet: sh}
	d := newAsksApp(t, f)
	d.keys("d", "w", "y")
	v := d.view()
	if !strings.Contains(squash(v), "no passport to go home to") || strings.Contains(v, "pack a receipt") {
		t.Fatalf("the offer does not say why there is no receipt:\n%s", v)
	}
	d.keys("y", "enter")
	if len(f.packed) != 0 {
		t.Fatalf("a receipt with no home was packed: %v", f.packed)
	}
}

// squash is a view's words in one line: wrapped text reads whole.
func squash(v string) string { return strings.Join(strings.Fields(stripANSI(v)), " ") }

// Home offers to land only a pack to land (issue 17): a receipt already
// merged, a handoff already landed and one's own pack say what they are and
// open their passport; none of them says "enter to land".
func TestHomeDoesNotOfferToLandWhatNeedNotBe(t *testing.T) {
	t.Parallel()
	data := &common.HomeData{
		Packs: []string{"merged.taskpack", "landed.taskpack", "mine.taskpack", "new.taskpack"},
		PackStates: []common.PackState{{State: "merged", Passport: "TP-AB23-CD45"}, {State: "landed", Passport: "TP-AB23-CD46"},
			{State: "sent by you", Passport: "TP-AB23-CD47"}, {State: common.PackToLand}},
	}
	c := testCommon(t, common.Deps{Home: &fakeHome{data}, Passports: fakePassports{}, Lander: &fakeLander{plan: samplePlan()}})
	d := newDriver(t, New(c, NewHome(c)))
	v := stripANSI(d.view())
	for _, row := range []struct{ name, want string }{
		{"merged.taskpack", "merged into TP-AB23-CD45"}, {"landed.taskpack", "landed as TP-AB23-CD46"},
		{"mine.taskpack", "sent by you from TP-AB23-CD47"}, {"new.taskpack", "enter to land"},
	} {
		var line string
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, row.name) {
				line = l
			}
		}
		if !strings.Contains(line, row.want) {
			t.Errorf("%s: row %q does not say %q", row.name, line, row.want)
		}
		if row.want != "enter to land" && strings.Contains(line, "enter to land") {
			t.Errorf("%s is offered for landing: %q", row.name, line)
		}
	}
	for i := 0; i < 3; i++ {
		d.keys("enter")
		if _, ok := d.app().Top().(*PassportScreen); !ok {
			t.Fatalf("enter on %s opened %T, want its passport", data.Packs[i], d.app().Top())
		}
		d.keys("esc", "down")
	}
	d.keys("enter")
	if _, ok := d.app().Top().(*landing.Landing); !ok {
		t.Fatalf("enter on a pack to land opened %T", d.app().Top())
	}
}

// A receipt packed from the asks screen carries files (issue 17), picked on
// the screen and shown before it is packed: each with its name in the pack
// and size; a file the credential scan refuses is marked ✗ with why and
// keeps the receipt from being packed until it is removed; a path outside
// the folder is refused and nothing is added.
func TestReceiptCarriesFiles(t *testing.T) {
	t.Parallel()
	f := &fakeAsks{sheet: sampleSheet(), files: map[string][]common.ReceiptFile{
		"notes.md": {{Name: "notes.md", Path: "/fake/here/notes.md", Size: 8}},
		"figs":     {{Name: "figs/a.svg", Path: "/fake/here/figs/a.svg", Size: 6}, {Name: "figs/b.svg", Path: "/fake/here/figs/b.svg", Size: 7}},
		"token.txt": {{Name: "token.txt", Path: "/fake/here/token.txt", Size: 50,
			Refused: []string{"credential (github-token) at byte 11: deploy key ghp_…"}}},
	}}
	d := newAsksApp(t, f)
	d.keys("w", "y", "enter")
	v := squash(d.view())
	if !strings.Contains(v, "files it carries back (0") || !strings.Contains(v, "f adds a file") {
		t.Fatalf("the receipt's review does not say what it carries:\n%s", d.view())
	}
	d.keys("f").typeText("../secret").keys("enter")
	if v := squash(d.view()); !strings.Contains(v, "leads outside") || !strings.Contains(v, "nothing was added") || len(f.packed) != 0 {
		t.Fatalf("a path outside the folder was not refused:\n%s", d.view())
	}
	d.keys("f").typeText("notes.md").keys("enter", "f").typeText("figs").keys("enter", "f").typeText("token.txt").keys("enter")
	v = squash(d.view())
	for _, want := range []string{"✓ notes.md 8 B", "✓ figs/a.svg", "✓ figs/b.svg", "✗ token.txt", "cannot travel: credential (github-token)"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the review does not show %q:\n%s", want, d.view())
		}
	}
	d.keys("enter")
	if len(f.packed) != 0 || !strings.Contains(squash(d.view()), "cannot travel") {
		t.Fatalf("a receipt was packed with a refused file: %v", f.packed)
	}
	d.keys("x", "x") // token.txt, then the folder's two files together
	d.keys("enter")
	if len(f.carried) != 1 || len(f.carried[0]) != 1 || f.carried[0][0].Name != "notes.md" {
		t.Fatalf("carried %+v, want notes.md alone", f.carried)
	}
}

// receiptFilesApp is the asks screen at the receipt's review, carrying a
// few files, one of them refused.
func receiptFilesApp(t *testing.T, w, h int) *driver {
	f := &fakeAsks{sheet: sampleSheet(), files: map[string][]common.ReceiptFile{
		"notes.md": {{Name: "notes.md", Path: "/fake/here/notes.md", Size: 8}},
		"figures":  {{Name: "figures/logo.svg", Path: "/fake/here/figures/logo.svg", Size: 2048}, {Name: "figures/" + hostile + ".svg", Path: "/fake/here/figures/x.svg", Size: 7}},
		"token.txt": {{Name: "token.txt", Path: "/fake/here/token.txt", Size: 50,
			Refused: []string{"credential (github-token) at byte 11: deploy key ghp_…"}}},
	}}
	d := newAsksApp(t, f)
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	d.keys("w", "y", "enter")
	for _, p := range []string{"notes.md", "figures", "token.txt"} {
		d.keys("f").typeText(p).keys("enter")
	}
	return d
}

func TestReceiptFilesGoldens(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{100, 30}, {80, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			v := receiptFilesApp(t, sz[0], sz[1]).view()
			assertSafe(t, v)
			requireGolden(t, v)
		})
	}
}
