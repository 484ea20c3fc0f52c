package pack

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// TestReferenceJudgesTpPacks is the interoperability promise of issue 2:
// the reference's conformance passes every check on tp's bags but C9 (it
// rebuilds bag-info.txt from its own template, so its C9 fails any other
// writer's bag), passes tp's flat files outright, and lands both.
func TestReferenceJudgesTpPacks(t *testing.T) {
	cli := packtest.ReferenceCLI(t)
	dir := t.TempDir()
	srcs := map[string]Source{
		"reference-object": srcOf(packtest.RefObject(t), packtest.MixedLuggage[:2]...),
		"sealed-by-tp": srcOf(packtest.Mutate(t, func(o *ojsonValue) {
			f := o.Get("passport").Get("facts").Items()[2]
			f.Set("verified", newBool(true))
		}), file{Name: "notes/a.txt", Data: []byte("hello\n")}),
	}
	for name, src := range srcs {
		bag := filepath.Join(dir, name+".taskpack")
		flat := filepath.Join(dir, name+".taskpack.json")
		if err := Write(bag, src, EncodingBag, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := Write(flat, src, EncodingFlat, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		r := packtest.RefConformance(t, cli, bag)
		for _, c := range r.Checks {
			if c.ID != "C9" && !c.OK {
				t.Errorf("%s: reference fails %s: %s", bag, c.ID, c.Detail)
			}
		}
		if r := packtest.RefConformance(t, cli, flat); !r.OK {
			t.Errorf("%s: reference says not conformant: %+v", flat, r)
		}
		for _, f := range []string{bag, flat} {
			cmd := exec.Command("node", cli, "land", f)
			cmd.Env = append(os.Environ(), "TASK_PASSPORT_STORE="+filepath.Join(dir, "store-"+filepath.Base(f)))
			out, err := cmd.CombinedOutput()
			var res struct {
				OK bool `json:"ok"`
			}
			if err != nil || json.Unmarshal(out, &res) != nil || !res.OK {
				t.Errorf("reference cannot land %s: %v %s", f, err, out)
			}
		}
	}
}

type ojsonValue = ojson.Value

func newBool(b bool) *ojson.Value { return ojson.NewBool(b) }
