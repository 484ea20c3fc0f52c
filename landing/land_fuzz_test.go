package landing

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// FuzzLandObject lands arbitrary pack objects (any shape a hand-made pack
// may have): planning and landing never panic, a landed passport always
// has a new id, a version, and its lineage, and a receipt merged into its
// target never touches goal, current_state or next_steps.
func FuzzLandObject(f *testing.F) {
	f.Add(handObj)
	f.Add(strings.Replace(handObj, `"kind":"handoff"`, `"kind":"receipt"`, 1))
	f.Add(`{"spec":"task-passport-bag/0.1","kind":"handoff","passport":{"facts":[1,"x",null,{"claim":5}]},"asks":[7,{"id":3}],"landing_checks":"no","lineage":{"chain":[1,"@","a@b@3"]}}`)
	f.Add(`{"spec":"task-passport-bag/0.1","kind":"receipt","passport":[],"asks":[{"id":"a1","status":"answered","answer":{"x":1}}],"lineage":{"root_id":"TP-HOME-0001","chain":["TP-HOME-0001@1"]}}`)
	f.Add(`{"spec":"task-passport-bag/0.1","kind":"handoff","passport":{"id":"../../etc","version":-1,"next_steps":"x"}}`)
	f.Fuzz(func(t *testing.T, obj string) {
		v, _, err := ojson.Parse([]byte(obj))
		if err != nil || v.Kind() != ojson.Object {
			return
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "f.taskpack.json")
		doc := `{"taskpack":"0.1","encoding":"flat","note_to_reader":"","passport":` + string(ojson.Compact(v)) + `,"attachments":[]}`
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := pack.Open(path, pack.Options{})
		if err != nil {
			return
		}
		defer p.Close()
		st, err := store.Open(filepath.Join(dir, "store"))
		if err != nil {
			t.Fatal(err)
		}
		target := mustParseTB(t, `{"id":"TP-HOME-0001","goal":"G","current_state":"S","next_steps":["N"],"version":1,"asks":[{"id":"a1","what":"w","accept":"x","status":"open","answer":null}]}`)
		if _, err := st.Save(target, 0); err != nil {
			t.Fatal(err)
		}
		env := Env{Machine: "m", Actor: "a"}
		if (model.PackObject{V: p.Object}).Kind() == model.KindReceipt {
			pl, err := PlanMerge(context.Background(), p, st, "", env)
			if err != nil {
				return
			}
			if _, err := Merge(context.Background(), p, pl, st, Decisions{}); err != nil {
				return
			}
			got, err := st.Get(pl.Merge.Target)
			if err != nil {
				t.Fatal(err)
			}
			if pl.Merge.Target == "TP-HOME-0001" {
				for k, want := range map[string]string{"goal": `"G"`, "current_state": `"S"`, "next_steps": `["N"]`} {
					if string(ojson.Compact(got.V.Get(k))) != want {
						t.Errorf("merge rewrote %s: %s", k, ojson.Compact(got.V.Get(k)))
					}
				}
			}
			return
		}
		pl, err := PlanLanding(context.Background(), p, st, env)
		if err != nil {
			return
		}
		ld, err := Land(context.Background(), p, pl, st, Decisions{TrustOwnFacts: true})
		if err != nil {
			return
		}
		got, err := st.Get(ld.ID)
		if err != nil {
			t.Fatalf("landed %s but cannot read it: %v", ld.ID, err)
		}
		if got.Version != 1 || !got.V.Has("lineage") || got.V.Get("landed_from").Get("sha256").Text() != p.Digest {
			t.Errorf("landed passport: %s", ojson.Compact(got.V))
		}
		for _, f := range (model.Passport{V: got.V}).Facts() {
			if f.Verified() && !f.KeepsVerified() && f.VerifiedOn() != "m" {
				t.Errorf("a machine fact kept its ✓: %s", ojson.Compact(f.V))
			}
		}
	})
}
