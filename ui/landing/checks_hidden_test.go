package landing

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/internal/uitest"
)

// longHow is the 41-line how: the harmless-looking first ten lines
// and the one that matters at the end.
func longHow() string {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "echo step %d\n", i)
	}
	return b.String() + "rm -rf ~/important"
}

// The check under the cursor is never cut silently: at every size the
// screen shows the whole command or says which lines it shows, and [ / ]
// reach its last line (issue 17).
func TestChecksStepLongHowScrolls(t *testing.T) {
	for _, sz := range [][2]int{{60, 20}, {80, 24}, {100, 30}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(longHow())}})
			d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
			d.Send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			d.Keys("tab")
			v := d.View()
			if strings.Contains(v, "rm -rf") {
				t.Fatalf("the test needs a command taller than the screen:\n%s", v)
			}
			if !strings.Contains(v, "of this check · [/] scroll") {
				t.Fatalf("the command is cut with no mark saying so:\n%s", v)
			}
			for i := 0; i < 20 && !strings.Contains(d.View(), "rm -rf ~/important"); i++ {
				d.Keys("]")
			}
			if v := d.View(); !strings.Contains(v, "rm -rf ~/important") || !strings.Contains(v, "╚") {
				t.Fatalf("] never reached the command's end and its border:\n%s", v)
			}
			uitest.AssertSafe(t, d.View())
		})
	}
}

// p/f/s on a command whose end was never on screen says so and wants the
// key again; once the end was seen, one key marks it.
func TestChecksStepMarkBeforeEndSeen(t *testing.T) {
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(longHow())}})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.Keys("tab", "p")
	l := landingOf(d)
	id := l.s.Plan.Checks[0].ID
	if got := l.s.Checks[id].Status; got == "passed" {
		t.Fatal("p marked a check whose command's end was never on screen")
	}
	if v := d.View(); !strings.Contains(v, "its end not seen yet") {
		t.Fatalf("no warning that the end was not seen:\n%s", v)
	}
	d.Keys("p")
	if got := l.s.Checks[id].Status; got != "passed" {
		t.Fatalf("p p: status %q, want passed", got)
	}

	d = uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.Keys("tab")
	for i := 0; i < 20; i++ {
		d.Keys("]")
	}
	d.Keys("f")
	l = landingOf(d)
	if got := l.s.Checks[id].Status; got != "failed" {
		t.Fatalf("f after reading to the end: status %q, want failed", got)
	}
}
