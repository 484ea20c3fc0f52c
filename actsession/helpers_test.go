package actsession

import (
	"testing"

	"github.com/tp-dev/tp/acts"
)

// Helpers the sync and watch tests share with the acts package's own tests
// (acts/profile_test.go, acts/invariants_test.go): test helpers do not
// cross packages, so the few used here are repeated.

func enProfile(t testing.TB) acts.Profile {
	t.Helper()
	p, err := acts.ProfileByName("en", nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func raisedRecord(key, text string) acts.Record {
	return acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(key), Type: acts.TypeRaised, Origin: "requester", By: "registrar:demo",
		Key: key, Project: "demo", TS: "2026-10-01T00:00:00Z", Terms: &acts.Terms{Text: text}, TermsRev: 1}
}

func mustRaw(t testing.TB, r acts.Record) []byte {
	t.Helper()
	b, err := acts.EncodeRecord(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
