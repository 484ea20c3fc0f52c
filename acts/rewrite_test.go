package acts

import (
	"testing"
)

// Deleting one of two similar lines is a deletion, not a rewrite of the one
// that stays: the act whose line vanished gets its claim (Acts 0.3 §4 step
// 5, issue 11). A line that arrives new in its place is still a rewrite.
func TestDeletionBesideASimilarLineIsClaimed(t *testing.T) {
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
