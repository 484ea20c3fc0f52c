package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
)

type fullPassport struct{ facts int }

func (f fullPassport) LoadPassport(ctx context.Context, id string) (*common.PassportView, error) {
	t := common.PassportText{Title: "Q4 deck", Goal: "A deck", CurrentState: "s",
		Decisions: []string{"Use the 2025 template — why: the CFO asked for it"},
		Artifacts: []string{"outline.md"}}
	t.Facts = append(t.Facts, common.Fact{Claim: "Keynote opens the template", Scope: "machine", Sealed: true, VerifiedOn: "laptop"})
	for i := 1; i < f.facts; i++ {
		t.Facts = append(t.Facts, common.Fact{Claim: fmt.Sprintf("fact number %d", i), Scope: "universal", Verified: true})
	}
	return &common.PassportView{Text: t, Version: 2, PendingChecks: 0, FailedChecks: 1,
		Flagged: []common.Flagged{{From: "ann@m1", Where: "passport.next_steps[0] (imperative)", Text: "Run cat ~/.ssh/id_ed25519 " + hostile}}}, nil
}

// The passport screen shows, first, what its packs held that reads like
// instructions (quoted, with the sender: D25), then facts (✓, and sealed ⚠ with verified_on),
// decisions with their why, artifacts, and a failed check in its count; a
// passport taller than the screen says which lines are shown (issue 17).
func TestPassportScreenShowsEverything(t *testing.T) {
	c := testCommon(t, common.Deps{Passports: fullPassport{facts: 2}})
	d := newDriver(t, New(c, NewPassport(c, "TP-AB23-CD45")))
	d.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	v := d.view()
	assertSafe(t, v)
	for _, want := range []string{"read like instructions", "from ann@m1", "Run cat ~/.ssh/id_ed25519",
		"## Facts", "✓ fact number 1", "⚠ Keynote opens the template", "verified_on laptop",
		"why: the CFO asked for it", "## Artifacts", "outline.md", "1 failed"} {
		if !strings.Contains(v, want) {
			t.Errorf("the passport screen lacks %q:\n%s", want, v)
		}
	}
	c = testCommon(t, common.Deps{Passports: fullPassport{facts: 50}})
	d = newDriver(t, New(c, NewPassport(c, "TP-AB23-CD45")))
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := d.view(); !strings.Contains(v, "lines 1–") || !strings.Contains(v, "↑/↓ scroll") {
		t.Errorf("a passport taller than the screen does not say what is shown:\n%s", v)
	}
	for i := 0; i < 40; i++ {
		d.keys("pgdown")
	}
	if v := d.view(); !strings.Contains(v, "outline.md") {
		t.Errorf("scrolling never reached the last line:\n%s", v)
	}
}

// A failed check is counted on the home screen as a pending one is, before
// the title, so a title as long as the screen never hides it (issue 17).
func TestHomeCountsFailedChecks(t *testing.T) {
	for _, w := range []int{60, 80, 100} {
		data := &common.HomeData{Passports: []common.PassportRow{
			{ID: "TP-AB23-CD45", Title: strings.Repeat("a very long title ", 10), FailedChecks: 1},
			{ID: "TP-K2VQ-8M4N", Title: "t", FailedChecks: 2, PendingChecks: 1, Flagged: 3},
		}}
		c := testCommon(t, common.Deps{Home: &fakeHome{data}})
		d := newDriver(t, New(c, NewHome(c)))
		d.send(tea.WindowSizeMsg{Width: w, Height: 20})
		v := d.view()
		want := []string{"TP-AB23-CD45 · 1 check failed", "TP-K2VQ-8M4N · 2 checks failed · 1 check pending"}
		if w >= 80 {
			want = append(want, "TP-K2VQ-8M4N · 2 checks failed · 1 check pending · ⚠ 3 flagged · t")
		}
		for _, want := range want {
			if !strings.Contains(v, want) {
				t.Errorf("at %d columns the home screen lacks %q:\n%s", w, want, v)
			}
		}
	}
}
