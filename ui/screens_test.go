package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
	"github.com/tp-dev/tp/ui/landing"
)

// helpKeys lists the keys ? shows, in order.
func helpKeys(a *App) []string {
	var out []string
	for _, col := range a.fullHelpKeys() {
		for _, b := range col {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return out
}

// Issue 10: ? shows the keys of the current step only, and no key twice.
func TestFullHelpIsTheCurrentSteps(t *testing.T) {
	for _, tc := range []struct {
		name       string
		keys       []string
		want, not  []string
		forbidKeys bool
	}{
		{"summary", nil, []string{"tab/→ next step", "esc back"}, []string{"mark passed", "answer now", "land it"}, true},
		{"checks", []string{"tab"}, []string{"r run the suggested command…", "p mark passed"}, []string{"answer now", "restore", "land it"}, true},
		{"confirm dialog", []string{"tab", "r"}, []string{"y run it", "e edit first"}, []string{"mark passed", "next step"}, true},
		{"editor", []string{"tab", "e"}, []string{"ctrl+s review the command", "enter new line"}, []string{"mark passed", "next step"}, true},
		{"facts", []string{"tab", "tab"}, []string{"t restore ✓ on facts proven here…"}, []string{"mark passed", "answer now"}, true},
		{"asks", []string{"tab", "tab", "tab"}, []string{"enter answer now", "o leave open"}, []string{"mark passed", "land it"}, true},
		{"confirm", []string{"tab", "tab", "tab", "tab", "tab", "tab"}, []string{"enter land it"}, []string{"next step", "mark passed"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newLandingApp(t, &fakeLander{plan: samplePlan()}, t.TempDir())
			d.keys(tc.keys...)
			got := helpKeys(d.app())
			all := strings.Join(got, " | ")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("? lacks %q: %s", w, all)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(all, n) {
					t.Errorf("? shows %q, another step's key: %s", n, all)
				}
			}
			seen := map[string]bool{}
			for _, k := range got {
				key := strings.SplitN(k, " ", 2)[0]
				if seen[key] {
					t.Errorf("? lists %q twice: %s", key, all)
				}
				seen[key] = true
			}
		})
	}
}

// Issue 10: a help taller than the window scrolls, and esc closes it.
func TestFullHelpScrollsWhenTall(t *testing.T) {
	d := newLandingApp(t, &fakeLander{plan: samplePlan()}, t.TempDir())
	d.send(tea.WindowSizeMsg{Width: 30, Height: 8})
	d.keys("tab", "?")
	v := d.view()
	if n := strings.Count(v, "\n") + 1; n > 8 || !strings.Contains(v, "keys 1–5 of") {
		t.Fatalf("help page:\n%s", v)
	}
	d.keys("G")
	if v2 := d.view(); v2 == v || !strings.Contains(v2, "ctrl+c") {
		t.Fatalf("G did not scroll the help to its end:\n%s", v2)
	}
	if l := landingOf(d); l.Step() != landing.StepChecks {
		t.Fatal("keys went to the screen under the help page")
	}
	d.keys("esc")
	if d.app().fullHelp || landingOf(d).Step() != landing.StepChecks {
		t.Fatal("esc did not close only the help")
	}
}

// Issue 10: at 60 columns and narrower the step bar still names the current
// step.
func TestStepBarNamesCurrentStep(t *testing.T) {
	for _, w := range []int{120, 80, 60, 40, 24} {
		d := newLandingApp(t, &fakeLander{plan: samplePlan()}, t.TempDir())
		d.send(tea.WindowSizeMsg{Width: w, Height: 24})
		for s := 0; s < landing.StepCount; s++ {
			bar := strings.Split(d.view(), "\n")[2]
			if !strings.Contains(bar, landing.StepNames[s]) || components.Width(bar) > w {
				t.Errorf("width %d step %s: bar %q", w, landing.StepNames[s], bar)
			}
			d.keys("tab")
		}
	}
}

// Issue 10: the summary shows what the work is before who sent it.
func TestSummaryShowsTitleAndGoalFirst(t *testing.T) {
	d := newLandingApp(t, &fakeLander{plan: samplePlan()}, t.TempDir())
	ls := strings.Split(d.view(), "\n")
	if !strings.HasPrefix(ls[4], "Title       Image pipeline") || !strings.HasPrefix(ls[5], "Goal        Generate product images") {
		t.Fatalf("summary:\n%s", strings.Join(ls, "\n"))
	}
}

// Issue 10: home names packs by file name, not by an absolute path cut
// from the right.
func TestHomeShowsPackNames(t *testing.T) {
	data := &common.HomeData{Packs: []string{"/fake/here/handoff-from-alice.taskpack", "/elsewhere/far/answers.taskpack"}}
	c := testCommon(t, common.Deps{Home: &fakeHome{data}})
	d := newDriver(t, New(c, NewHome(c)))
	d.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	v := d.view()
	if !strings.Contains(v, "▸ handoff-from-alice.taskpack · enter to land") || !strings.Contains(v, "  answers.taskpack · enter") || strings.Contains(v, "/fake") {
		t.Fatalf("home:\n%s", v)
	}
}

// Issue 10: every footer says what the keys do there.
func TestFootersMatchKeys(t *testing.T) {
	foot := func(d *driver) string { ls := strings.Split(d.view(), "\n"); return ls[len(ls)-1] }
	d := newLandingApp(t, &fakeLander{plan: samplePlan(), landed: sampleLanded()}, t.TempDir())
	for landingOf(d).Step() != landing.StepConfirm {
		d.keys("tab")
	}
	d.keys("enter")
	if f := foot(d); !strings.HasPrefix(f, "enter/esc finish") {
		t.Errorf("after landing: %q", f)
	}
	f := &fakeLander{plan: receiptPlan(), merged: &common.Merged{Target: "TP-AAAA-AAAA", Version: 5, Changed: 1}}
	c := testCommon(t, common.Deps{Lander: f})
	d = newDriver(t, New(c, landing.New(c, "answers.taskpack")))
	d.keys("enter")
	if f := foot(d); !strings.HasPrefix(f, "enter/esc finish") || !strings.Contains(d.view(), "1 ask changed") {
		t.Errorf("after a merge: %q\n%s", f, d.view())
	}
	// The receipt offers ↓ only when its preview is taller than the screen.
	for _, tc := range []struct {
		h      int
		scroll bool
	}{{20, true}, {60, false}} {
		rc := testCommon(t, common.Deps{Lander: &fakeLander{plan: receiptPlan()}})
		d = newDriver(t, New(rc, landing.New(rc, "answers.taskpack")))
		d.send(tea.WindowSizeMsg{Width: 100, Height: tc.h})
		if f := foot(d); strings.Contains(f, "↓/j down") != tc.scroll {
			t.Errorf("receipt at height %d: %q", tc.h, f)
		}
	}
	// An empty inbox offers no act to settle or note.
	ic := testCommon(t, common.Deps{Inbox: &fakeInbox{}})
	d = newDriver(t, New(ic, NewInbox(ic)))
	if f := foot(d); f != "/ filter • tab next project • S show settled • ? help • q quit" {
		t.Errorf("empty inbox: %q", f)
	}
	// The checks screen: the step's keys, w to review and save, esc back;
	// in the review, y and n/esc only.
	cc := testCommon(t, common.Deps{Checks: &fakeChecks{sheet: sampleCheckSheet()}})
	cc.Width = 120
	d = newDriver(t, New(cc, NewChecks(cc, "TP-AB23-CD45")))
	if f := foot(d); f != "r run… • p/f/s passed/failed/skipped • w review and save… • esc back • ? help • q quit" {
		t.Errorf("checks screen: %q", f)
	}
	d.keys("p", "w")
	if f := foot(d); f != "y save • n/esc back, nothing saved • ? help • q quit" {
		t.Errorf("checks review: %q", f)
	}
}

// Issue 10: the receipt screen shows the luggage it brings and where it
// goes.
func TestReceiptShowsLuggage(t *testing.T) {
	p := receiptPlan()
	p.FilesDir = "/store/TP-AAAA-AAAA.files/receipt-bob@3"
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: p}})
	d := newDriver(t, New(c, landing.New(c, "answers.taskpack")))
	d.send(tea.WindowSizeMsg{Width: 80, Height: 60})
	v := d.view()
	for _, w := range []string{"Luggage — 2 files, 3.0 MiB", "goes to /store/TP-AAAA-AAAA.files/receipt-bob@3", "notes.md", "out/img-1.png"} {
		if !strings.Contains(v, w) {
			t.Errorf("receipt lacks %q:\n%s", w, v)
		}
	}
	p.Receipt.LuggageThere = true
	if v := d.view(); !strings.Contains(v, "not written again") {
		t.Errorf("luggage already there not said:\n%s", v)
	}
}

// Goldens at 60×20 for every screen whose layout changed with issue 10.
func TestGoldens60x20(t *testing.T) {
	d := newLandingApp(t, &fakeLander{plan: samplePlan(), landed: sampleLanded()}, "/fake/here")
	d.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	for s := 0; s < landing.StepCount; s++ {
		t.Run("landing/"+landing.StepNames[s], func(t *testing.T) { requireGolden(t, d.view()) })
		d.keys("tab")
	}
	d.keys("enter")
	t.Run("landing/Done", func(t *testing.T) { requireGolden(t, d.view()) })
	// The asks screen's rows that wrap (issue 10): the unsaved line, the
	// review, the receipt written.
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"asks/unsaved", []string{"d"}},
		{"asks/review", []string{"d", "w"}},
		{"asks/receipt", []string{"d", "w", "y", "y", "enter", "enter"}},
	} {
		ad := newAsksApp(t, &fakeAsks{sheet: sampleSheet()})
		ad.send(tea.WindowSizeMsg{Width: 60, Height: 20})
		ad.keys(tc.keys...)
		t.Run(tc.name, func(t *testing.T) { requireGolden(t, ad.view()) })
	}
	for _, sz := range [][2]int{{60, 20}, {80, 24}} {
		name := fmt.Sprintf("%dx%d", sz[0], sz[1])
		c := testCommon(t, common.Deps{Lander: &fakeLander{plan: receiptPlan()}})
		rd := newDriver(t, New(c, landing.New(c, "answers.taskpack")))
		rd.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		rd.keys("G")
		t.Run("receipt-end/"+name, func(t *testing.T) { requireGolden(t, rd.view()) })
		data := &common.HomeData{Passports: []common.PassportRow{{ID: "TP-AB23-CD45", Title: "Image pipeline", OpenAsks: 1, PendingChecks: 2}},
			Packs: []string{"/fake/here/handoff.taskpack"}}
		hc := testCommon(t, common.Deps{Home: &fakeHome{data}})
		hd := newDriver(t, New(hc, NewHome(hc)))
		hd.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		t.Run("home/"+name, func(t *testing.T) { requireGolden(t, hd.view()) })
	}
}
