package server

import (
	"regexp"
	"strings"
	"testing"
)

// safeKey is the regular expression it replaced, checked by hand so that
// start-up compiles nothing; the two agree on every edge of it.
func TestSafeKeyIsItsPattern(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~-]{0,100}$`)
	cases := []string{"", "a", "Z", "0", ".", "_", "-", "~", "a~b", "a.", "a_b-c.d", ".a", "~a", "a b", "a/b",
		"a\n", "\na", "é", "aé", "a\x00", strings.Repeat("a", 100), strings.Repeat("a", 101),
		strings.Repeat("a", 102), "a" + strings.Repeat("~", 100), "a" + strings.Repeat("~", 101), "..", "a..b"}
	for _, c := range cases {
		if got, want := safeKey(c), re.MatchString(c); got != want {
			t.Errorf("safeKey(%q) = %v, the pattern says %v", c, got, want)
		}
	}
}

func FuzzSafeKey(f *testing.F) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~-]{0,100}$`)
	for _, s := range []string{"a", "a~b", "", "~", strings.Repeat("x", 101)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := safeKey(s), re.MatchString(s); got != want {
			t.Fatalf("safeKey(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}
