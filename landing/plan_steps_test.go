package landing

import (
	"context"
	"slices"
	"testing"
)

// Each fact still sealed gets its re-verification step, its ref the fact's
// index and its text naming where the fact was proven (§4.4); the texts
// are cut from one string (issue 20), and each must read as if made alone.
func TestReverifySteps(t *testing.T) {
	facts := []PlanFact{
		{Index: 0, Claim: "ffmpeg 6 is installed", Sealed: true, VerifiedOn: "studio-imac"},
		{Index: 1, Claim: "the repo builds", Verified: true},
		{Index: 2, Claim: "python 3.12", Sealed: true},
		{Index: 10, Claim: "", Sealed: true, VerifiedOn: "laptop", ThisMachine: true, Restorable: true},
		{Index: 123456, Claim: "ключ ✓ 日本", Sealed: true, VerifiedOn: "box"},
	}
	all := []Step{
		{StepReverify, "0", "Re-verify before relying on it (proven only on studio-imac): ffmpeg 6 is installed"},
		{StepReverify, "2", "Re-verify before relying on it (proven only on another machine): python 3.12"},
		{StepReverify, "10", "Re-verify before relying on it (proven only on laptop): "},
		{StepReverify, "123456", "Re-verify before relying on it (proven only on box): ключ ✓ 日本"},
	}
	tests := []struct {
		name    string
		facts   []PlanFact
		restore bool
		want    []Step
	}{
		{"none", nil, false, nil},
		{"every sealed fact", facts, false, all},
		{"--trust-own-facts restores the restorable one", facts, true, slices.Delete(slices.Clone(all), 2, 3)},
		{"no sealed fact", facts[1:2], false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl := &Plan{Facts: tt.facts}
			got := pl.reverifySteps([]Step{{StepCheck, "c1", "first"}}, tt.restore)
			want := append([]Step{{StepCheck, "c1", "first"}}, tt.want...)
			if !slices.Equal(got, want) {
				t.Errorf("steps\n got %q\nwant %q", got, want)
			}
		})
	}
}

// Deciding with the decisions the steps were made for keeps them: a pack
// of 110,000 facts made its 55,000 steps again for every headless landing
// (issue 20). Other decisions make them again.
func TestDecideKeepsStepsMadeForTheSameDecisions(t *testing.T) {
	st := testStore(t)
	p := openPack(t, flatPack(t, handObj))
	pl, err := PlanLanding(context.Background(), p, st, envOn("laptop", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.NextSteps) == 0 {
		t.Fatal("the plan has no steps")
	}
	first, none := &pl.NextSteps[0], Decisions{CheckStatus: map[string]string{}} // as tp land without --check
	if allocs := testing.AllocsPerRun(10, func() { pl.Decide(none) }); allocs != 0 || &pl.NextSteps[0] != first {
		t.Errorf("Decide with no decisions made the steps again (%.0f allocations)", allocs)
	}
	d := Decisions{CheckStatus: map[string]string{"c2": "passed"}}
	pl.Decide(d)
	if !slices.Equal(pl.NextSteps, pl.steps(d)) || slices.Equal(pl.NextSteps, pl.steps(Decisions{})) {
		t.Errorf("Decide(%v) kept the steps of no decisions: %q", d.CheckStatus, pl.NextSteps)
	}
}
