package landing

import (
	"bytes"
	"context"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// Build, a landing and a save share the values they leave as they were
// with the trees they were given, instead of copying a big passport whole
// (issue 20). What they were given stays byte for byte as it was, through
// every change they make: org facts annotated, facts sealed and restored,
// asks stripped of asked_at, landed_from dropped, generated steps left out,
// asks recorded at home.
func TestBuildAndLandLeaveTheirInputsAsTheyWere(t *testing.T) {
	t.Parallel()
	stored := mustParse(t, `{"spec":"2origin/0.1","kind":"task.origin","id":"TP-AAAA-AAAA","title":"T","goal":"G","version":4,
 "facts":[{"claim":"brand template","scope":"org","verified":true},
          {"claim":"Keynote installed","scope":"machine","verified":true},
          {"claim":"regions","scope":"universal","verified":true}],
 "asks":[{"id":"a1","to":"peer","what":"Send it","why":"w","accept":"A CSV","status":"open","asked_at":"2026-09-01T00:00:00Z"}],
 "next_steps":["Mine","Re-verify x"],
 "landed_from":{"file":"f","generated_next_steps":["Re-verify x"]},
 "lineage":{"root_id":"TP-AAAA-AAAA","from_version":3,"chain":["TP-AAAA-AAAA@3"]}}`)
	before := ojson.Canonical(stored)
	built, err := Build(context.Background(), stored, BuildOptions{Actor: "maria", Machine: "studio-imac",
		Asks: []*ojson.Value{ParseAsk("Send the close|A CSV by region|for the deck")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ojson.Canonical(stored); !bytes.Equal(got, before) {
		t.Fatalf("Build changed the stored passport:\n%s", got)
	}
	state := built.Source.Object.Get("passport")
	if a := (model.Passport{V: state}).Facts()[0].V.Get(SourceActor).Text(); a != "maria" {
		t.Errorf("org fact not annotated in the pack: %q", a)
	}
	if state.Has("landed_from") || state.Get("asks").Items()[0].Has(AskedAt) || len(state.Get("next_steps").Items()) != 1 {
		t.Errorf("the pack's state was not made: %s", ojson.Compact(state))
	}
	if n := len(built.Home.Get("asks").Items()); n != 2 {
		t.Errorf("home records %d asks, want 2", n)
	}

	// Land a pack whose facts the landing changes: an org fact without its
	// source, and sealed facts this store's own lineage lets it restore.
	st := testStore(t)
	sentFrom(t, st, "TP-AAAA-AAAA", 4)
	p := openPack(t, flatPack(t, handObj))
	obj := ojson.Canonical(p.Object)
	pl, err := PlanLanding(context.Background(), p, st, envOn("studio-imac", "maria"))
	if err != nil {
		t.Fatal(err)
	}
	ld, err := Land(context.Background(), p, pl, st, Decisions{TrustOwnFacts: true, Answers: map[string]string{"a1": "here"},
		CheckStatus: map[string]string{"c2": "passed"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ojson.Canonical(p.Object); !bytes.Equal(got, obj) {
		t.Errorf("landing changed the pack object:\n%s", got)
	}
	if len(ld.Restored) != 2 {
		t.Errorf("restored %v, want 2", ld.Restored)
	}
	landed := get(t, st, ld.ID)
	facts := (model.Passport{V: landed}).Facts()
	if !facts[1].Verified() || facts[3].V.Get(SourceActor).Text() != "Maria" {
		t.Errorf("landed facts not changed: %s", ojson.Compact(landed.Get("facts")))
	}
	if again := pack.Sealed(p.Object); !bytes.Equal(ojson.Canonical(again), obj) {
		t.Errorf("the pack object as read is not sealed")
	}
}
