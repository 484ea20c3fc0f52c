package landing

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// TestReceiptChainVersionNeverSent: a receipt whose chain names a version
// of the target the target has never been at (P@999 when P is at 8, or
// P@0) cannot answer a pack P sent; it is merged only with a warning in the
// plan (§4.4.1 names the target by id, so the merge stays allowed). A
// version P has been at gives no warning.
func TestReceiptChainVersionNeverSent(t *testing.T) {
	tests := []struct {
		name  string
		chain func(p string, at int64) string
		warn  string // "" for none
	}{
		{"current version", func(p string, at int64) string { return fmt.Sprintf(`["%s@%d","TP-CCCC-CCCC@1"]`, p, at) }, ""},
		{"an earlier version", func(p string, at int64) string { return fmt.Sprintf(`["%s@1","TP-CCCC-CCCC@1"]`, p) }, ""},
		{"a version never reached", func(p string, at int64) string { return fmt.Sprintf(`["%s@999","TP-CCCC-CCCC@1"]`, p) }, "@999, but"},
		{"version 0", func(p string, at int64) string { return fmt.Sprintf(`["%s@0","TP-CCCC-CCCC@1"]`, p) }, "@0, but"},
		{"no version", func(p string, at int64) string { return fmt.Sprintf(`["%s","TP-CCCC-CCCC@1"]`, p) }, "with no version"},
		{"a chain of one, never reached", func(p string, at int64) string { return fmt.Sprintf(`["%s@999"]`, p) }, "@999, but"},
		{"a chain of one, reached", func(p string, at int64) string { return fmt.Sprintf(`["%s@%d"]`, p, at) }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := testStore(t)
			p := newPassport(t, st, func(v *ojson.Value) {
				v.Set("asks", mustParse(t, `[{"id":"a1","to":"peer","what":"Send the close","why":"","accept":"a CSV","status":"open","answer":null}]`))
			})
			for i := 0; i < 7; i++ { // P is at version 8
				if _, err := st.Update(p, func(v *ojson.Value) error { return nil }); err != nil {
					t.Fatal(err)
				}
			}
			at, _ := get(t, st, p).Get("version").Int()
			sentFrom(t, st, p, 1)
			sentFrom(t, st, p, at)
			receipt := `{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-09-04T10:00:00Z",
			 "origin":{"actor":"carol","machine":"c-box","harness":"tp"},
			 "lineage":{"root_id":"` + p + `","from_version":1,"chain":` + tc.chain(p, at) + `},
			 "note":"","passport":{"id":"TP-CCCC-CCCC","goal":"g"},
			 "asks":[{"id":"a1","to":"peer","what":"Send the close","why":"","accept":"a CSV","status":"answered","answer":"close.csv"}],
			 "landing_checks":[]}`
			pk := openPack(t, flatPack(t, receipt))
			pl, err := PlanMerge(context.Background(), pk, st, "", envOn("studio", "maria"))
			if err != nil {
				t.Fatal(err)
			}
			var found []string
			for _, w := range pl.Warnings {
				if strings.Contains(w, "§4.4.1") && strings.Contains(w, p) {
					found = append(found, w)
				}
			}
			if tc.warn == "" && len(found) > 0 || tc.warn != "" && (len(found) != 1 || !strings.Contains(found[0], tc.warn)) {
				t.Fatalf("P at version %d, chain %s: warnings %q", at, tc.chain(p, at), pl.Warnings)
			}
			if tc.warn != "" && !strings.Contains(found[0], fmt.Sprintf("at version %d", at)) && !strings.Contains(found[0], "no version") {
				t.Errorf("the warning does not say where P is: %q", found[0])
			}
			// The merge goes ahead: the warning informs, it does not refuse.
			m, err := Merge(context.Background(), pk, pl, st, Decisions{})
			if err != nil || !m.Changed {
				t.Fatalf("merge: %+v %v", m, err)
			}
			if a := askByID(get(t, st, p), "a1"); a.Status() != model.AskAnswered {
				t.Errorf("a1 = %s", ojson.Compact(a.V))
			}
		})
	}
}
