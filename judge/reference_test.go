package judge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestReferenceAgreesOnFixtures: where both judges look at the same thing,
// they agree: on the reference's own packs, and on red packs for checks the
// reference judges as the spec says (C3, C5, C10).
func TestReferenceAgreesOnFixtures(t *testing.T) {
	t.Parallel()
	cli := packtest.ReferenceCLI(t)
	files, _ := filepath.Glob("../pack/testdata/ref/*.taskpack*")
	for _, f := range files {
		if r := packtest.RefConformance(t, cli, f); !r.OK {
			t.Errorf("reference rejects its own fixture %s", f)
		}
	}
	dir := t.TempDir()
	for id, obj := range map[string]*ojson.Value{
		"C3":  packtest.Mutate(t, func(o *ojson.Value) { o.Set("kind", ojson.NewString("memo")) }),
		"C5":  packtest.Mutate(t, func(o *ojson.Value) { o.Get("asks").Items()[0].Obj().Delete("accept") }),
		"C10": packtest.Mutate(t, func(o *ojson.Value) { o.Obj().Delete("packed_at") }),
	} {
		path := filepath.Join(dir, id+".taskpack")
		os.WriteFile(path, packtest.BagOf(t, obj), 0o644)
		ours, err := Conformance(path, pack.Options{})
		if err != nil {
			t.Fatal(err)
		}
		theirs := packtest.RefConformance(t, cli, path)
		for _, c := range theirs.Checks {
			if c.ID == id && (c.OK || checkOf(ours, id).Pass) {
				t.Errorf("%s: judges disagree or pass a red pack: reference %v, tp %v", id, c.OK, checkOf(ours, id).Pass)
			}
		}
	}
}
