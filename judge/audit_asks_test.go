package judge

import (
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestAuditBlankAcceptIsRefused: §4.3 "An ask without accept MUST be refused
// at pack time" — an accept of only whitespace says nothing about what would
// count as answered, so the writer refuses it and C5 fails it, in step.
func TestAuditBlankAcceptIsRefused(t *testing.T) {
	t.Parallel()
	for _, blank := range []string{"", "   ", "\t\n"} {
		obj := packtest.Mutate(t, func(o *ojson.Value) {
			a := ojson.NewObject()
			a.Set("id", ojson.NewString("a9"))
			a.Set("to", ojson.NewString("peer"))
			a.Set("what", ojson.NewString("Which region split do you want?"))
			a.Set("why", ojson.NewString("the board asked"))
			a.Set("accept", ojson.NewString(blank))
			a.Set("status", ojson.NewString("open"))
			a.Set("answer", ojson.NewNull())
			o.Set("asks", ojson.NewArray(a))
		})
		path := filepath.Join(t.TempDir(), "p.taskpack")
		err := pack.Write(path, srcOf(obj), pack.EncodingBag, pack.WriteOptions{})
		if err == nil {
			t.Errorf("accept %q: Write produced a pack", blank)
		} else {
			wantRule(t, err, pack.RuleAskAccept)
		}
		r, cerr := Conformance(packtest.WriteTemp(t, "x.taskpack.json", packtest.RawFlat(t, obj)), pack.Options{})
		if cerr != nil {
			t.Fatal(cerr)
		}
		if c := checkOf(r, "C5"); c.Pass {
			t.Errorf("accept %q: C5 passed: %s", blank, c.Reason)
		}
	}
}
