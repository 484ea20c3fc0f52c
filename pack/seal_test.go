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

// Sealed is Seal on a copy, byte for byte, and the object it was given is
// as it was; facts sealing leaves alone are shared, not copied (issue 20),
// and a pack with nothing to seal shares its whole passport.
func TestSealedIsSealOnACopy(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"mixed": `{"origin": {"machine": "studio-imac"}, "passport": {"id": "TP-1", "facts": [
    {"claim": "u", "scope": "universal", "verified": true},
    {"claim": "m", "scope": "machine", "verified": true},
    {"claim": "none", "verified": true},
    {"claim": "sealed", "scope": "machine", "verified": false, "needs_reverify": true, "verified_on": "laptop"},
    "a string", 7]}, "asks": []}`,
		"nothing to seal": `{"passport": {"facts": [{"claim": "o", "scope": "org", "verified": true}]}}`,
		"no facts":        `{"passport": {"goal": "g"}}`,
		"no passport":     `{"kind": "handoff"}`,
		"facts not list":  `{"passport": {"facts": {"claim": "x"}}}`,
	} {
		obj, err := ojson.ParseStrict([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		before := ojson.Canonical(obj)
		want := obj.Clone()
		Seal(want)
		got := Sealed(obj)
		if !bytes.Equal(ojson.Canonical(got), ojson.Canonical(want)) {
			t.Errorf("%s: Sealed\n%s\nSeal on a clone\n%s", name, ojson.Canonical(got), ojson.Canonical(want))
		}
		if !bytes.Equal(ojson.Canonical(obj), before) {
			t.Errorf("%s: Sealed changed its argument:\n%s", name, ojson.Canonical(obj))
		}
		orig, sealed := obj.Get("passport").Get("facts").Items(), got.Get("passport").Get("facts").Items()
		for i := range orig {
			if same := orig[i] == sealed[i]; same != !needsSeal(orig[i]) {
				t.Errorf("%s: fact %d shared %v, changed by sealing %v", name, i, same, needsSeal(orig[i]))
			}
		}
		if len(Seal(obj.Clone())) == 0 && got.Get("passport") != obj.Get("passport") {
			t.Errorf("%s: nothing to seal, and the passport was copied", name)
		}
	}
}

// repairsOf is repairObject on a copy: the same repairs, and the object it
// was given as it was (judging never repairs, D4; issue 20 took the deep
// copy away).
func TestRepairsOfLeavesTheObject(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"everything": `{"origin": {"machine": "m"}, "passport": {"facts": [{"claim": "m", "scope": "machine", "verified": true},
		  {"claim": "u", "scope": "universal", "verified": true}, 3]},
		  "asks": [{"what": "w"}, {"id": "", "status": ""}, "x", {"id": "a9", "status": "open"}],
		  "landing_checks": [{"check": "c"}, {"id": "c7", "required": false}, null]}`,
		"nothing to repair": `{"passport": {"facts": []}, "asks": [], "landing_checks": []}`,
		"no facts":          `{"passport": {"goal": "g"}, "asks": {"what": "not a list"}}`,
		"passport a string": `{"passport": "p", "landing_checks": [{}]}`,
		"empty":             `{}`,
	} {
		obj, err := ojson.ParseStrict([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		before := ojson.Canonical(obj)
		want := repairObject(obj.Clone())
		got := repairsOf(obj)
		if len(got) != len(want) {
			t.Fatalf("%s: %d repairs, want %d: %+v", name, len(got), len(want), got)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: repair %d is %+v, want %+v", name, i, got[i], want[i])
			}
		}
		if after := ojson.Canonical(obj); !bytes.Equal(after, before) {
			t.Errorf("%s: the object changed:\n%s", name, after)
		}
	}
}
