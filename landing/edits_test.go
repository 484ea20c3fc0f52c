package landing

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
)

// withAsksAndChecks stores a passport with two asks and two landing checks.
func withAsksAndChecks(t *testing.T) (*store.Store, string) {
	t.Helper()
	st, id, _ := packFixture(t)
	_, err := st.Update(id, func(v *ojson.Value) error {
		asks, _, _ := ojson.Parse([]byte(`[{"id":"a1","what":"Send the close","accept":"a CSV","status":"open"},{"id":"a2","what":"Name it","accept":"a name","status":"open"}]`))
		checks, _, _ := ojson.Parse([]byte(`[{"id":"c1","check":"Builds","how":"make","required":true,"status":"pending"},{"id":"c2","check":"Opens","required":false,"status":"pending"}]`))
		v.Set("asks", asks)
		v.Set("landing_checks", checks)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st, id
}

var at = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func TestEditAsks(t *testing.T) {
	st, id := withAsksAndChecks(t)
	before, _ := st.Get(id)
	rep, err := EditAsks(context.Background(), st, AsksRequest{ID: id, By: "bob@laptop", Now: at,
		Edits: []AskEdit{{ID: "a1", Answer: "close.csv"}, {ID: "a2", Drop: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Version != before.Version+1 {
		t.Errorf("version %d, want %d", rep.Version, before.Version+1)
	}
	asks := store.Asks(rep.Passport)
	if store.AskStatus(asks[0]) != "answered" || asks[0].Answer() != "close.csv" || asks[0].AnsweredBy() != "bob@laptop" {
		t.Errorf("a1: %s", ojson.Compact(asks[0].V))
	}
	if store.AskStatus(asks[1]) != "dropped" {
		t.Errorf("a2: %s", ojson.Compact(asks[1].V))
	}

	// All or nothing: one bad edit saves none.
	_, err = EditAsks(context.Background(), st, AsksRequest{ID: id, By: "bob@laptop",
		Edits: []AskEdit{{ID: "a1", Answer: "again"}, {ID: "a9", Answer: "x"}}})
	if err == nil {
		t.Fatal("an edit of a missing ask was accepted")
	}
	if got, _ := st.Get(id); got.Version != rep.Version {
		t.Errorf("a failed edit saved: version %d", got.Version)
	}
	// The same ask twice in one save is refused.
	if _, err := EditAsks(context.Background(), st, AsksRequest{ID: id, Edits: []AskEdit{{ID: "a1", Answer: "x"}, {ID: "a1", Drop: true}}}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("twice: %v", err)
	}
	// No edits: a read, nothing saved.
	rd, err := EditAsks(context.Background(), st, AsksRequest{ID: id})
	if err != nil || rd.Version != rep.Version {
		t.Fatalf("read: %v version %d", err, rd.Version)
	}
}

func TestEditChecks(t *testing.T) {
	st, id := withAsksAndChecks(t)
	rep, err := EditChecks(context.Background(), st, ChecksRequest{ID: id, By: "bob@laptop", Now: at,
		Edits: []CheckEdit{{ID: "c2", Status: "skipped"}, {ID: "c1", Status: "passed", Ran: true, Command: "make test", Exit: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	checks := store.Checks(rep.Passport)
	if store.CheckStatus(checks[0]) != "passed" || store.CheckStatus(checks[1]) != "skipped" {
		t.Fatalf("statuses: %s", ojson.Compact(rep.Passport.Get("landing_checks")))
	}
	run := checks[0].V.Get("run")
	if run.Get("command").Text() != "make test" || run.Get("edited").IsNull() {
		t.Fatalf("run record: %s", ojson.Compact(run))
	}
	if b, _ := run.Get("edited").Bool(); !b {
		t.Errorf("make test differs from the sender's how make, yet edited is false")
	}
	if _, err := EditChecks(context.Background(), st, ChecksRequest{ID: id, Edits: []CheckEdit{{ID: "c1", Status: "bogus"}}}); err == nil {
		t.Error("an unknown status was accepted")
	}
	if _, err := EditChecks(context.Background(), st, ChecksRequest{ID: id, Edits: []CheckEdit{{ID: "c1", Status: "passed"}, {ID: "c1", Status: "failed"}}}); err == nil {
		t.Error("the same check twice was accepted")
	}
}

// Issue 10: run.ran_at is when the check ran, not when it was saved.
func TestEditChecksRanAt(t *testing.T) {
	st, id := withAsksAndChecks(t)
	ran := at.Add(-time.Hour)
	rep, err := EditChecks(context.Background(), st, ChecksRequest{ID: id, By: "bob@laptop", Now: at,
		Edits: []CheckEdit{{ID: "c1", Status: "passed", Ran: true, Command: "make", Exit: 0, At: ran}}})
	if err != nil {
		t.Fatal(err)
	}
	run := store.Checks(rep.Passport)[0].V.Get("run")
	if got := run.Get("ran_at").Text(); got != ran.UTC().Format(time.RFC3339) {
		t.Fatalf("ran_at %q, want %s: %s", got, ran.UTC().Format(time.RFC3339), ojson.Compact(run))
	}
}
