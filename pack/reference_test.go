package pack

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

// referenceCLI finds the reference implementation (task-passport 0.3.0,
// JavaScript): $TP_REFERENCE_DIR names a checkout holding cli.js. It is
// never part of this repository. The test is skipped when node or the
// reference is missing.
func referenceCLI(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	d := os.Getenv("TP_REFERENCE_DIR")
	if d == "" {
		t.Skip("TP_REFERENCE_DIR is not set (a task-passport 0.3.0 checkout; see INTEROP.md)")
	}
	return filepath.Join(d, "cli.js")
}

type refReport struct {
	OK     bool `json:"ok"`
	Checks []struct {
		ID     string `json:"id"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	} `json:"checks"`
}

func refConformance(t *testing.T, cli, path string) refReport {
	t.Helper()
	out, _ := exec.Command("node", cli, "conformance", path).Output()
	var r refReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("reference conformance of %s: %v: %s", path, err, out)
	}
	return r
}

// TestReferenceJudgesTpPacks is the interoperability promise of issue 2:
// the reference's conformance passes every check on tp's bags but C9 (it
// rebuilds bag-info.txt from its own template, so its C9 fails any other
// writer's bag), passes tp's flat files outright, and lands both.
func TestReferenceJudgesTpPacks(t *testing.T) {
	cli := referenceCLI(t)
	dir := t.TempDir()
	srcs := map[string]Source{
		"reference-object": srcOf(refObject(t), mixedLuggage[:2]...),
		"sealed-by-tp": srcOf(mutate(t, func(o *ojsonValue) {
			f := o.Get("passport").Get("facts").Items()[2]
			f.Set("verified", newBool(true))
		}), file{"notes/a.txt", []byte("hello\n")}),
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
		r := refConformance(t, cli, bag)
		for _, c := range r.Checks {
			if c.ID != "C9" && !c.OK {
				t.Errorf("%s: reference fails %s: %s", bag, c.ID, c.Detail)
			}
		}
		if r := refConformance(t, cli, flat); !r.OK {
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
