package ui

import (
	"strings"
	"testing"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"
)

// TestReceiptShowsChainWarning: a receipt whose chain names a version its
// target never sent is merged only with the warning on screen, before the
// person presses enter (TaskPack 0.1 §4.4.1; the core puts it in the plan).
func TestReceiptShowsChainWarning(t *testing.T) {
	p := receiptPlan()
	p.Warnings = []common.Warning{{Kind: "note", Text: "the receipt's chain names TP-AAAA-AAAA@999, but TP-AAAA-AAAA is at version 8 here and never sent a pack from version 999 (§4.4.1); merge only if it answers this passport"}}
	f := &fakeLander{plan: p, merged: &common.Merged{Target: "TP-AAAA-AAAA", Version: 9, Changed: 1}}
	c := testCommon(t, common.Deps{Lander: f})
	d := newDriver(t, New(c, landing.New(c, "answers.taskpack")))
	v := d.view()
	if !strings.Contains(v, "⚠ warning") || !strings.Contains(v, "chain names TP-AAAA-AAAA@999, but TP-AAAA-AAAA is at version") || f.merges != 0 {
		t.Fatalf("the warning is not on the receipt screen before merging:\n%s", d.view())
	}
	d.keys("enter")
	if f.merges != 1 {
		t.Fatalf("merges %d: the warning informs, it does not refuse", f.merges)
	}
}
