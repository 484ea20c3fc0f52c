package ojson

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Brief quotes a value in a message: compact, cut on a character boundary,
// absent said as such.
func TestBrief(t *testing.T) {
	long, _, err := Parse([]byte(`"` + strings.Repeat("é", 40) + `"`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    *Value
		max  int
		want string
	}{
		{nil, 60, "(absent)"},
		{NewString("handoff"), 60, `"handoff"`},
		{NewString("abcdef"), 5, `"abcd…`},
		{long, 6, `"éé…`}, // 1 + 2×2 bytes; the third é would be cut in two
	} {
		got := Brief(c.v, c.max)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Brief(%v, %d) = %q, want %q", c.v, c.max, got, c.want)
		}
	}
}
