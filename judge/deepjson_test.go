package judge

import (
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// An unknown field of deep, wide arrays is a small document with a huge
// canonical form (D1 indents every element by its depth): the reader knows
// the canonical size before building it and refuses past the limit —
// landing and judging alike — and a raised limit lets it through (issue 11).
func TestDeepWideObjectRefusedByCanonicalSize(t *testing.T) {
	t.Parallel()
	obj := packtest.RefObject(t)
	deep, _, err := ojson.Parse([]byte(strings.Repeat("[", 200) + strings.TrimSuffix(strings.Repeat("0,", 20000), ",") + strings.Repeat("]", 200)))
	if err != nil {
		t.Fatal(err)
	}
	obj.Set("x_unknown", deep)
	size := ojson.CanonicalSize(obj, 0)
	small := pack.DefaultLimits()
	small.MaxCanonical = size - 1
	big := pack.DefaultLimits()
	big.MaxCanonical = size
	compact := append(ojson.Compact(obj), '\n') // what an attacker sends: small
	for _, path := range []string{
		packtest.WriteTemp(t, "deep.taskpack", packtest.RawBag(t, compact, nil, nil)),
		packtest.WriteTemp(t, "deep.taskpack.json", packtest.RawFlat(t, obj)),
	} {
		_, err := pack.Open(path, pack.Options{Limits: small})
		wantRule(t, err, pack.RuleLimitObject)
		r, err := Conformance(path, pack.Options{Limits: small})
		if err != nil {
			t.Fatal(err)
		}
		if c2 := r.Checks[2]; c2.Pass || !strings.Contains(c2.Reason, "canonical form (D1) would be more than") {
			t.Fatalf("%s: C2 %+v", path, c2)
		}
		p, err := pack.Open(path, pack.Options{Limits: big})
		if err != nil {
			t.Fatalf("%s at the limit: %v", path, err)
		}
		p.Close()
	}
	if pack.DefaultLimits().MaxCanonical != 64<<20 {
		t.Fatalf("the default canonical limit is %d, D10 says 64 MiB", pack.DefaultLimits().MaxCanonical)
	}
}
