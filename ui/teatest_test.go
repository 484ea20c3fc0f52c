package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/tp-dev/tp/internal/howrun"
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
	c := testCommon(t, Deps{Lander: f, RunHow: howrun.Run})
	c.WorkDir = dir
	tm := teatest.NewTestModel(t, New(c, NewLanding(c, "handoff.taskpack")), teatest.WithInitialTermSize(80, 24))
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
	l := app.Top().(*Landing)
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
	c := testCommon(t, Deps{Inbox: f})
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
	c := testCommon(t, Deps{Asks: f})
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
