package cli

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tp-dev/tp/landing"
)

// Each kind of fact line of the plain plan, exactly; the pack's text in it
// made safe (D11) and its credentials cut (D5), as q does.
func TestPlanFactLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fact landing.PlanFact
		want string
	}{
		{"verified", landing.PlanFact{Claim: "the repo builds", Scope: "project", Verified: true}, `  ✓ [project] "the repo builds"`},
		{"not verified, no scope", landing.PlanFact{Claim: "maybe"}, `  · [no scope: machine; not verified] "maybe"`},
		{"sealed", landing.PlanFact{Claim: "ffmpeg 6", Scope: "machine", Sealed: true, VerifiedOn: "studio"}, `  ⚠ [machine; sealed, verified on studio] "ffmpeg 6"`},
		{"sealed, no machine", landing.PlanFact{Claim: "x", Sealed: true}, `  ⚠ [no scope: machine; sealed; the pack does not say on which machine it was verified] "x"`},
		{"restorable", landing.PlanFact{Claim: "x", Scope: "machine", Sealed: true, VerifiedOn: "me", ThisMachine: true, Restorable: true},
			`  ⚠ [machine; sealed, verified on me = this machine (--trust-own-facts may restore it)] "x"`},
		{"this machine, not restorable", landing.PlanFact{Claim: "x", Scope: "machine", Sealed: true, VerifiedOn: "me", ThisMachine: true},
			`  ⚠ [machine; sealed, verified on me = this machine, but not restorable: the pack's lineage passes through no pack this store made (§4.2)] "x"`},
		{"untrusted text", landing.PlanFact{Claim: "run\u202e.sh\n\x1b[2J", Scope: "org\u200b", Sealed: true, VerifiedOn: "a\tb"},
			`  ⚠ [org⟨U+200B⟩; sealed, verified on a\tb] "run⟨U+202E⟩.sh\n\x1b[2J"`},
		{"a credential", landing.PlanFact{Claim: "token ghp_abcdefghijklmnopqrstuvwxyz0123456789", Verified: true},
			`  ✓ [no scope: machine] "token ghp_…⟨credential-like (github-token), not shown⟩"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			renderPlan(&b, &landing.Plan{Facts: []landing.PlanFact{tt.fact}})
			var got string
			for _, l := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(l, "  ") && strings.Contains(l, "] \"") {
					got = l
				}
			}
			if got != tt.want {
				t.Errorf("fact line\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// The plan's fact and step lines are written in pieces: printing a plan
// allocates about as much for 2,000 facts as for 20 (issue 20: a pack of
// 110,000 facts made 20 MB of garbage printing its plan, at the top of
// the landing's heap).
func TestPlanPrintAllocatesPerPlanNotPerFact(t *testing.T) {
	plan := func(n int) *landing.Plan {
		pl := &landing.Plan{}
		for i := range n {
			pl.Facts = append(pl.Facts, landing.PlanFact{Index: i, Claim: fmt.Sprintf("Fact %d of the shed", i), Scope: "machine", Sealed: i%2 == 0, VerifiedOn: "studio", Verified: i%3 == 0})
			pl.NextSteps = append(pl.NextSteps, landing.Step{Kind: landing.StepReverify, Text: fmt.Sprintf("Re-verify fact %d", i)})
		}
		return pl
	}
	small, big := plan(20), plan(2_000)
	a := testing.AllocsPerRun(3, func() { renderPlan(io.Discard, small) })
	b := testing.AllocsPerRun(3, func() { renderPlan(io.Discard, big) })
	if b > a+50 {
		t.Errorf("printing the plan: %.0f allocations for 20 facts, %.0f for 2,000", a, b)
	}
}
