package landing

import (
	"strings"
	"testing"

	"github.com/tp-dev/tp/model"
)

// TestNeverVerifiedNeverRestored: a machine-scoped or unscoped fact that was
// never verified is sealed with no verified_on (§4.2: verified_on is where
// the fact *was* proven), so landing it on the very machine that packed it,
// with --trust-own-facts, still leaves it unproven; a fact that was proven
// there comes back as before.
func TestNeverVerifiedNeverRestored(t *testing.T) {
	obj := strings.Replace(handObj,
		`{"claim":"brand template","scope":"org","verified":true}`,
		`{"claim":"brand template","scope":"org","verified":true},
     {"claim":"port 8080 is free","scope":"machine","verified":false},
     {"claim":"the VPN is up"}`, 1)
	st := testStore(t)
	sentFrom(t, st, "TP-AAAA-AAAA", 4)
	_, ld := landIt(t, flatPack(t, obj), st, envOn("studio-imac", "maria"), Decisions{TrustOwnFacts: true})
	restored := map[string]bool{}
	for _, c := range ld.Restored {
		restored[c] = true
	}
	for _, f := range (model.Passport{V: get(t, st, ld.ID)}).Facts() {
		switch f.Claim() {
		case "port 8080 is free", "the VPN is up":
			if f.Verified() || !f.Sealed() || f.V.Has("verified_on") || restored[f.Claim()] {
				t.Errorf("never-verified fact %q: verified=%v sealed=%v verified_on=%q restored=%v",
					f.Claim(), f.Verified(), f.Sealed(), f.VerifiedOn(), restored[f.Claim()])
			}
		case "Keynote 14.2 installed":
			if !f.Verified() {
				t.Errorf("a fact proven on this machine was not restored with --trust-own-facts")
			}
		}
	}
}
