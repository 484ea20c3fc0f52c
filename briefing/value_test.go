package briefing

import (
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

// Value gives what encoding/json gives for the struct, member for member,
// so tp open --json prints the same document as before it stopped
// marshalling the briefing.
func TestValueIsEncodingJSONsBriefing(t *testing.T) {
	for name, b := range map[string]*Briefing{
		"zero": {},
		"empty lists": {VerifiedFacts: []Fact{}, UnverifiedFacts: []Fact{}, Decisions: []Decision{}, OpenAsks: []Ask{},
			PendingChecks: []Check{}, NextSteps: []string{}, Artifacts: []string{}},
		"full": {PassportID: "TP-1", StateVersion: 7, Title: "t", Goal: "g", CurrentState: "c <b>&",
			VerifiedFacts:   []Fact{{Claim: "a", Scope: "org"}, {Claim: "b", Scope: "machine", Evidence: "e", VerifiedOn: "m", SourceActor: "s", Sealed: true}},
			UnverifiedFacts: []Fact{{Claim: "\u2028x\ty"}},
			Decisions:       []Decision{{What: "w"}, {What: "w", Why: "y"}},
			OpenAsks:        []Ask{{ID: "a1", What: "w", Accept: ""}, {ID: "a2", To: "peer", What: "w", Why: "y", Accept: "a", Sent: true}},
			PendingChecks:   []Check{{ID: "c1", Check: "c"}, {ID: "c2", Check: "c", How: "h"}},
			NextSteps:       []string{"one", "two"}, Artifacts: []string{"a.md"}, RootID: "TP-0", FilesDir: "/x", Files: 3},
	} {
		want, err := ojson.MarshalCanonical(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := ojson.Canonical(b.Value()); string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}
