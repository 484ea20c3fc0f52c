package landing

import (
	"strings"
	"testing"

	"github.com/tp-dev/tp/ui/internal/uitest"
)

// D12: the confirm step recaps each command the person ran, whose it was
// (the sender's, or theirs once edited) and its exit, since that run is
// recorded on the check when the pack lands.
func TestLandingConfirmShowsRuns(t *testing.T) {
	dir := t.TempDir()
	f := &fakeLander{plan: uitest.SamplePlan(), landed: uitest.SampleLanded()}
	d := newLandingApp(t, f, dir)
	l := landingOf(d)
	d.Keys("tab", "r", "y", "p") // c1: the sender's command, passed
	d.Keys("e")
	d.TypeText(" ; exit 3")
	d.Keys("ctrl+s", "y", "f") // c2: edited, so the person's own; failed
	for l.Step() != StepConfirm {
		d.Keys("tab")
	}
	v := d.View()
	for _, want := range []string{"Ran         c1 passed · the sender's command, exit 0", "c2 failed · your command, exit 3", "recorded with its check"} {
		if !strings.Contains(v, want) {
			t.Errorf("confirm step lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "c3 ") {
		t.Errorf("a check that never ran is recapped as run:\n%s", v)
	}
	d.Keys("enter")
	if got := f.gotD.Checks["c2"]; !got.Ran || got.Exit != 3 || got.Command == "python3 --version" {
		t.Errorf("c2 run not passed to the lander: %+v", got)
	}
}
