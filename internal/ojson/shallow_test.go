package ojson

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"unsafe"
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

// A NewArrayFunc array reads and writes as the array of what its function
// makes, at any depth; writing it keeps no element, and everything that
// reads or changes it sees the same elements.
func TestArrayFunc(t *testing.T) {
	t.Parallel()
	elem := func(i int) *Value {
		return NewObjectOf(Member{Key: "i", Value: NewInt(int64(i))}, Member{Key: "s", Value: NewString(strings.Repeat("é", i))},
			Member{Key: "l", Value: NewArray(NewBool(i%2 == 0))})
	}
	for _, n := range []int{0, 1, 3, 10} {
		made := 0
		lazy := NewArrayFunc(n, func(i int) *Value { made++; return elem(i) })
		items := make([]*Value, n)
		for i := range items {
			items[i] = elem(i)
		}
		want := NewObjectOf(Member{Key: "list", Value: NewArray(items...)})
		doc := NewObjectOf(Member{Key: "list", Value: lazy})
		if got := Canonical(doc); !bytes.Equal(got, Canonical(want)) {
			t.Errorf("%d: Canonical\n%s\nwant\n%s", n, got, Canonical(want))
		}
		if got, w := CanonicalSize(doc, 0), int64(len(Canonical(want))); got != w {
			t.Errorf("%d: CanonicalSize %d, want %d", n, got, w)
		}
		if !bytes.Equal(Compact(doc), Compact(want)) || !CanonicalEqual(doc, Canonical(want)) {
			t.Errorf("%d: Compact %s", n, Compact(doc))
		}
		var buf bytes.Buffer
		if err := WriteCanonical(&buf, doc); err != nil || !bytes.Equal(buf.Bytes(), Canonical(want)) {
			t.Errorf("%d: WriteCanonical %s, %v", n, buf.Bytes(), err)
		}
		if made == 0 && n > 0 {
			t.Errorf("%d: nothing made", n)
		}
		if lazy.Kind() != Array || len(lazy.Items()) != n || !bytes.Equal(Compact(NewArray(lazy.Items()...)), Compact(want.Get("list"))) {
			t.Errorf("%d: Items %s", n, Compact(NewArray(lazy.Items()...)))
		}
		c, sh := doc.Clone(), lazy.Shallow()
		if !bytes.Equal(Canonical(c), Canonical(want)) || !bytes.Equal(Compact(sh), Compact(want.Get("list"))) {
			t.Errorf("%d: Clone %s, Shallow %s", n, Compact(c), Compact(sh))
		}
		sh.Append(NewNull())
		if len(lazy.Items()) != n || len(sh.Items()) != n+1 {
			t.Errorf("%d: appending to a shallow copy changed the original", n)
		}
		lazy.Append(NewString("x"))
		if got := lazy.Items(); len(got) != n+1 || got[n].Text() != "x" || !bytes.Equal(Compact(NewArray(got[:n]...)), Compact(want.Get("list"))) {
			t.Errorf("%d: Append %s", n, Compact(lazy))
		}
	}
}

// Short strings a document repeats are read into one string each (keys and
// scopes repeat in every fact, issue 20), and no string read aliases the
// bytes it was read from: changing them after leaves every value as read.
func TestParseSharesRepeatedShortStrings(t *testing.T) {
	t.Parallel()
	data := []byte(`[{"scope":"org","claim":"a long claim that is not kept among the short ones"},{"scope":"org","claim":"a long claim that is not kept among the short ones"}]`)
	v, err := ParseStrict(data)
	if err != nil {
		t.Fatal(err)
	}
	before := string(Compact(v))
	a, b := v.Items()[0].Obj().Members(), v.Items()[1].Obj().Members()
	if unsafe.StringData(a[0].Key) != unsafe.StringData(b[0].Key) || unsafe.StringData(a[0].Value.Text()) != unsafe.StringData(b[0].Value.Text()) {
		t.Error("a repeated key or short value is read into a string of its own each time")
	}
	for i := range data {
		data[i] = 'x'
	}
	if got := string(Compact(v)); got != before {
		t.Errorf("values alias the bytes read: %s", got)
	}
}

// WriteCanonicalAt is the canonical form nested: every line after the first
// indented by two spaces a level, no final newline.
func TestWriteCanonicalAt(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{`null`, `"a\nb"`, `[]`, `{}`, `[1,[2,{"a":[]}]]`, `{"b":{"c":[true,"x\u2028"]},"1":2}`} {
		v, err := ParseStrict([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		canon := strings.TrimSuffix(string(Canonical(v)), "\n")
		for depth := 0; depth < 3; depth++ {
			want := strings.ReplaceAll(canon, "\n", "\n"+strings.Repeat("  ", depth))
			var b bytes.Buffer
			if err := WriteCanonicalAt(&b, v, depth); err != nil || b.String() != want {
				t.Errorf("%s at %d: %q, want %q (%v)", doc, depth, b.String(), want, err)
			}
		}
	}
}

// A Value is three words (issue 20: a passport of 110,000 facts is 440,000
// of them), and every kind keeps what it holds through the copies and
// changes that swap its contents: a tag shared by the scalars of a kind must
// never be reachable to change.
func TestValueIsThreeWords(t *testing.T) {
	t.Parallel()
	if got, want := unsafe.Sizeof(Value{}), 3*unsafe.Sizeof(uintptr(0)); got != want {
		t.Errorf("a Value is %d bytes, want %d", got, want)
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1.5, 1e21, 5e-324, math.MaxFloat64, math.Inf(1), math.NaN()} {
		got, ok := NewNumber(f).Number()
		if !ok || math.Float64bits(got) != math.Float64bits(f) {
			t.Errorf("NewNumber(%v) holds %v", f, got)
		}
	}
	for _, v := range []*Value{NewNull(), NewBool(true), NewBool(false), NewNumber(1.5), NewString("s")} {
		if v.Obj() != nil || v.Items() != nil {
			t.Errorf("%s: a scalar gives its tag away", Compact(v))
		}
		want := string(Compact(v))
		for name, c := range map[string]*Value{"clone": v.Clone(), "shallow": v.Shallow()} {
			if string(Compact(c)) != want || c.Kind() != v.Kind() {
				t.Errorf("%s: %s is %s", want, name, Compact(c))
			}
		}
	}
	var zero Value
	if zero.Kind() != Null || !zero.IsNull() {
		t.Error("the zero Value is not null")
	}
	s := NewString("was a string")
	s.Append(NewInt(1))
	if s.Kind() != Array || string(Compact(s)) != "[1]" || NewString("x").Text() != "x" {
		t.Errorf("appending to a string: %s", Compact(s))
	}
	e, err := ParseStrict([]byte(`{"a":[],"b":[1]}`))
	if err != nil {
		t.Fatal(err)
	}
	if e.Get("a").Items() == nil || e.Clone().Get("a").Items() == nil {
		t.Error("an empty array read is absent (nil items)")
	}
	c := e.Clone()
	c.Get("b").Append(NewInt(2))
	if string(Compact(e)) != `{"a":[],"b":[1]}` || string(Compact(c)) != `{"a":[],"b":[1,2]}` {
		t.Errorf("clone shares an array: %s, %s", Compact(e), Compact(c))
	}
}

// FuzzCanonicalAtTrip: the canonical form nested at any depth (a pack
// object in the flat form's "passport" member) reads back strictly as the
// value it was written from. C9 counts on it for every pack object instead
// of parsing each one again (D3, issue 20).
func FuzzCanonicalAtTrip(f *testing.F) {
	for _, s := range edgeInputs {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"passport":{"facts":[{"claim":"a\u2028b","verified":true,"n":1e21}]},"x":"\ud800"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, _, err := Parse(data)
		if err != nil {
			return
		}
		want := Canonical(v)
		for depth := 0; depth < 3; depth++ {
			var b bytes.Buffer
			if err := WriteCanonicalAt(&b, v, depth); err != nil {
				t.Fatal(err)
			}
			back, err := ParseStrict(b.Bytes())
			if err != nil {
				t.Fatalf("%q nested %d deep does not read back: %v", data, depth, err)
			}
			if got := Canonical(back); !bytes.Equal(got, want) {
				t.Fatalf("%q nested %d deep reads back as\n%q\nwant\n%q", data, depth, got, want)
			}
		}
	})
}
