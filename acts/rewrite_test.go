package acts

import (
	"strings"
	"testing"
)

// Deleting one of two similar lines is a deletion, not a rewrite of the one
// that stays: the act whose line vanished gets its claim (Acts 0.3 §4 step
// 5, issue 11). A line that arrives new in its place is still a rewrite.
func TestDeletionBesideASimilarLineIsClaimed(t *testing.T) {
	t.Parallel()
	march, april := "Pay the March invoice for the garden plot", "Pay the April invoice for the garden plot"
	km, ka := DeriveKey("demo", march), DeriveKey("demo", april)
	if !Similar(march, april) {
		t.Fatal("the texts must look alike for this test to mean anything")
	}
	for _, c := range []struct {
		name      string
		marchTS   string // when March's act was raised; April's is 2026-10-01
		doc       string
		wantClaim bool
	}{
		{"raised in the same run, April's line deleted", "2026-10-01T00:00:00Z",
			"## Tasks\n- [ ] [owner] " + march + " (waiting on owner: " + km + ")\n", true},
		{"March raised earlier, April's line deleted", "2026-09-01T00:00:00Z",
			"## Tasks\n- [ ] [owner] " + march + " (waiting on owner: " + km + ")\n", true},
		{"April's line rewritten into a new line", "2026-10-01T00:00:00Z",
			"## Tasks\n- [ ] [owner] " + march + " (waiting on owner: " + km + ")\n- [ ] [owner] Pay the April invoice for the garden plot today\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rm := raisedRecord(km, march)
			rm.TS = c.marchTS
			acts, _, err := statesOf([]Record{rm, raisedRecord(ka, april)})
			if err != nil {
				t.Fatal(err)
			}
			out, err := Run(RunInput{Document: []byte(c.doc), Profile: enProfile(t), Project: "demo", Acts: acts, Acked: map[string]bool{}, Now: "2026-10-27T00:00:00Z"})
			if err != nil {
				t.Fatal(err)
			}
			claimed, warned := false, false
			for _, r := range out.Send {
				if r.Type == TypeClaimed && r.Key == ka {
					claimed = true
				}
				if r.Type == TypeClaimed && r.Key == km {
					t.Fatalf("the act whose line stayed was claimed")
				}
			}
			for _, w := range out.Warnings {
				warned = warned || w.Kind == WarnRewrite && w.Key == ka
			}
			if claimed != c.wantClaim || warned == c.wantClaim {
				t.Fatalf("claimed %v, rewrite warning %v; want claim %v", claimed, warned, c.wantClaim)
			}
		})
	}
}

// The rewrite search is bounded (D16): once a run's comparison budget is
// spent, the vanished keys left are warned about, never claimed — the
// measure errs towards warning. With the default budget the same document
// gets its claims.
func TestRewriteSearchOverBudgetWarnsInsteadOfClaiming(t *testing.T) {
	t.Parallel()
	texts := []string{"Renew the domain for the shop", "Collect the shed key from Ann"}
	var recs []Record
	for _, tx := range texts {
		recs = append(recs, raisedRecord(DeriveKey("demo", tx), tx))
	}
	doc := "## Tasks\n- [ ] [owner] Water the plants on the balcony\n- [ ] [owner] Book flights to Lisbon\n"
	for _, c := range []struct {
		budget           int
		claims, notCompd int
	}{{0, 2, 0}, {1, 0, 2}} {
		acts, _, err := statesOf(recs)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Run(RunInput{Document: []byte(doc), Profile: enProfile(t), Project: "demo", Acts: acts, Acked: map[string]bool{}, Now: "2026-10-27T00:00:00Z", rewriteBudget: c.budget})
		if err != nil {
			t.Fatal(err)
		}
		claims, notCompared := 0, 0
		for _, r := range out.Send {
			if r.Type == TypeClaimed {
				claims++
			}
		}
		for _, w := range out.Warnings {
			if w.Kind == WarnRewrite && strings.Contains(w.Message, "not compared with every line") {
				notCompared++
			}
		}
		if claims != c.claims || notCompared != c.notCompd {
			t.Errorf("budget %d: %d claims, %d not-compared warnings; want %d and %d", c.budget, claims, notCompared, c.claims, c.notCompd)
		}
	}
}
