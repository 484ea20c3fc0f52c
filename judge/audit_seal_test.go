package judge

import (
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestAuditUnknownScopeIsSealed: §4.2 "if you cannot write down how someone
// else would verify it, it is machine" — a scope value the spec does not
// define (here "team") keeps no ✓ across the machine boundary, at pack time
// (Write) and in the judge (C6).
func TestAuditUnknownScopeIsSealed(t *testing.T) {
	t.Parallel()
	obj := packtest.Mutate(t, func(o *ojson.Value) {
		f := o.Get("passport").Get("facts").Items()[0]
		f.Set("scope", ojson.NewString("team"))
		f.Set("verified", ojson.NewBool(true))
		f.Obj().Delete("needs_reverify")
		f.Obj().Delete("verified_on")
	})
	path := filepath.Join(t.TempDir(), "p.taskpack")
	if err := pack.Write(path, srcOf(obj), pack.EncodingBag, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := pack.Open(path, pack.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f := p.Object.Get("passport").Get("facts").Items()[0]
	if v, _ := f.Get("verified").Bool(); v {
		t.Errorf("a fact with unknown scope %q crossed wearing a ✓: %s", "team", ojson.Compact(f))
	}
	if nr, _ := f.Get("needs_reverify").Bool(); !nr {
		t.Errorf("a fact with unknown scope was not marked needs_reverify: %s", ojson.Compact(f))
	}

	// The judge: the same fact, written unsealed by hand, fails C6.
	raw := packtest.RawFlat(t, obj)
	r, err := Conformance(packtest.WriteTemp(t, "x.taskpack.json", raw), pack.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := checkOf(r, "C6"); c.Pass {
		t.Errorf("C6 passed a verified fact with unknown scope: %s", c.Reason)
	}
}
