package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tp-dev/tp/landing"
)

// TestSealedFactWithoutMachine: a sealed fact whose pack names no machine
// it was verified on is said to be so, in the landing plan and in a
// receipt's merge preview, not printed as a dangling "verified on ".
func TestSealedFactWithoutMachine(t *testing.T) {
	t.Parallel()
	fact := landing.PlanFact{Claim: "the build passes", Scope: "machine", Sealed: true}
	var plan, preview bytes.Buffer
	renderPlan(&plan, &landing.Plan{Facts: []landing.PlanFact{fact}})
	renderPreview(&preview, &landing.MergePreview{FactsAdded: []landing.PlanFact{fact}})
	for name, out := range map[string]string{"plan": plan.String(), "preview": preview.String()} {
		if strings.Contains(out, "verified on ]") || strings.Contains(out, "verified on  ") || !strings.Contains(out, "does not say on which machine") {
			t.Errorf("%s:\n%s", name, out)
		}
	}
	fact.VerifiedOn = "laptop"
	plan.Reset()
	renderPlan(&plan, &landing.Plan{Facts: []landing.PlanFact{fact}})
	if !strings.Contains(plan.String(), "sealed, verified on laptop") {
		t.Errorf("plan:\n%s", plan.String())
	}
}
