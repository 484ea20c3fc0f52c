package landing

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
)

// refFixture finds a reference-implementation fixture: the copy in
// testdata/ref, else $TP_SPEC_FIXTURES/fixtures/taskpack; the test is
// skipped when neither has it.
func refFixture(t *testing.T, name string) string {
	t.Helper()
	dirs := []string{refData}
	if d := os.Getenv("TP_SPEC_FIXTURES"); d != "" {
		dirs = append(dirs, filepath.Join(d, "fixtures", "taskpack"))
	}
	for _, dir := range dirs {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("fixture %s not found", name)
	return ""
}

// Packs written by task-passport 0.3.0 land: new id, lineage kept, facts as
// sealed, asks and checks stored, luggage in its shape — in both encodings.
func TestLandReferenceHandoff(t *testing.T) {
	for _, name := range []string{"handoff.taskpack", "handoff.taskpack.json"} {
		t.Run(name, func(t *testing.T) {
			path := refFixture(t, name)
			st := testStore(t)
			pl, ld := landIt(t, path, st, envOn("laptop", "bob"), Decisions{CheckStatus: map[string]string{"c2": "failed"}})
			if len(pl.Repairs) != 0 {
				t.Errorf("a conformant pack needed repairs: %+v", pl.Repairs)
			}
			if pl.Sender.By() != "Maria@studio-imac" || pl.Sender.PassportID != "TP-K7WF-3NQX" || pl.Sender.Version != 6 {
				t.Errorf("sender = %+v", pl.Sender)
			}
			v := get(t, st, ld.ID)
			if ld.ID == "TP-K7WF-3NQX" {
				t.Fatal("reused the sender's id")
			}
			if g := (model.Passport{V: v}).Goal(); g != "A 12-slide deck the CFO signs off by 2026-10-05" {
				t.Errorf("goal = %q", g)
			}
			lin := model.LineageOf(v.Get("lineage"))
			if lin.RootID != "TP-K7WF-3NQX" || lin.FromVersion != 6 || strings.Join(lin.Chain, ",") != "TP-K7WF-3NQX@6" {
				t.Errorf("lineage = %+v", lin)
			}
			var marks []string
			for _, f := range (model.Passport{V: v}).Facts() {
				m := "?"
				switch {
				case f.Verified():
					m = "✓"
				case f.Sealed():
					m = "sealed@" + f.VerifiedOn()
				}
				marks = append(marks, m)
			}
			if got := strings.Join(marks, " "); got != "✓ ✓ sealed@studio-imac sealed@studio-imac" {
				t.Errorf("facts = %s", got)
			}
			var asks []string
			for _, a := range store.Asks(v) {
				asks = append(asks, a.ID()+":"+a.Status())
			}
			if strings.Join(asks, " ") != "a1:open a2:open" {
				t.Errorf("asks = %v", asks)
			}
			var checks []string
			for _, c := range store.Checks(v) {
				checks = append(checks, c.ID()+":"+c.Status())
			}
			if strings.Join(checks, " ") != "c1:pending c2:failed" {
				t.Errorf("checks = %v", checks)
			}
			next := (model.Passport{V: v}).NextSteps()
			want := []string{"c1", "c2", "Re-verify", "Re-verify", "a1", "a2", "Draft slides 9-12", "Replace the placeholder revenue numbers after close"}
			if len(next) != len(want) {
				t.Fatalf("next steps = %q", next)
			}
			for i, w := range want {
				if !strings.Contains(next[i], w) {
					t.Errorf("next_steps[%d] = %q, want it to mention %q", i, next[i], w)
				}
			}
			// Luggage arrives in its shape with the bytes the pack vouched for.
			p := openPack(t, path)
			var names []string
			for _, l := range p.Luggage {
				names = append(names, l.Name)
				b, err := os.ReadFile(filepath.Join(ld.FilesDir, filepath.FromSlash(l.Name)))
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(b)
				if hex.EncodeToString(sum[:]) != l.SHA256 {
					t.Errorf("%s: digest differs", l.Name)
				}
			}
			if len(names) != 3 || len(ld.Files) != 3 {
				t.Errorf("luggage = %v, landed %v", names, ld.Files)
			}
			// The stored passport is D1 canonical bytes.
			b, _ := os.ReadFile(st.Path(ld.ID))
			if !strings.HasSuffix(string(b), "}\n") || string(ojson.Canonical(v)) != string(b) {
				t.Error("stored passport is not canonical")
			}
		})
	}
}

func TestLandReferenceBinary(t *testing.T) {
	for _, name := range []string{"binary-luggage.taskpack", "binary-luggage.taskpack.json"} {
		t.Run(name, func(t *testing.T) {
			path := refFixture(t, name)
			st := testStore(t)
			_, ld := landIt(t, path, st, envOn("laptop", "bob"), Decisions{})
			p := openPack(t, path)
			for _, l := range p.Luggage {
				b, err := os.ReadFile(filepath.Join(ld.FilesDir, filepath.FromSlash(l.Name)))
				if err != nil {
					t.Fatal(err)
				}
				if int64(len(b)) != l.Size {
					t.Errorf("%s: %d bytes, want %d", l.Name, len(b), l.Size)
				}
			}
			// Both encodings are the same pack: the second one is not "the
			// same file" (different digest), so it lands fresh.
			if len(ld.Files) != 2 {
				t.Errorf("files = %v", ld.Files)
			}
		})
	}
}
