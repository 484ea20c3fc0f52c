package pack

import (
	"bytes"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

// TestSeal is §4.2 fact by fact: universal and org facts keep their ✓;
// machine-scoped and unscoped ones leave verified: false, needs_reverify:
// true and verified_on — their own, else the packing machine when they
// arrive verified, and none at all when they were never verified (§4.2:
// verified_on is where the fact *was* proven); a second Seal changes
// nothing, byte for byte.
func TestSeal(t *testing.T) {
	obj, err := ojson.ParseStrict([]byte(`{
  "origin": {"machine": "studio-imac"},
  "passport": {"facts": [
    {"claim": "u", "scope": "universal", "verified": true},
    {"claim": "o", "scope": "org", "verified": true},
    {"claim": "m", "scope": "machine", "verified": true},
    {"claim": "none", "verified": true},
    {"claim": "elsewhere", "scope": "machine", "verified": true, "verified_on": "build-01"},
    {"claim": "unproven", "verified": false},
    {"claim": "sealed", "scope": "machine", "verified": false, "needs_reverify": true, "verified_on": "laptop"},
    {"claim": "never said", "scope": "machine"},
    {"claim": "sealed nowhere", "verified": false, "needs_reverify": true},
    "a fact that is only a string"
  ]}
}`))
	if err != nil {
		t.Fatal(err)
	}
	changed := Seal(obj)
	want := []string{"passport.facts[2]", "passport.facts[3]", "passport.facts[4]", "passport.facts[5]", "passport.facts[7]"}
	if len(changed) != len(want) {
		t.Fatalf("changed %v, want %v", changed, want)
	}
	for i := range want {
		if changed[i] != want[i] {
			t.Fatalf("changed %v, want %v", changed, want)
		}
	}
	facts := obj.Get("passport").Get("facts").Items()
	for i, c := range []struct {
		verified bool
		needs    bool
		on       string // "-": no verified_on member at all
	}{
		{true, false, "-"}, {true, false, "-"},
		{false, true, "studio-imac"}, {false, true, "studio-imac"}, {false, true, "build-01"},
		{false, true, "-"}, {false, true, "laptop"}, {false, true, "-"}, {false, true, "-"},
	} {
		f := facts[i]
		v, _ := f.Get("verified").Bool()
		n, _ := f.Get("needs_reverify").Bool()
		on, has := f.Get("verified_on").Str()
		if !has {
			on = "-"
		}
		if v != c.verified || n != c.needs || on != c.on {
			t.Errorf("fact %d: %s", i, ojson.Compact(f))
		}
	}
	if keys := facts[4].Obj().Keys(); len(keys) != 5 || keys[0] != "claim" || keys[3] != "verified_on" || keys[4] != "needs_reverify" {
		t.Errorf("keys already present must keep their place, new ones go last: %v", keys)
	}
	once := ojson.Canonical(obj)
	if again := Seal(obj); len(again) != 0 || !bytes.Equal(once, ojson.Canonical(obj)) {
		t.Errorf("Seal is not idempotent: changed %v", again)
	}
}
