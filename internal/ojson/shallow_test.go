package ojson

import (
	"bytes"
	"testing"
)

// A shallow copy's own members are its own: set, delete, append or replace
// them and the original is as it was; the members themselves are shared.
func TestShallowIsIndependentAtItsOwnLevel(t *testing.T) {
	t.Parallel()
	doc := `{"a":[1,{"b":"c"}],"d":{"e":1},"g":[4]}`
	orig, _, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := orig.Shallow()
	if got := string(Compact(c)); got != doc {
		t.Fatalf("shallow copy %s, want %s", got, doc)
	}
	c.Set("new", NewBool(false))
	c.Set("d", NewString("replaced"))
	c.Obj().Delete("g")
	arr := c.Get("a").Shallow()
	arr.Append(NewInt(2))
	arr.Items()[0] = NewInt(9)
	c.Set("a", arr)
	if got := string(Compact(orig)); got != doc {
		t.Errorf("original changed: %s", got)
	}
	if want := `{"a":[9,{"b":"c"},2],"d":"replaced","new":false}`; string(Compact(c)) != want {
		t.Errorf("copy %s, want %s", Compact(c), want)
	}
	if c.Get("a").Items()[1] != orig.Get("a").Items()[1] {
		t.Error("members are not shared")
	}
	// An object past the size where lookups use an index: the copy's
	// index is its own.
	big := NewObject()
	for _, k := range []string{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"} {
		big.Set(k, NewString(k))
	}
	_ = big.Get("k9") // builds the index
	bc := big.Shallow()
	bc.Obj().Delete("k0")
	bc.Set("k10", NewNull())
	if !big.Has("k0") || big.Has("k10") || bc.Has("k0") || !bc.Has("k10") || bc.Get("k9").Text() != "k9" {
		t.Errorf("index shared: original %s, copy %s", Compact(big), Compact(bc))
	}
	if (*Value)(nil).Shallow() != nil {
		t.Error("nil copies to non-nil")
	}
}

// CanonicalEqual is bytes.Equal(Canonical(v), b), for the same bytes, a
// byte changed anywhere, and bytes cut short or run long.
func TestCanonicalEqual(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{`null`, `"a\u0001\"é\ud800"`, `[]`, `{}`, `[1,[2,[3,[]]],{"a":{}}]`,
		`{"b":1,"a":[true,false,null],"c":{"d":"\n\t"},"2":"x","1":[]}`} {
		v, _, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		canon := Canonical(v)
		if !CanonicalEqual(v, canon) {
			t.Errorf("%s: its canonical form is not equal", doc)
		}
		for i := range canon {
			b := bytes.Clone(canon)
			b[i] ^= 0x20
			if CanonicalEqual(v, b) {
				t.Errorf("%s: equal with byte %d changed (%q)", doc, i, b)
			}
		}
		if CanonicalEqual(v, canon[:len(canon)-1]) || CanonicalEqual(v, append(bytes.Clone(canon), ' ')) || CanonicalEqual(v, nil) {
			t.Errorf("%s: equal to bytes cut short or run long", doc)
		}
	}
}

func FuzzCanonicalEqual(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c"}],"d":[]}`), []byte("{\n  \"a\": []\n}\n"))
	f.Fuzz(func(t *testing.T, doc, b []byte) {
		v, _, err := Parse(doc)
		if err != nil {
			return
		}
		if got, want := CanonicalEqual(v, b), bytes.Equal(Canonical(v), b); got != want {
			t.Fatalf("%q against %q: CanonicalEqual %v, bytes.Equal %v", doc, b, got, want)
		}
		if !CanonicalEqual(v, Canonical(v)) {
			t.Fatalf("%q: not equal to its canonical form", doc)
		}
	})
}
