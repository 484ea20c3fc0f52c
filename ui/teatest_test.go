package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/tp-dev/tp/internal/howrun"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"
)

// Whole flows in a running program (teatest); assertions on the final model.

func waitScreen(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(want)) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func TestTeaLandingFlow(t *testing.T) {
	dir := t.TempDir()
	f := &fakeLander{plan: samplePlan(), landed: sampleLanded(), progress: 5}
	c := testCommon(t, common.Deps{Lander: f, RunHow: howrun.Run})
	c.WorkDir = dir
	tm := teatest.NewTestModel(t, New(c, landing.New(c, "handoff.taskpack")), teatest.WithInitialTermSize(80, 24))
	waitScreen(t, tm, "1 Summary")
	tm.Send(keyMsg("tab"))
	waitScreen(t, tm, "suggested by alice@laptop")
	tm.Type("r")
	waitScreen(t, tm, "Run this command")
	tm.Type("y")
	waitScreen(t, tm, "Ran the sender's command")
	tm.Type("p")
	tm.Send(keyMsg("tab"))
	tm.Send(keyMsg("tab"))
	waitScreen(t, tm, "Which bucket")
	for range 3 {
		tm.Send(keyMsg("tab"))
	}
	waitScreen(t, tm, "Land this pack")
	tm.Send(keyMsg("enter"))
	waitScreen(t, tm, "Landed as")
	tm.Send(keyMsg("enter"))
	app := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*App)
	l := app.Top().(*landing.Landing)
	if l.Result() == nil || l.Result().ID != "TP-AB23-CD45" {
		t.Fatalf("final model: %+v", l.Result())
	}
	if f.gotD.Checks["c1"].Status != "passed" || !f.gotD.Checks["c1"].Ran {
		t.Fatalf("decisions %+v", f.gotD)
	}
	if _, err := os.Stat(filepath.Join(dir, "created-by-how")); err != nil {
		t.Fatal("confirmed command did not run")
	}
}

func TestTeaInboxFlow(t *testing.T) {
	f := &fakeInbox{acts: sampleActs()}
	c := testCommon(t, common.Deps{Inbox: f})
	tm := teatest.NewTestModel(t, New(c, NewInbox(c)), teatest.WithInitialTermSize(80, 24))
	waitScreen(t, tm, "Pay the invoice")
	tm.Type("x")
	waitScreen(t, tm, "Write this?")
	tm.Type("y")
	waitScreen(t, tm, "written: settled")
	tm.Type("q")
	app := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*App)
	if len(app.Top().(*InboxScreen).Visible()) != 2 || len(f.applied) != 1 || f.applied[0].Outcome != "dropped" {
		t.Fatalf("applied %+v", f.applied)
	}
}

func TestTeaAsksFlow(t *testing.T) {
	f := &fakeAsks{sheet: sampleSheet()}
	c := testCommon(t, common.Deps{Asks: f})
	tm := teatest.NewTestModel(t, New(c, NewAsks(c, "TP-AB23-CD45")), teatest.WithInitialTermSize(80, 24))
	waitScreen(t, tm, "Which bucket?")
	tm.Send(keyMsg("enter"))
	waitScreen(t, tm, "Your answer")
	tm.Type("gs://b")
	tm.Send(keyMsg("ctrl+s"))
	tm.Type("w")
	waitScreen(t, tm, "Save these changes")
	tm.Type("y")
	waitScreen(t, tm, "Pack a receipt now")
	tm.Type("n")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if len(f.saved) != 1 || f.saved[0][0].Answer != "gs://b" {
		t.Fatalf("saved %+v", f.saved)
	}
}

// stagingLander is a Lander that unpacks the luggage before the checks, as
// the core's does: Stage writes the plan's luggage into a folder of its own.
type stagingLander struct {
	*fakeLander
	root     string
	dir      string
	unstaged int
}

func (s *stagingLander) Stage(ctx context.Context, plan *common.Plan, p common.Progress) (string, error) {
	s.dir = filepath.Join(s.root, ".TP-X.files.landing-staged")
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return "", err
	}
	for _, f := range plan.Luggage {
		p("unpacking", 1, 1)
		if err := os.WriteFile(filepath.Join(s.dir, f.Name), []byte("PNG output please\n"), 0o644); err != nil {
			return "", err
		}
	}
	return s.dir, nil
}

func (s *stagingLander) Unstage(plan *common.Plan) error {
	s.unstaged++
	return os.RemoveAll(s.dir)
}

func luggagePlan() *common.Plan {
	p := samplePlan()
	p.Luggage = []common.LuggageFile{{Name: "notes.md", Size: 18}}
	p.Checks[0].How = "grep -q 'PNG output' notes.md"
	return p
}

// Issue 10: the luggage is unpacked before the checks, the sender's check
// runs there and finds the file it reads, and the landing gets the run
// with the time it ran.
func TestTeaCheckRunsWhereTheLuggageIs(t *testing.T) {
	root := t.TempDir()
	f := &stagingLander{fakeLander: &fakeLander{plan: luggagePlan(), landed: sampleLanded()}, root: root}
	c := testCommon(t, common.Deps{Lander: f, RunHow: howrun.Run})
	c.WorkDir = t.TempDir() // not where the luggage is
	tm := teatest.NewTestModel(t, New(c, landing.New(c, "handoff.taskpack")), teatest.WithInitialTermSize(100, 30))
	waitScreen(t, tm, "1 Summary")
	tm.Send(keyMsg("tab"))
	waitScreen(t, tm, "suggested by alice@laptop")
	tm.Type("r")
	// The staged folder, as far as its name gets before a long TMPDIR wraps it.
	waitScreen(t, tm, ".TP-X.files.landing-")
	tm.Type("y")
	waitScreen(t, tm, "exit 0")
	tm.Type("p")
	for range 5 {
		tm.Send(keyMsg("tab"))
	}
	waitScreen(t, tm, "Land this pack")
	tm.Send(keyMsg("enter"))
	waitScreen(t, tm, "Landed as")
	tm.Send(keyMsg("enter"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	got := f.gotD.Checks["c1"]
	if got.Status != "passed" || !got.Ran || got.Exit != 0 || got.RanAt.IsZero() {
		t.Fatalf("c1 = %+v", got)
	}
	if f.unstaged != 0 {
		t.Fatal("the staged luggage was removed although the pack landed")
	}
}

// q or esc before landing leaves nothing behind: the staged luggage is
// removed when the walkthrough is left.
func TestStagedLuggageRemovedOnLeaving(t *testing.T) {
	root := t.TempDir()
	f := &stagingLander{fakeLander: &fakeLander{plan: luggagePlan()}, root: root}
	c := testCommon(t, common.Deps{Lander: f, RunHow: howrun.Run})
	d := newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
	d.keys("tab")
	if _, err := os.Stat(filepath.Join(f.dir, "notes.md")); err != nil {
		t.Fatal("tab to the checks did not unpack the luggage")
	}
	if v := d.view(); !strings.Contains(v, "Checks") {
		t.Fatal(v)
	}
	d.keys("esc", "esc")
	if !d.Quit || f.unstaged != 1 {
		t.Fatalf("quit %v, unstaged %d", d.Quit, f.unstaged)
	}
	if _, err := os.Stat(f.dir); !os.IsNotExist(err) {
		t.Fatal("the staged luggage was left behind")
	}
}
