package ojson

import (
	"strings"
	"testing"
)

func TestCanonicalSize(t *testing.T) {
	for _, doc := range []string{
		`null`, `true`, `false`, `0`, `-0`, `1e21`, `"a\u0001\"\\é\ud800"`, `[]`, `{}`,
		`[1,[2,[3,[]]],{"a":{}}]`, `"plain ascii ~\u007f"`, `{"key":"value","é":"\u00e9"}`,
		`{"b":1,"a":[true,false,null],"c":{"d":"\n\t"},"2":"x","1":[]}`,
		strings.Repeat("[", 50) + "1,2,3" + strings.Repeat("]", 50),
	} {
		v, _, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := CanonicalSize(v, 0), int64(len(Canonical(v))); got != want {
			t.Errorf("%s: CanonicalSize %d, len(Canonical) %d", doc, got, want)
		}
	}
}

// Deep and wide: 900 nested arrays around 150,000 elements is a 0.3 MB
// document whose canonical form is about 270 MB. The size is known without
// building it, and the count stops at the limit.
func TestCanonicalSizeOfDeepAndWide(t *testing.T) {
	doc := strings.Repeat("[", 900) + strings.TrimSuffix(strings.Repeat("0,", 150000), ",") + strings.Repeat("]", 900)
	v, _, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	n := CanonicalSize(v, 0)
	if n < 150000*1800 {
		t.Fatalf("CanonicalSize = %d, want at least %d", n, 150000*1800)
	}
	allocs := testing.AllocsPerRun(3, func() { CanonicalSize(v, 64<<20) })
	if allocs > 10 {
		t.Fatalf("CanonicalSize allocates %v times", allocs)
	}
	if got := CanonicalSize(v, 64<<20); got <= 64<<20 {
		t.Fatalf("limited size %d is not over the limit", got)
	}
}

func FuzzCanonicalSize(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c"}],"d":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, _, err := Parse(b)
		if err != nil {
			return
		}
		if got, want := CanonicalSize(v, 0), int64(len(Canonical(v))); got != want {
			t.Fatalf("%q: CanonicalSize %d, len(Canonical) %d", b, got, want)
		}
	})
}
