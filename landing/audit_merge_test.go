package landing

import (
	"context"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// TestAuditMergeAdoptsUnknownAsksOpen: §4.4.1.3 — asks in a receipt with no
// counterpart in the target are questions aimed back at the merging side:
// adopted as open asks, whatever status the receipt gave them.
func TestAuditMergeAdoptsUnknownAsksOpen(t *testing.T) {
	st := testStore(t)
	a := newPassport(t, st, func(v *ojson.Value) {
		v.Set("asks", mustParse(t, `[{"id":"a1","to":"peer","what":"w","why":"","accept":"acc","status":"open","answer":null}]`))
	})
	obj := `{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-09-03T14:20:00Z",
	 "origin":{"actor":"bob","machine":"laptop","harness":"x"},
	 "lineage":{"root_id":"` + a + `","from_version":2,"chain":["` + a + `@2","TP-BBBB-BBBB@3"]},
	 "note":"","passport":{},
	 "asks":[{"id":"a1","to":"peer","what":"w","why":"","accept":"acc","status":"answered","answer":"yes"},
	         {"id":"b7","to":"peer","what":"Which logo?","why":"","accept":"a file name","status":"answered","answer":"mine"}],
	 "landing_checks":[]}`
	_, m := mergeIt(t, flatPack(t, obj), st, "", envOn("studio", "maria"))
	if !m.Changed {
		t.Fatal("no change")
	}
	var b7 *model.Ask
	for _, v := range get(t, st, a).Get("asks").Items() {
		if ask := (model.Ask{V: v}); ask.ID() == "b7" {
			b7 = &ask
		}
	}
	if b7 == nil {
		t.Fatal("the receipt's unknown ask b7 was not adopted")
	}
	if b7.Status() != model.AskOpen {
		t.Errorf("adopted ask b7 has status %q, want open (§4.4.1.3): %s", b7.Status(), ojson.Compact(b7.V))
	}
}

// TestAuditMergeRestoresOnlyThisMachine: §4.2 — a ✓ may be restored only
// when the landing machine equals verified_on, and only on an explicit
// choice; that holds for the facts a receipt brings (§4.4.1.4) as for a
// landing.
func TestAuditMergeRestoresOnlyThisMachine(t *testing.T) {
	for _, tc := range []struct {
		name     string
		machine  string
		trust    bool
		restored bool
		foreign  bool // the store never sent the pack this receipt answers (issue 18)
	}{
		{"other machine, chosen", "studio", true, false, false},
		{"same machine, not chosen", "laptop", false, false, false},
		{"same machine, chosen", "laptop", true, true, false},
		{"same machine, chosen, not our pack", "laptop", true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := testStore(t)
			a := newPassport(t, st, nil)
			if !tc.foreign {
				sentFrom(t, st, a, 2)
			} else {
				sentFrom(t, st, a, 1) // packed, but never from version 2
			}
			obj := `{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-09-03T14:20:00Z",
			 "origin":{"actor":"bob","machine":"laptop","harness":"x"},
			 "lineage":{"root_id":"` + a + `","from_version":2,"chain":["` + a + `@2","TP-BBBB-BBBB@3"]},
			 "note":"","passport":{"facts":[{"claim":"the printer is on the LAN","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"laptop"}]},
			 "asks":[],"landing_checks":[]}`
			p := openPack(t, flatPack(t, obj))
			into := ""
			if tc.foreign {
				into = a // --into: merged with a warning though never sent
			}
			pl, err := PlanMerge(context.Background(), p, st, into, envOn(tc.machine, "maria"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Merge(context.Background(), p, pl, st, Decisions{TrustOwnFacts: tc.trust}); err != nil {
				t.Fatal(err)
			}
			var fact *model.Fact
			for _, f := range (model.Passport{V: get(t, st, a)}).Facts() {
				if f.Claim() == "the printer is on the LAN" {
					fact = &f
				}
			}
			if fact == nil {
				t.Fatal("the receipt's fact was not merged")
			}
			if fact.Verified() != tc.restored {
				t.Errorf("verified = %v, want %v (landing machine %s, verified_on laptop, chosen %v): %s",
					fact.Verified(), tc.restored, tc.machine, tc.trust, ojson.Compact(fact.V))
			}
		})
	}
}
