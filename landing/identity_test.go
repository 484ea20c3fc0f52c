package landing

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

// Two receipts packed from the same sender version — same object, packed
// in the same second — with different luggage are two packs: the second is
// merged too and its luggage written, beside the first's (issue 11: it was
// "already here … nothing changed", and fix.csv was lost with exit 0).
func TestSecondReceiptSameVersionKeepsItsLuggage(t *testing.T) {
	st := testStore(t)
	a := newPassport(t, st, func(v *ojson.Value) {
		v.Set("asks", mustParse(t, `[{"id":"a1","to":"peer","what":"w","why":"","accept":"acc","status":"open","answer":null}]`))
	})
	obj := `{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-09-03T14:20:00Z",
	 "origin":{"actor":"bob","machine":"laptop","harness":"x"},
	 "lineage":{"root_id":"` + a + `","from_version":2,"chain":["` + a + `@2","TP-BBBB-BBBB@3"]},
	 "note":"","passport":{},
	 "asks":[{"id":"a1","to":"peer","what":"w","why":"","accept":"acc","status":"answered","answer":"see the csv"}],
	 "landing_checks":[]}`
	r1 := flatPack(t, obj, attachment("close.csv", "EMEA,1\n"))
	r2 := flatPack(t, obj, attachment("fix.csv", "EMEA,2\n"))
	_, m1 := mergeIt(t, r1, st, "", envOn("s", "m"))
	pl2, m2 := mergeIt(t, r2, st, "", envOn("s", "m"))
	if pl2.Merge.AlreadyMerged || len(m2.Files) != 1 {
		t.Fatalf("second receipt: already merged %v, files %v", pl2.Merge.AlreadyMerged, m2.Files)
	}
	var got []string
	filepath.WalkDir(st.FilesDir(a), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			got = append(got, filepath.Base(p)+"="+string(b))
		}
		return nil
	})
	if strings.Join(got, "|") != "close.csv=EMEA,1\n|fix.csv=EMEA,2\n" {
		t.Fatalf("files after both receipts: %q (first merge wrote %v)", got, m1.Files)
	}
	// Each, merged again, changes nothing.
	for _, r := range []string{r1, r2} {
		before := snapshot(t, st.Dir())
		pl, m := mergeIt(t, r, st, "", envOn("s", "m"))
		if !pl.Merge.AlreadyMerged || m.Changed {
			t.Fatalf("%s merged twice", r)
		}
		sameSnapshot(t, before, snapshot(t, st.Dir()))
	}
}

// A handoff re-sent with corrected luggage is a new pack: the plan says so
// and it lands, instead of "already landed".
func TestHandoffResentWithOtherLuggageIsNew(t *testing.T) {
	st := testStore(t)
	first := flatPack(t, handObj, attachment("a.txt", "wrong"))
	_, l1 := landIt(t, first, st, envOn("x", "y"), Decisions{})
	again := flatPack(t, handObj, attachment("a.txt", "right"))
	p := openPack(t, again)
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	if pl.AlreadyLandedAs != "" {
		t.Fatalf("re-sent handoff with other luggage read as already landed as %s", pl.AlreadyLandedAs)
	}
	if w := strings.Join(pl.Warnings, "\n"); !strings.Contains(w, "landed before as "+l1.ID+", with other luggage: this one is a new pack") {
		t.Fatalf("warnings: %s", w)
	}
	if _, err := Land(context.Background(), p, pl, st, Decisions{}); err != nil {
		t.Fatal(err)
	}
	// The same pack again is recognised.
	p2 := openPack(t, again)
	pl2, err := PlanLanding(context.Background(), p2, st, envOn("x", "y"))
	if err != nil || pl2.AlreadyLandedAs == "" {
		t.Fatalf("the same pack again: %v %q", err, pl2.AlreadyLandedAs)
	}
}
