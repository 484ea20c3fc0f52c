package landing

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// sources maps each fact's claim to its source_actor ("-" when it has none).
func sources(facts *ojson.Value) map[string]string {
	out := map[string]string{}
	for _, f := range facts.Items() {
		s, ok := f.Get(SourceActor).Str()
		if !ok {
			s = "-"
		}
		out[model.Fact{V: f}.Claim()] = s
	}
	return out
}

func packedFacts(t *testing.T, path string) *ojson.Value {
	t.Helper()
	return openPack(t, path).Object.Get("passport").Get("facts")
}

// TestOrgFactSourceIsWhoProvedIt is TaskPack 0.1 §4.2's "annotated with the
// source actor" over two hops: a verified org fact that arrives without a
// source (a reference pack does not annotate) is the sender's, so when the
// receiver packs onward it names the sender, not the receiver; a fact that
// already names its source keeps it; only a fact the packing actor added
// itself is annotated with them. A receipt's org facts, merged home, keep
// their sender the same way.
func TestOrgFactSourceIsWhoProvedIt(t *testing.T) {
	obj := strings.Replace(handObj,
		`{"claim":"brand template","scope":"org","verified":true}`,
		`{"claim":"brand template","scope":"org","verified":true},
     {"claim":"invoices go through finance","scope":"org","verified":true,"source_actor":"Lee"},
     {"claim":"unproven convention","scope":"org","verified":false}`, 1)
	storeB := testStore(t)
	_, ld := landIt(t, flatPack(t, obj), storeB, envOn("laptop", "bob"), Decisions{})
	if _, err := storeB.Update(ld.ID, func(v *ojson.Value) error {
		v.Get("facts").Append(mustParse(t, `{"claim":"bob's team ships on Fridays","scope":"org","verified":true}`))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	out := packIt(t, storeB, ld.ID, BuildOptions{Actor: "bob", Machine: "laptop"}, pack.EncodingFlat)
	want := map[string]string{
		"brand template":              "Maria", // the sender proved it, bob passes it on
		"invoices go through finance": "Lee",   // named before: kept
		"unproven convention":         "-",     // no ✓, nothing to attribute
		"bob's team ships on Fridays": "bob",   // proven by the packing actor
		"board wants regions":         "-",     // universal: no annotation
	}
	got := sources(packedFacts(t, out))
	for claim, w := range want {
		if got[claim] != w {
			t.Errorf("handoff: %q source_actor = %q, want %q", claim, got[claim], w)
		}
	}

	// A receipt from carol (a writer that does not annotate) brings an org
	// fact home; maria merges it, then packs onward.
	storeA := testStore(t)
	a := newPassport(t, storeA, nil)
	v, _ := get(t, storeA, a).Get("version").Int()
	version := fmt.Sprint(v)
	receipt := `{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-09-04T10:00:00Z",
	 "origin":{"actor":"carol","machine":"c-box","harness":"ref"},
	 "lineage":{"root_id":"` + a + `","from_version":1,"chain":["` + a + `@` + version + `","TP-CCCC-CCCC@1"]},
	 "note":"","passport":{"id":"TP-CCCC-CCCC","goal":"g","facts":[
	   {"claim":"expenses are booked in EUR","scope":"org","verified":true}]},
	 "asks":[],"landing_checks":[]}`
	mergeIt(t, flatPack(t, receipt), storeA, "", envOn("studio", "maria"))
	if s := sources(get(t, storeA, a).Get("facts"))["expenses are booked in EUR"]; s != "carol" {
		t.Errorf("merged fact source_actor = %q, want carol", s)
	}
	onward := packIt(t, storeA, a, BuildOptions{Actor: "maria", Machine: "studio"}, pack.EncodingFlat)
	if s := sources(packedFacts(t, onward))["expenses are booked in EUR"]; s != "carol" {
		t.Errorf("packed onward: source_actor = %q, want carol", s)
	}
}
