package judge

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestAuditC0QuirksOfTheFlatForm: §6 C0 / D4 — judging never repairs. A flat
// file whose JSON repeats a key (a reader must pick one) or holds bytes that
// are not UTF-8 (a reader must replace them) needed a repair to be read, so
// it is not conformant as written; the strict reader refuses it too.
func TestAuditC0QuirksOfTheFlatForm(t *testing.T) {
	t.Parallel()
	good := packtest.RawFlat(t, packtest.RefObject(t))
	for _, tc := range []struct{ name, from, to string }{
		{"duplicate key", `"kind": "handoff"`, `"kind": "handoff", "kind": "handoff"`},
		{"invalid UTF-8", `"actor": "Maria"`, "\"actor\": \"Mar\xffia\""},
	} {
		if !bytes.Contains(good, []byte(tc.from)) {
			t.Fatalf("%s: fixture has no %s", tc.name, tc.from)
		}
		path := packtest.WriteTemp(t, "x.taskpack.json", bytes.Replace(good, []byte(tc.from), []byte(tc.to), 1))
		r, err := Conformance(path, pack.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c := checkOf(r, "C0"); c.Pass {
			t.Errorf("%s: C0 passed: %s", tc.name, c.Reason)
		}
		if _, err := pack.Open(path, pack.Options{Strict: true}); err == nil || !strings.Contains(err.Error(), pack.RuleRepair) {
			t.Errorf("%s: strict Open = %v, want a %s error", tc.name, err, pack.RuleRepair)
		}
		if _, err := pack.Open(path, pack.Options{}); err != nil {
			t.Errorf("%s: landing must stay lenient: %v", tc.name, err)
		}
	}
}
