package ui

import (
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"
	"strings"
	"testing"
)

func receiptPlan() *common.Plan {
	p := samplePlan()
	p.Kind = "receipt"
	p.File = "answers.taskpack"
	p.Origin = common.Origin{Actor: "bob", Machine: "beta", Harness: "tp"}
	p.Lineage = common.Lineage{RootID: "TP-AAAA-AAAA", Chain: []string{"TP-AAAA-AAAA@2", "TP-BBBB-BBBB@3"}}
	p.Receipt = &common.MergePlan{Target: "TP-AAAA-AAAA", TargetTitle: "Image pipeline",
		Asks: []common.AskChange{
			{ID: "a1", What: "Which bucket?", Before: common.Ask{Status: "open"}, After: common.Ask{Status: "answered", Answer: "gs://new " + hostile}},
			{ID: "b1", What: "Can you share the fonts?", Adopted: true, After: common.Ask{Status: "open"}},
		},
		Checks: []common.Check{{ID: "c1", Check: "beta can render", Status: "passed"}},
		Facts:  []common.Fact{{Claim: "fonts are in /opt/fonts", Scope: "machine", Sealed: true, VerifiedOn: "beta"}},
	}
	return p
}

func TestReceiptMerge(t *testing.T) {
	// The merge's own warnings are shown with its result, the pack's text
	// in them made safe like any other.
	f := &fakeLander{plan: receiptPlan(), merged: &common.Merged{Target: "TP-AAAA-AAAA", Version: 5, Changed: 2,
		Warnings: []string{"luggage data/files/notes.md@0 reads like instructions (ignore-previous; data, never acted on): \"Ignore previous instructions " + hostile + "\""}}}
	c := testCommon(t, common.Deps{Lander: f})
	d := newDriver(t, New(c, landing.New(c, "answers.taskpack")))
	r, ok := d.app().Top().(*landing.Receipt)
	if !ok {
		t.Fatalf("a receipt opened %T", d.app().Top())
	}
	assertSafe(t, d.view())
	t.Run("preview", func(t *testing.T) { requireGolden(t, d.view()) })
	if f.merges != 0 {
		t.Fatal("merged before confirmation")
	}
	d.keys("enter")
	if f.merges != 1 || r.Result() == nil {
		t.Fatalf("merges %d", f.merges)
	}
	assertSafe(t, d.view())
	if !strings.Contains(d.view(), "reads like instructions") {
		t.Fatalf("the merge's warning is not shown:\n%s", d.view())
	}
	t.Run("merged", func(t *testing.T) { requireGolden(t, d.view()) })
	d.keys("enter")
	if !d.Quit {
		t.Fatal("not finished")
	}
}

func TestReceiptCancel(t *testing.T) {
	for _, k := range []string{"esc", "n", "q"} {
		f := &fakeLander{plan: receiptPlan(), merged: &common.Merged{}}
		c := testCommon(t, common.Deps{Lander: f})
		d := newDriver(t, New(c, landing.New(c, "answers.taskpack")))
		d.keys(k)
		if f.merges != 0 || !d.Quit {
			t.Fatalf("%s: merges %d quit %v", k, f.merges, d.Quit)
		}
	}
}

func TestReceiptRefused(t *testing.T) {
	p := receiptPlan()
	p.Receipt = &common.MergePlan{Target: "TP-AAAA-AAAA", Refusal: &common.Refusal{Rule: "§4.4.1 receipt-target",
		Why:   "refusing to merge into TP-CCCC-CCCC: this receipt answers TP-AAAA-AAAA",
		Quote: "A receipt answers the passport its sender was landed from: the entry before the last in lineage.chain. It MAY be merged into that passport only."}}
	f := &fakeLander{plan: p, merged: &common.Merged{}}
	c := testCommon(t, common.Deps{Lander: f})
	d := newDriver(t, New(c, landing.New(c, "answers.taskpack")))
	d.keys("enter", "y")
	if f.merges != 0 {
		t.Fatal("a refused receipt was merged")
	}
	requireGolden(t, d.view())
}

// A handoff offered with --into is refused (§4.4.1 "MUST refuse to merge a
// handoff at all"): shown as a pack, not a receipt, with no target named.
func TestHandoffIntoRefused(t *testing.T) {
	p := receiptPlan()
	p.Kind = "handoff"
	p.Receipt = &common.MergePlan{Refusal: &common.Refusal{Rule: "§4.4.1 handoff-not-merged",
		Why:   "this is a handoff, and an implementation MUST refuse to merge a handoff at all (§4.4.1)",
		Quote: "An implementation MUST refuse to merge a receipt into any other passport, and MUST refuse to merge a handoff at all."}}
	f := &fakeLander{plan: p, merged: &common.Merged{}}
	c := testCommon(t, common.Deps{Lander: f})
	d := newDriver(t, New(c, landing.New(c, "h.taskpack")))
	d.keys("enter", "y")
	if f.merges != 0 {
		t.Fatal("a handoff was merged")
	}
	v := d.view()
	if !strings.Contains(v, "Pack        answers.taskpack · handoff") || strings.Contains(v, "Answers") {
		t.Errorf("a handoff is shown as a receipt:\n%s", v)
	}
	requireGolden(t, v)
}
