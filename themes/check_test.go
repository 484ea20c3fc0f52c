package themes

import (
	"strings"
	"testing"
)

// TestCheckAgreesWithNew: every name New builds passes Check, and an
// unknown one fails both with one error naming every known theme.
func TestCheckAgreesWithNew(t *testing.T) {
	for _, n := range append(Names(), "", "NO-COLOR", " high-contrast ") {
		if err := Check(n); err != nil {
			t.Errorf("Check(%q) = %v", n, err)
		}
		if _, err := New(n, nil); err != nil {
			t.Errorf("New(%q) = %v", n, err)
		}
	}
	for _, n := range []string{"dark", "defualt", "no_color"} {
		err := Check(n)
		_, nerr := New(n, nil)
		if err == nil || nerr == nil || err.Error() != nerr.Error() {
			t.Fatalf("unknown %q: Check %v, New %v", n, err, nerr)
		}
		for _, k := range Names() {
			if !strings.Contains(err.Error(), k) {
				t.Errorf("%v does not name %s", err, k)
			}
		}
	}
}
