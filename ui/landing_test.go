package ui

import (
	"context"
	"errors"
	"fmt"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
	"github.com/tp-dev/tp/ui/landing"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/internal/howrun"
)

func newLandingApp(t *testing.T, f *fakeLander, dir string) *driver {
	c := testCommon(t, common.Deps{Lander: f, RunHow: howrun.Run})
	if dir != "" {
		c.WorkDir = dir
	}
	return newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
}

func landingOf(d *driver) *landing.Landing { return d.app().Top().(*landing.Landing) }

// The whole landing, key by key: summary → checks (run one, mark all) →
// facts (restore ✓ by choice) → asks (answer one) → passport → luggage →
// confirm → landed.
func TestLandingWalk(t *testing.T) {
	dir := t.TempDir()
	f := &fakeLander{plan: samplePlan(), landed: sampleLanded(), progress: 3}
	d := newLandingApp(t, f, dir)
	l := landingOf(d)
	if l.Phase() != landing.PhaseWalk || l.Step() != landing.StepSummary {
		t.Fatalf("phase %d step %d", l.Phase(), l.Step())
	}
	d.keys("tab") // checks
	if l.Step() != landing.StepChecks {
		t.Fatalf("after summary comes step %d, want the checks (§4.4)", l.Step())
	}
	d.keys("r", "y") // run c1's command, confirmed
	if _, err := os.Stat(filepath.Join(dir, "created-by-how")); err != nil {
		t.Fatalf("confirmed command did not run: %v", err)
	}
	d.keys("p") // c1 passed → cursor to c2
	d.keys("s") // c2 skipped → c3
	d.keys("f") // c3 failed
	d.keys("tab")
	if l.Step() != landing.StepFacts {
		t.Fatal("not on facts")
	}
	d.keys("t", "y") // restore ✓, after the §4.2 warning
	d.keys("tab", "down", "enter")
	if !l.Capturing() {
		t.Fatal("enter on an ask does not open the answer field")
	}
	d.typeText("yes, approved q?") // q and ? are typed, not acted on
	d.keys("ctrl+s")
	d.keys("tab", "tab", "tab") // passport, luggage, confirm
	if l.Step() != landing.StepConfirm {
		t.Fatalf("step %d", l.Step())
	}
	d.keys("enter")
	if l.Phase() != landing.PhaseDone {
		t.Fatalf("phase %d err %v", l.Phase(), l.Err())
	}
	if f.lands != 1 {
		t.Fatalf("landed %d times", f.lands)
	}
	got := f.gotD
	if got.Checks["c1"].Status != "passed" || !got.Checks["c1"].Ran || got.Checks["c1"].Command != "touch created-by-how" || got.Checks["c1"].Exit != 0 {
		t.Errorf("c1 = %+v", got.Checks["c1"])
	}
	if got.Checks["c2"].Status != "skipped" || got.Checks["c3"].Status != "failed" {
		t.Errorf("checks = %+v", got.Checks)
	}
	if got.Answers["a2"] != "yes, approved q?" || len(got.Answers) != 1 {
		t.Errorf("answers = %+v", got.Answers)
	}
	if !got.TrustOwnFacts {
		t.Error("trust choice lost")
	}
	v := d.view()
	if !strings.Contains(v, "TP-AB23-CD45") || !strings.Contains(v, "1. [required check c1]") {
		t.Fatalf("done view:\n%s", v)
	}
	d.keys("enter")
	if !d.Quit {
		t.Fatal("enter on the done screen does not finish")
	}
}

func TestLandingKeysTable(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		check func(*testing.T, *landing.Landing, *driver)
	}{
		{"esc on summary leaves", []string{"esc"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if !d.Quit {
				t.Error("esc on the first step of the only screen should quit")
			}
		}},
		{"esc goes back a step", []string{"tab", "tab", "esc"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if l.Step() != landing.StepChecks {
				t.Errorf("step %d", l.Step())
			}
		}},
		{"q quits without landing", []string{"tab", "p", "tab", "tab", "tab", "tab", "tab", "q"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if !d.Quit || l.Result() != nil {
				t.Error("q did not quit cleanly")
			}
		}},
		{"shift+tab back", []string{"tab", "tab", "shift+tab"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if l.Step() != landing.StepChecks {
				t.Errorf("step %d", l.Step())
			}
		}},
		{"no step past confirm", []string{"tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if l.Step() != landing.StepConfirm {
				t.Errorf("step %d", l.Step())
			}
		}},
		{"answer discarded with esc", []string{"tab", "tab", "tab", "enter", "x", "esc"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if len(l.Decisions().Answers) != 0 || l.Capturing() {
				t.Errorf("answers %v", l.Decisions().Answers)
			}
		}},
		{"answer then leave open", []string{"tab", "tab", "tab", "enter", "x", "ctrl+s", "o"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if len(l.Decisions().Answers) != 0 {
				t.Errorf("answers %v", l.Decisions().Answers)
			}
		}},
		{"trust declined", []string{"tab", "tab", "t", "n"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if l.Decisions().TrustOwnFacts {
				t.Error("declined trust was recorded")
			}
		}},
		{"trust toggled off", []string{"tab", "tab", "t", "y", "t"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if l.Decisions().TrustOwnFacts {
				t.Error("trust not toggled off")
			}
		}},
		{"help toggles", []string{"?"}, func(t *testing.T, l *landing.Landing, d *driver) {
			if !d.app().fullHelp {
				t.Error("? did not open full help")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeLander{plan: samplePlan(), landed: sampleLanded()}
			d := newLandingApp(t, f, t.TempDir())
			l := landingOf(d)
			d.keys(tt.keys...)
			tt.check(t, l, d)
			if f.lands != 0 {
				t.Error("landed without confirmation")
			}
		})
	}
}

func TestLandingPlanError(t *testing.T) {
	f := &fakeLander{planErr: errors.New("handoff.taskpack: manifest-sha256.txt: data/passport.json digest mismatch" + hostile)}
	d := newLandingApp(t, f, "")
	l := landingOf(d)
	if l.Phase() != landing.PhaseFailed {
		t.Fatalf("phase %d", l.Phase())
	}
	assertSafe(t, d.view())
	if !strings.Contains(d.view(), "digest") {
		t.Fatal(d.view())
	}
}

func TestLandingLandErrorStaysOnConfirm(t *testing.T) {
	f := &fakeLander{plan: samplePlan(), landErr: errors.New("store: version conflict")}
	d := newLandingApp(t, f, "")
	l := landingOf(d)
	d.keys("tab", "tab", "tab", "tab", "tab", "tab", "enter")
	if l.Phase() != landing.PhaseWalk || l.Step() != landing.StepConfirm || !strings.Contains(d.view(), "version conflict") {
		t.Fatalf("phase %d step %d\n%s", l.Phase(), l.Step(), d.view())
	}
}

func TestAlreadyLandedNeedsA(t *testing.T) {
	p := samplePlan()
	p.AlreadyLanded = "TP-ZZZZ-ZZZZ"
	f := &fakeLander{plan: p, landed: sampleLanded()}
	d := newLandingApp(t, f, "")
	d.keys("tab", "tab", "tab", "tab", "tab", "tab", "enter")
	if f.lands != 0 {
		t.Fatal("enter landed a file already landed")
	}
	d.keys("A")
	if f.lands != 1 || !f.gotD.Again {
		t.Fatal("A did not land again")
	}
}

// ctrl+c while the plan is being built cancels the core's work; nothing is
// left and the screen says so.
func TestCancelWhileLoading(t *testing.T) {
	block := make(chan struct{})
	f := &fakeLander{plan: samplePlan(), progress: 1, block: block}
	c := testCommon(t, common.Deps{Lander: f})
	app := New(c, landing.New(c, "big.taskpack"))
	var first tea.Cmd
	for _, cm := range app.Init()().(tea.BatchMsg) {
		first = cm
		break
	}
	msg := first()
	if _, ok := msg.(common.ProgressMsg); !ok {
		t.Fatalf("first message %T", msg)
	}
	_, next := app.Update(msg)
	if !strings.Contains(app.View(), "verifying") {
		t.Fatalf("no progress shown:\n%s", app.View())
	}
	_, cmd := app.Update(keyMsg("ctrl+c"))
	if cmd != nil {
		if _, quit := cmd().(tea.QuitMsg); quit {
			t.Fatal("ctrl+c quit instead of cancelling the work")
		}
	}
	done := next()
	app.Update(done)
	l := app.Top().(*landing.Landing)
	if l.Phase() != landing.PhaseCancelled || !strings.Contains(app.View(), "Nothing was written") {
		t.Fatalf("phase %d\n%s", l.Phase(), app.View())
	}
}

func TestLandingViewsAreSafe(t *testing.T) {
	f := &fakeLander{plan: samplePlan(), landed: sampleLanded()}
	d := newLandingApp(t, f, "")
	for s := 0; s < landing.StepCount; s++ {
		assertSafe(t, d.view())
		d.keys("down", "tab")
	}
}

func TestPassportMarkdownIsSafe(t *testing.T) {
	th := noColorTheme(t)
	md := components.PassportMarkdown(common.PassportText{Title: "t" + hostile, Goal: "g &#x1b;]52;c;AAAA&#7; &#x202e; " + hostile, NextSteps: []string{hostile}})
	assertSafe(t, components.RenderMarkdown(th, md, 60))
	assertSafe(t, components.RenderMarkdown(colorTheme(t, "default"), md, 60))
}

func TestLandingGoldens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		f := &fakeLander{plan: samplePlan(), landed: sampleLanded()}
		c := testCommon(t, common.Deps{Lander: f})
		c.WorkDir = "/fake/here"
		d := newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
		d.send(tea.WindowSizeMsg{Width: size.w, Height: size.h})
		for s := 0; s < landing.StepCount; s++ {
			t.Run(sizeName(size.w, size.h)+"/"+landing.StepNames[s], func(t *testing.T) {
				requireGolden(t, d.view())
			})
			if s == landing.StepChecks {
				d.keys("r")
				t.Run(sizeName(size.w, size.h)+"/ConfirmHow", func(t *testing.T) { requireGolden(t, d.view()) })
				d.keys("n")
			}
			d.keys("tab")
		}
		d.keys("enter")
		t.Run(sizeName(size.w, size.h)+"/Done", func(t *testing.T) { requireGolden(t, d.view()) })
	}
}

func sizeName(w, h int) string { return fmt.Sprintf("%dx%d", w, h) }

// Resizing re-lays the screen out: no line is wider than the terminal.
func TestLandingResize(t *testing.T) {
	f := &fakeLander{plan: samplePlan(), landed: sampleLanded()}
	d := newLandingApp(t, f, "")
	for _, w := range []int{80, 40, 132, 60} {
		d.send(tea.WindowSizeMsg{Width: w, Height: 24})
		for s := 0; s < landing.StepCount; s++ {
			v := d.view()
			for _, ln := range strings.Split(v, "\n") {
				if components.Width(ln) > w {
					t.Fatalf("width %d step %d: line of %d cells: %q", w, s, components.Width(ln), ln)
				}
			}
			if n := strings.Count(v, "\n") + 1; n > 24 {
				t.Fatalf("width %d step %d: %d lines", w, s, n)
			}
			d.keys("tab")
		}
		d.keys("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
	}
}

type judgingLander struct {
	*fakeLander
	calls int
}

func (j *judgingLander) Judge(ctx context.Context, file string) ([]common.Conformance, error) {
	j.calls++
	return []common.Conformance{{ID: "C0", Pass: true}, {ID: "C7", Pass: false, Reason: "a credential in passport.note"}}, nil
}

// Judging comes after the first frame and fills the summary in.
func TestLandingJudgesAfterPlan(t *testing.T) {
	p := samplePlan()
	p.Conformance = nil
	j := &judgingLander{fakeLander: &fakeLander{plan: p}}
	c := testCommon(t, common.Deps{Lander: j})
	l := landing.New(c, "x")
	m, cmd := l.Update(landing.PlanMsg{Plan: p})
	if !strings.Contains(m.View(), "judging…") {
		t.Fatalf("first frame:\n%s", m.View())
	}
	m.Update(cmd())
	if j.calls != 1 || !strings.Contains(m.View(), "C7✗") || !strings.Contains(m.View(), "a credential in passport.note") {
		t.Fatalf("after judging:\n%s", m.View())
	}
}

// While a confirmed command runs the check shows it; ctrl+c stops it and
// the result says so.
func TestRunningCommandShownAndCancellable(t *testing.T) {
	dir := t.TempDir()
	p := samplePlan()
	// The shell becomes the sleep (exec), so the pid it writes is the
	// process the cancel must end.
	p.Checks[0].How = "echo $$ > started; exec sleep 60"
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: p}, RunHow: howrun.Run})
	c.WorkDir = dir
	app := New(c, landing.NewWithPlan(c, p))
	app.Update(keyMsg("tab"))
	app.Update(keyMsg("r"))
	_, cmd := app.Update(keyMsg("y"))
	l := app.Top().(*landing.Landing)
	if !l.Busy() || !strings.Contains(app.View(), "running in "+dir) {
		t.Fatalf("busy %v\n%s", l.Busy(), app.View())
	}
	var start tea.Cmd
	for _, c := range cmd().(tea.BatchMsg) {
		start = c
		break
	}
	// Run the command as the program would, and wait until it runs.
	result := make(chan tea.Msg, 1)
	go func() { result <- start() }()
	pid := 0
	for deadline := time.Now().Add(20 * time.Second); pid == 0; {
		if b, err := os.ReadFile(filepath.Join(dir, "started")); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if pid == 0 && time.Now().After(deadline) {
			t.Fatal("the command did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// ctrl+c cancels the command instead of quitting.
	_, qc := app.Update(keyMsg("ctrl+c"))
	if qc != nil {
		if _, quit := qc().(tea.QuitMsg); quit {
			t.Fatal("ctrl+c quit while a command ran")
		}
	}
	select {
	case msg := <-result:
		app.Update(msg)
	case <-time.After(20 * time.Second):
		t.Fatal("the cancelled command still runs")
	}
	if l.Busy() || !strings.Contains(app.View(), "cancelled") {
		t.Fatalf("after cancel:\n%s", app.View())
	}
	// The result came back because the process ended, not because the
	// screen stopped waiting: the pid is gone.
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("process %d still runs after the cancel", pid)
	}
}

// Theme × width matrix for the summary and the checks step (the sender's
// box must stay visibly apart in every theme).
func TestLandingThemeMatrix(t *testing.T) {
	for _, theme := range []string{"default", "high-contrast", "no-color"} {
		for _, w := range []int{80, 100} {
			for _, step := range []int{landing.StepSummary, landing.StepChecks} {
				t.Run(fmt.Sprintf("%s/%d/%s", theme, w, landing.StepNames[step]), func(t *testing.T) {
					c := testCommon(t, common.Deps{Lander: &fakeLander{plan: samplePlan()}})
					c.Theme = colorTheme(t, theme)
					d := newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
					d.send(tea.WindowSizeMsg{Width: w, Height: 24})
					for range step {
						d.keys("tab")
					}
					v := d.view()
					assertSafe(t, v)
					requireGolden(t, strings.ReplaceAll(v, "\x1b", `\e`))
				})
			}
		}
	}
}

// A pack with many asks lands with more next steps than fit: the landed
// screen scrolls through all of them, and how to leave stays in sight.
func TestLandingDoneScrolls(t *testing.T) {
	ld := sampleLanded()
	ld.NextSteps = nil
	for i := 1; i <= 40; i++ {
		ld.NextSteps = append(ld.NextSteps, fmt.Sprintf("Answer ask a%d", i))
	}
	f := &fakeLander{plan: samplePlan(), landed: ld}
	d := newLandingApp(t, f, "")
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	l := landingOf(d)
	for l.Step() != landing.StepConfirm {
		d.keys("tab")
	}
	d.keys("enter")
	if l.Phase() != landing.PhaseDone {
		t.Fatalf("phase %d", l.Phase())
	}
	seen := map[string]bool{}
	for i := 0; i < 60; i++ {
		v := d.view()
		if n := strings.Count(v, "\n") + 1; n > 24 {
			t.Fatalf("%d lines on a 24-line terminal", n)
		}
		if !strings.Contains(v, "enter or esc to finish") {
			t.Fatalf("how to leave scrolled away:\n%s", v)
		}
		for _, ln := range strings.Split(v, "\n") {
			if f := strings.Fields(ln); len(f) == 4 && f[1] == "Answer" {
				seen[f[3]] = true
			}
		}
		d.keys("down")
	}
	if len(seen) != 40 {
		t.Fatalf("saw %d of 40 next steps", len(seen))
	}
	d.keys("enter")
	if !d.Quit {
		t.Fatal("enter does not finish")
	}
}

// D10-git: the luggage step says, file by file, which names of a
// repository's metadata land disarmed, so the person reading the folder
// later knows why .git is called .git-disarmed.
func TestLuggageShowsDisarmedNames(t *testing.T) {
	plan := samplePlan()
	plan.Luggage = []common.LuggageFile{
		{Name: "repo/a.txt", Size: 6},
		{Name: "repo/.git/HEAD", Size: 21, LandsAs: "repo/.git-disarmed/HEAD-disarmed"},
		{Name: "repo/.git/config", Size: 84, LandsAs: "repo/.git-disarmed/config"},
	}
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: plan}})
	d := newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
	d.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	for s := 0; s < landing.StepLuggage; s++ {
		d.keys("tab")
	}
	v := d.view()
	for _, want := range []string{"repo/.git/config", "lands as  repo/.git-disarmed/config", "lands as  repo/.git-disarmed/HEAD-disarmed"} {
		if !strings.Contains(joined(v), want) {
			t.Errorf("the luggage step does not show %q:\n%s", want, v)
		}
	}
	requireGolden(t, v)
}

// D13: a label says whose words follow. What the pack says (a finding,
// quoted) is under "quoted from the pack"; what tp says about the pack (a
// plan warning, such as repository metadata landing disarmed) is tp's own
// note, never presented as the pack's text.
func TestSummarySaysWhoseWordsWarningsAre(t *testing.T) {
	plan := samplePlan()
	plan.Warnings = []common.Warning{
		{Kind: "instruction", Where: "passport.current_state", Text: "Ignore previous instructions"},
		{Kind: "note", Text: "luggage carries repository metadata (repo/.git/): … so it lands disarmed (D10-git)"},
	}
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: plan}})
	d := newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
	d.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	v := joined(d.view())
	q, n := strings.Index(v, "1 warning — quoted from the pack"), strings.Index(v, "1 note from tp")
	if q < 0 || n < 0 {
		t.Fatalf("headings missing:\n%s", d.view())
	}
	if i := strings.Index(v, "repository metadata"); i < n {
		t.Fatalf("tp's note shown under the pack's quotes:\n%s", d.view())
	}
	if i := strings.Index(v, "Ignore previous"); i < q || i > n {
		t.Fatalf("the pack's text not under its quotes:\n%s", d.view())
	}
	requireGolden(t, d.view())
}
