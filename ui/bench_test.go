package ui

import (
	"fmt"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func bigPlan(n int) *common.Plan {
	p := samplePlan()
	p.Checks, p.Asks, p.Facts = nil, nil, nil
	for i := 0; i < n; i++ {
		p.Checks = append(p.Checks, common.Check{ID: fmt.Sprintf("c%d", i), Check: fmt.Sprintf("check number %d holds on this machine", i), How: fmt.Sprintf("test -e /tmp/thing-%d", i), Required: i%2 == 0})
		p.Asks = append(p.Asks, common.Ask{ID: fmt.Sprintf("a%d", i), What: fmt.Sprintf("question %d for the receiver", i), Why: "because", Accept: "an answer", Status: "open"})
		p.Facts = append(p.Facts, common.Fact{Claim: fmt.Sprintf("fact %d", i), Scope: "machine", Sealed: true, VerifiedOn: "laptop"})
	}
	return p
}

// The first frame of the landing screen once the plan has arrived: the
// model takes the plan and draws the summary (1,000 asks and 1,000 checks).
func BenchmarkLandingFirstFrame(b *testing.B) {
	p := bigPlan(1000)
	c := testCommon(b, common.Deps{})
	b.ReportAllocs()
	for b.Loop() {
		l := landing.New(c, "big.taskpack")
		app := New(c, l)
		app.Update(landing.PlanMsg{Plan: p})
		_ = app.View()
	}
}

// Drawing the checks step with 1,000 checks (only the visible rows are drawn).
func BenchmarkLandingChecksView(b *testing.B) {
	c := testCommon(b, common.Deps{})
	l := landing.NewWithPlan(c, bigPlan(1000))
	l.GoStep(landing.StepChecks)
	b.ReportAllocs()
	for b.Loop() {
		l.Update(keyMsg("down"))
		_ = l.View()
	}
}

func manyActs(n int) []common.Act {
	acts := make([]common.Act, n)
	for i := range acts {
		acts[i] = common.Act{Key: fmt.Sprintf("k%05d", i), Project: fmt.Sprintf("project-%d", i%17), Status: "open",
			Text: fmt.Sprintf("Pay invoice %d from supplier %d", i, i%311), TermsRev: 1}
		if i%5 == 0 {
			acts[i].Due = "2026-12-01"
		}
	}
	return acts
}

// One keystroke typed into the inbox filter with 10,000 acts: Update
// (refilter) and the frame that follows.
func BenchmarkInboxFilterKeystroke(b *testing.B) {
	c := testCommon(b, common.Deps{})
	s := NewInboxWithActs(c, manyActs(10000))
	s.Update(keyMsg("/"))
	keys := []tea.KeyMsg{keyMsg("1"), keyMsg("2"), keyMsg("backspace"), keyMsg("backspace")}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Update(keys[i%len(keys)])
		_ = s.View()
		i++
	}
}

// Moving the cursor in a list of 10,000 acts: Update and the next frame.
func BenchmarkInboxMove(b *testing.B) {
	c := testCommon(b, common.Deps{})
	s := NewInboxWithActs(c, manyActs(10000))
	down, up := keyMsg("down"), keyMsg("up")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if (i/5000)%2 == 0 {
			s.Update(down)
		} else {
			s.Update(up)
		}
		_ = s.View()
		i++
	}
}

// Switching the project filter over 10,000 acts.
func BenchmarkInboxProjectFilter(b *testing.B) {
	c := testCommon(b, common.Deps{})
	s := NewInboxWithActs(c, manyActs(10000))
	b.ReportAllocs()
	for b.Loop() {
		s.Update(keyMsg("tab"))
		_ = s.View()
	}
}
