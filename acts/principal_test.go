package acts

import (
	"errors"
	"strings"
	"testing"
)

var testSender = Sender{By: "ps:tp", Decider: "p:owner", Now: "2026-11-05T10:00:00Z", Nonce: func() string { return "n1" }}

func stateOf(t *testing.T, rs ...Record) *ActState {
	t.Helper()
	st, err := Lifecycle(rs)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// apply adds built records to the set and recomputes the state, checking
// every built record against its schema on the way.
func apply(t *testing.T, set []Record, built ...Record) ([]Record, *ActState) {
	t.Helper()
	for _, r := range built {
		if _, err := EncodeRecord(r); err != nil {
			t.Fatalf("built an invalid record: %v", err)
		}
	}
	set = append(set, built...)
	return set, stateOf(t, set...)
}

func TestPrincipalRoundTrip(t *testing.T) {
	t.Parallel()
	set := []Record{raised}
	st := stateOf(t, set...)
	rs, err := BuildSettle(st, testSender, "done", "", "paid online", 0)
	if err != nil || len(rs) != 1 {
		t.Fatal(rs, err)
	}
	if rs[0].Authority == nil || rs[0].Authority.Decider != "p:owner" || rs[0].TermsRev != 1 || rs[0].Note != "paid online" {
		t.Fatalf("%+v", rs[0])
	}
	set, st = apply(t, set, rs...)
	if st.Status != StatusSettled || st.Outcome != "done" {
		t.Fatalf("%+v", st)
	}
	if _, err := BuildSettle(st, testSender, "dropped", "", "", 0); err == nil {
		t.Fatal("settled twice")
	}
	o, err := BuildReopen(st, testSender)
	if err != nil || o.RestoreText != "Collect the shed key" || o.Supersedes[0] != rs[0].ID {
		t.Fatal(o, err)
	}
	set, st = apply(t, set, o)
	if st.Status != StatusOpen || st.Reopens != 1 {
		t.Fatalf("%+v", st)
	}
	if _, err := BuildReopen(st, testSender); err == nil {
		t.Fatal("reopened an open act")
	}
	// Settling after a reopen supersedes the reopened record, so it is not stale.
	s2 := testSender
	s2.Nonce = func() string { return "n2" }
	rs2, err := BuildSettle(st, s2, "already_done", "task-garden-0000000000", "", 0)
	if err != nil || len(rs2) != 2 || rs2[0].Supersedes[0] != o.ID || rs2[1].Relation != "same_as" || rs2[1].Target != "task-garden-0000000000" {
		t.Fatal(rs2, err)
	}
	_, st = apply(t, set, rs2...)
	if st.Status != StatusSettled || st.Outcome != "already_done" || len(st.Stale) != 0 || len(st.Relations) != 1 {
		t.Fatalf("%+v", st)
	}
}

func TestPrincipalRefusals(t *testing.T) {
	t.Parallel()
	st := stateOf(t, raised)
	for name, err := range map[string]error{
		"bad outcome":         errOf(BuildSettle(st, testSender, "finished", "", "", 0)),
		"same_as with done":   errOf(BuildSettle(st, testSender, "done", "task-x", "", 0)),
		"same_as not a key":   errOf(BuildSettle(st, testSender, "already_done", "not a key", "", 0)),
		"same_as itself":      errOf(BuildSettle(st, testSender, "already_done", lk, "", 0)),
		"settle unknown act":  errOf(BuildSettle(stateOf(t, claim), testSender, "done", "", "", 0)),
		"empty note":          errOf1(BuildNote(st, testSender, "  ")),
		"claim already_done":  errOf1(BuildClaim(st, testSender, "already_done", "x")),
		"claim without basis": errOf1(BuildClaim(st, testSender, "done", "")),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	w, err := BuildWithdraw(st, testSender)
	if err != nil || w.Supersedes[0] != raised.ID {
		t.Fatal(w, err)
	}
	st2 := stateOf(t, raised, w)
	if st2.Need != NeedWithdrawn || st2.Status != StatusOpen {
		t.Fatalf("%+v", st2)
	}
	if _, err := BuildWithdraw(st2, testSender); err == nil || !strings.Contains(err.Error(), "already withdrawn") {
		t.Fatal(err)
	}
}

func TestPrincipalNoteAndClaimChangeNothing(t *testing.T) {
	t.Parallel()
	st := stateOf(t, raised)
	n, err := BuildNote(st, testSender, "Called them")
	if err != nil {
		t.Fatal(err)
	}
	c, err := BuildClaim(st, Sender{By: "agent:maria", Now: testSender.Now}, "done", "the principal said so")
	if err != nil {
		t.Fatal(err)
	}
	_, st2 := apply(t, []Record{raised}, n, c)
	if st2.Status != st.Status || st2.Need != st.Need || len(st2.Notes) != 1 || len(st2.Claims) != 1 {
		t.Fatalf("%+v", st2)
	}
	if strings.HasPrefix(c.ID, "c:"+lk+":r") {
		t.Fatalf("an agent's claim id %q looks like the registrar's", c.ID)
	}
}

func errOf(_ []Record, err error) error { return err }
func errOf1(_ Record, err error) error  { return err }

// §8 and issue 4: every principal-side record tp writes (settled, reopened,
// the same_as relation, a note) carries authority with the principal as
// decider; agents' and requesters' records do not claim it.
func TestPrincipalSideRecordsCarryAuthority(t *testing.T) {
	t.Parallel()
	st := stateOf(t, raised)
	rs, err := BuildSettle(st, testSender, "already_done", "task-garden-0000000000", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	_, settledSt := apply(t, []Record{raised}, rs...)
	o, err := BuildReopen(settledSt, testSender)
	if err != nil {
		t.Fatal(err)
	}
	n, err := BuildNote(st, testSender, "Called them")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range append(rs, o, n) {
		if r.Origin != "principal" || r.Authority == nil || r.Authority.Kind != "principal" || r.Authority.Decider != testSender.Decider {
			t.Errorf("%s %s: origin %q authority %+v", r.Type, r.ID, r.Origin, r.Authority)
		}
	}
	c, err := BuildClaim(st, testSender, "done", "said so")
	if err != nil {
		t.Fatal(err)
	}
	w, err := BuildWithdraw(st, testSender)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Record{c, w} {
		if r.Authority != nil || r.Origin == "principal" {
			t.Errorf("%s: origin %q authority %+v", r.Type, r.Origin, r.Authority)
		}
	}
}

// D19-terms: BuildSettle, which every settlement goes through, settles an
// amended act only for the revision the principal read.
func TestBuildSettleTermsRead(t *testing.T) {
	t.Parallel()
	fresh := stateOf(t, raised)
	amended := stateOf(t, raised, amended2)
	var tre *TermsReadError
	for _, c := range []struct {
		name string
		st   *ActState
		read int
		ok   bool
	}{
		{"never amended, none named", fresh, 0, true},
		{"never amended, rev 1 named", fresh, 1, true},
		{"amended, none named", amended, 0, false},
		{"amended, the old rev named", amended, 1, false},
		{"amended, the current rev named", amended, 2, true},
		{"a rev not yet written", fresh, 2, false},
	} {
		rs, err := BuildSettle(c.st, testSender, "done", "", "", c.read)
		if c.ok && (err != nil || rs[0].TermsRev != c.st.TermsRev) {
			t.Errorf("%s: %v %+v", c.name, err, rs)
		}
		if !c.ok && !errors.As(err, &tre) {
			t.Errorf("%s: err = %v, want a TermsReadError", c.name, err)
		}
	}
	if _, err := BuildSettle(amended, testSender, "done", "", "", 0); err == nil || !strings.Contains(err.Error(), `"Collect both shed keys"`) {
		t.Errorf("the refusal does not show the terms as they read now: %v", err)
	}
}
