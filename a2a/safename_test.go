package a2a

import (
	"regexp"
	"strings"
	"testing"
)

// safeBase is the regular expression it replaced, checked by hand so that
// start-up compiles nothing; the two agree on every edge of it.
func TestSafeBaseIsItsPattern(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$`)
	cases := []string{"", "a", "Z", "0", ".", "_", "-", "a.", "a_b-c.d", ".a", "-a", "_a", "a b", "a/b", `a\b`,
		"a~", "a\n", "\na", "é", "aé", "a\x00", strings.Repeat("a", 100), strings.Repeat("a", 101),
		strings.Repeat("a", 102), "a" + strings.Repeat(".", 100), "a" + strings.Repeat(".", 101), "..", "a..b"}
	for _, c := range cases {
		if got, want := safeBase(c), re.MatchString(c); got != want {
			t.Errorf("safeBase(%q) = %v, the pattern says %v", c, got, want)
		}
	}
}

func FuzzSafeBase(f *testing.F) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$`)
	for _, s := range []string{"a", "a.b", "", "-", strings.Repeat("x", 101)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := safeBase(s), re.MatchString(s); got != want {
			t.Fatalf("safeBase(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}
