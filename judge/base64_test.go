package judge

import (
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// C0 fails on base64 that is not canonical; landing reads it and records
// the repair.
func TestBase64NotCanonicalFailsC0(t *testing.T) {
	t.Parallel()
	for data, bytes := range map[string]string{"QUI": "AB", "QU JD": "ABC", "QUJD\n": "ABC", "QUJ=": "AB"} {
		a := packtest.Att("x.bin", []byte(bytes))
		a.Set("data", ojson.NewString(data))
		path := packtest.WriteTemp(t, "x.taskpack.json", packtest.RawFlat(t, packtest.RefObject(t), a))
		r, err := Conformance(path, pack.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c := checkOf(r, "C0"); c.Pass {
			t.Errorf("%q: C0 passes", data)
		}
		p, err := pack.Open(path, pack.Options{})
		if err != nil {
			t.Fatalf("%q: lenient read: %v", data, err)
		}
		found := false
		for _, rp := range p.Repairs {
			found = found || rp.Rule == pack.RepairBase64 && rp.Where == "x.bin"
		}
		if !found {
			t.Errorf("%q: no %s repair in %v", data, pack.RepairBase64, p.Repairs)
		}
	}
	// The canonical form passes C0.
	path := packtest.WriteTemp(t, "ok.taskpack.json", packtest.RawFlat(t, packtest.RefObject(t), packtest.Att("x.bin", []byte("AB"))))
	r, err := Conformance(path, pack.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := checkOf(r, "C0"); !c.Pass {
		t.Errorf("canonical base64: C0 fails: %s", c.Reason)
	}
}
