package acts

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/tp-dev/tp/internal/cputest"
)

const lk = "task-garden-5a491eabbf"

func rec(id, typ, ts string, mod ...func(*Record)) Record {
	r := Record{PH: "0.3", Ext: "acts/0.3", ID: id, Type: typ, By: "t", Key: lk, Project: "garden", TS: ts}
	switch typ {
	case TypeRaised, TypeAmended, TypeWithdrawn:
		r.Origin = "requester"
	case TypeSettled, TypeReopened:
		r.Origin = "principal"
	case TypeClaimed:
		r.Origin = "agent"
	}
	for _, m := range mod {
		m(&r)
	}
	return r
}

func terms(text string, rev int) func(*Record) {
	return func(r *Record) { r.Terms = &Terms{Text: text}; r.TermsRev = rev }
}
func sup(ids ...string) func(*Record) { return func(r *Record) { r.Supersedes = ids } }
func outcome(o string) func(*Record) {
	return func(r *Record) { r.Outcome = o; r.Authority = &Authority{Kind: "principal", Decider: "p:owner"} }
}

var (
	raised   = rec("r:"+lk, TypeRaised, "2026-11-02T09:00:00Z", terms("Collect the shed key", 1))
	amended2 = rec("a:"+lk+":2", TypeAmended, "2026-11-02T10:00:00Z", terms("Collect both shed keys", 2), sup("r:"+lk))
	withdraw = rec("w-1", TypeWithdrawn, "2026-11-02T11:00:00Z", sup("a:"+lk+":2"), func(r *Record) { r.Reason = "not_needed" })
	settled  = rec("s-1", TypeSettled, "2026-11-03T09:00:00Z", outcome("done"), func(r *Record) { r.TermsRev = 1 })
	reopened = rec("o-1", TypeReopened, "2026-11-04T09:00:00Z", sup("s-1"), func(r *Record) { r.RestoreText = "Collect the shed key" })
	settled2 = rec("s-2", TypeSettled, "2026-11-05T09:00:00Z", outcome("dropped"), sup("o-1"), func(r *Record) { r.TermsRev = 2 })
	claim    = rec("c:"+lk+":r0", TypeClaimed, "2026-11-02T12:00:00Z", func(r *Record) { r.Outcome = "done"; r.Evidence = &Evidence{Basis: "line removed"} })
	note     = rec("n-1", TypeNote, "2026-11-02T12:00:00Z", func(r *Record) { r.Origin = "principal"; r.About = &About{Quote: "x"} })
	relation = rec("rel-1", TypeRelated, "2026-11-02T12:00:00Z", func(r *Record) { r.Origin = "principal"; r.Relation = "same_as"; r.Target = "task-garden-0000000000" })
)

type want struct {
	status, outcome, need string
	rev                   int
	text                  string
	needID, settleID      string
	reopens, stale        int
}

func check(t *testing.T, st *ActState, w want) {
	t.Helper()
	got := want{st.Status, st.Outcome, st.Need, st.TermsRev, st.Text, st.NeedID, st.SettlementID, st.Reopens, len(st.Stale)}
	if got != w {
		t.Errorf("state\n got %+v\nwant %+v", got, w)
	}
}

func TestLifecycle(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		rs   []Record
		w    want
	}{
		{"just raised", []Record{raised}, want{StatusOpen, "", NeedActive, 1, "Collect the shed key", raised.ID, "", 0, 0}},
		{"amended", []Record{raised, amended2}, want{StatusOpen, "", NeedActive, 2, "Collect both shed keys", amended2.ID, "", 0, 0}},
		{"withdrawn keeps the settlement open", []Record{raised, amended2, withdraw}, want{StatusOpen, "", NeedWithdrawn, 2, "Collect both shed keys", "w-1", "", 0, 0}},
		{"withdrawn then settled", []Record{raised, amended2, withdraw, settled}, want{StatusSettled, "done", NeedWithdrawn, 2, "Collect both shed keys", "w-1", "s-1", 0, 0}},
		{"need after withdrawn is active again", []Record{raised, amended2, withdraw,
			rec("a:"+lk+":3", TypeAmended, "2026-11-02T13:00:00Z", terms("Collect the keys after all", 3), sup("w-1"))},
			want{StatusOpen, "", NeedActive, 3, "Collect the keys after all", "a:" + lk + ":3", "", 0, 0}},
		{"settled", []Record{raised, settled}, want{StatusSettled, "done", NeedActive, 1, "Collect the shed key", raised.ID, "s-1", 0, 0}},
		{"reopened is open again", []Record{raised, settled, reopened}, want{StatusOpen, "", NeedActive, 1, "Collect the shed key", raised.ID, "o-1", 1, 0}},
		{"settled again after reopen", []Record{raised, settled, reopened, settled2}, want{StatusSettled, "dropped", NeedActive, 1, "Collect the shed key", raised.ID, "s-2", 1, 0}},
		{"settlement without any need record", []Record{settled}, want{StatusSettled, "done", NeedActive, 0, "", "", "s-1", 0, 0}},
		{"claims relations notes change nothing", []Record{raised, claim, note, relation}, want{StatusOpen, "", NeedActive, 1, "Collect the shed key", raised.ID, "", 0, 0}},
		{"claim does not settle even alone", []Record{claim}, want{StatusOpen, "", NeedActive, 0, "", "", "", 0, 0}},
		{"stale amend naming an old record", []Record{raised, amended2,
			rec("a-old", TypeAmended, "2026-11-02T14:00:00Z", terms("Something else", 2), sup("nope"))},
			want{StatusOpen, "", NeedActive, 2, "Collect both shed keys", amended2.ID, "", 0, 1}},
		{"stale reopen of an unknown settlement", []Record{raised, settled,
			rec("o-x", TypeReopened, "2026-11-06T09:00:00Z", sup("s-unknown"), func(r *Record) { r.RestoreText = "x" })},
			want{StatusSettled, "done", NeedActive, 1, "Collect the shed key", raised.ID, "s-1", 0, 1}},
		{"fork resolved by ts: later wins", []Record{raised, amended2,
			rec("a-fork", TypeAmended, "2026-11-02T09:30:00Z", terms("Earlier fork", 2), sup("r:"+lk))},
			want{StatusOpen, "", NeedActive, 2, "Collect both shed keys", amended2.ID, "", 0, 1}},
		{"fork with equal ts resolved by id", []Record{raised,
			rec("a-b", TypeAmended, "2026-11-02T10:00:00Z", terms("B", 2), sup("r:"+lk)),
			rec("a-a", TypeAmended, "2026-11-02T10:00:00Z", terms("A", 2), sup("r:"+lk))},
			want{StatusOpen, "", NeedActive, 2, "B", "a-b", "", 0, 1}},
		{"descendants of a stale fork are stale", []Record{raised, amended2,
			rec("a-fork", TypeAmended, "2026-11-02T09:30:00Z", terms("Earlier fork", 2), sup("r:"+lk)),
			rec("a-fork2", TypeAmended, "2026-11-02T15:00:00Z", terms("On the fork", 3), sup("a-fork"))},
			want{StatusOpen, "", NeedActive, 2, "Collect both shed keys", amended2.ID, "", 0, 2}},
		{"settlement fork: two settled", []Record{raised, settled,
			rec("s-0", TypeSettled, "2026-11-03T08:00:00Z", outcome("dropped"), func(r *Record) { r.TermsRev = 1 })},
			want{StatusSettled, "done", NeedActive, 1, "Collect the shed key", raised.ID, "s-1", 0, 1}},
		{"settled that ignores a reopen is a fork", []Record{raised, settled, reopened,
			rec("s-3", TypeSettled, "2026-11-03T10:00:00Z", outcome("dropped"), sup("s-1"), func(r *Record) { r.TermsRev = 1 })},
			want{StatusOpen, "", NeedActive, 1, "Collect the shed key", raised.ID, "o-1", 1, 1}},
		{"supersedes cycle does not loop", []Record{raised,
			rec("a-x", TypeAmended, "2026-11-02T10:00:00Z", terms("X", 2), sup("r:"+lk, "a-y")),
			rec("a-y", TypeAmended, "2026-11-02T11:00:00Z", terms("Y", 3), sup("a-x"))},
			want{StatusOpen, "", NeedActive, 3, "Y", "a-y", "", 0, 0}},
		{"a lone reopened whose settled never arrived is current", []Record{raised,
			rec("o-x", TypeReopened, "2026-11-06T09:00:00Z", sup("s-lost"), func(r *Record) { r.RestoreText = "x" })},
			want{StatusOpen, "", NeedActive, 1, "Collect the shed key", raised.ID, "o-x", 1, 0}},
		{"a chain after a lost start follows on from it", []Record{raised,
			rec("o-x", TypeReopened, "2026-11-06T09:00:00Z", sup("s-lost"), func(r *Record) { r.RestoreText = "x" }),
			rec("s-y", TypeSettled, "2026-11-07T09:00:00Z", outcome("dropped"), sup("o-x"), func(r *Record) { r.TermsRev = 1 })},
			want{StatusSettled, "dropped", NeedActive, 1, "Collect the shed key", raised.ID, "s-y", 1, 0}},
		{"two lone reopens: the later is current", []Record{raised,
			rec("o-x", TypeReopened, "2026-11-06T09:00:00Z", sup("s-lost"), func(r *Record) { r.RestoreText = "x" }),
			rec("o-w", TypeReopened, "2026-11-05T09:00:00Z", sup("s-lost2"), func(r *Record) { r.RestoreText = "x" })},
			want{StatusOpen, "", NeedActive, 1, "Collect the shed key", raised.ID, "o-x", 1, 1}},
		{"an amendment whose raised never arrived gives the terms", []Record{amended2},
			want{StatusOpen, "", NeedActive, 2, "Collect both shed keys", amended2.ID, "", 0, 0}},
		{"two reopens counted", []Record{raised, settled, reopened, settled2,
			rec("o-2", TypeReopened, "2026-11-06T09:00:00Z", sup("s-2"), func(r *Record) { r.RestoreText = "x" })},
			want{StatusOpen, "", NeedActive, 1, "Collect the shed key", raised.ID, "o-2", 2, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := Lifecycle(c.rs)
			if err != nil {
				t.Fatal(err)
			}
			check(t, st, c.w)
			// A function of the set: every order, and duplicates, give the same state.
			rng := rand.New(rand.NewSource(int64(len(c.name))))
			for i := 0; i < 200; i++ {
				perm := append([]Record(nil), c.rs...)
				if i%3 == 0 { // duplicates discarded
					perm = append(perm, perm[rng.Intn(len(perm))])
				}
				rng.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
				st2, err := Lifecycle(perm)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(st, st2) {
					t.Fatalf("order %d changed the state:\n%+v\n%+v", i, st, st2)
				}
			}
		})
	}
}

func TestLifecycleConflict(t *testing.T) {
	t.Parallel()
	other := settled
	other.Outcome = "dropped"
	_, err := Lifecycle([]Record{raised, settled, other})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.ID != "s-1" {
		t.Fatalf("got %v, want a conflict naming s-1", err)
	}
	// Supersedes spelled as nil or empty is the same content.
	a, b := raised, raised
	a.Supersedes, b.Supersedes = nil, []string{}
	if _, err := Lifecycle([]Record{a, b}); err != nil {
		t.Fatalf("nil vs empty supersedes: %v", err)
	}
}

func TestLifecycleRefusesMixedActs(t *testing.T) {
	t.Parallel()
	x := settled
	x.Key = "other"
	if _, err := Lifecycle([]Record{raised, x}); err == nil {
		t.Fatal("records of two keys accepted")
	}
	y := settled
	y.Project = "elsewhere"
	if _, err := Lifecycle([]Record{raised, y}); err == nil {
		t.Fatal("records of two projects accepted")
	}
	if _, err := Lifecycle(nil); err == nil {
		t.Fatal("empty set accepted")
	}
}

func TestStatesGroupsAndIsolatesConflicts(t *testing.T) {
	t.Parallel()
	other := raised
	other.Key, other.ID = "task-garden-1111111111", "r:task-garden-1111111111"
	bad := other
	bad.Terms = &Terms{Text: "different"}
	bad2 := bad
	bad2.Key, bad2.ID = "task-garden-2222222222", "r:task-garden-2222222222"
	bad3 := bad2
	bad3.Terms = &Terms{Text: "yet another"}
	states, errs := States([]Record{raised, settled, other, bad2, bad3})
	if len(states) != 2 || len(errs) != 1 {
		t.Fatalf("states %d errs %v", len(states), errs)
	}
	if st := states[ProjectKey{"garden", lk}]; st == nil || st.Status != StatusSettled {
		t.Fatalf("garden/%s: %+v", lk, st)
	}
}

func BenchmarkLifecycle50k(b *testing.B) {
	// 10,000 acts × 5 records: raised, amended, settled, reopened, note.
	var rs []Record
	for i := 0; i < 10000; i++ {
		k := fmt.Sprintf("task-bench-%010d", i)
		mk := func(r Record) Record { r.Key = k; return r }
		rs = append(rs,
			mk(rec("r:"+k, TypeRaised, "2026-11-02T09:00:00Z", terms("t", 1))),
			mk(rec("a:"+k+":2", TypeAmended, "2026-11-02T10:00:00Z", terms("t2", 2), sup("r:"+k))),
			mk(rec("s-"+k, TypeSettled, "2026-11-03T09:00:00Z", outcome("done"), func(r *Record) { r.TermsRev = 2 })),
			mk(rec("o-"+k, TypeReopened, "2026-11-04T09:00:00Z", sup("s-"+k), func(r *Record) { r.RestoreText = "t2" })),
			mk(rec("n-"+k, TypeNote, "2026-11-04T09:00:00Z", func(r *Record) { r.Origin = "principal"; r.About = &About{Quote: "q"} })),
		)
	}
	rand.New(rand.NewSource(1)).Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
	b.ResetTimer()
	cpu := cputest.Start()
	for i := 0; i < b.N; i++ {
		states, errs := States(rs)
		if len(states) != 10000 || errs != nil {
			b.Fatal(len(states), errs)
		}
	}
	cpu.Report(b)
}

// FuzzLifecycleOrder builds a record set from the fuzzer's bytes (types,
// supersedes links, timestamps and ids drawn from small sets so forks,
// stale records, cycles and duplicates are common) and checks that the state
// is a function of the set: reversing and rotating the input changes nothing.
func FuzzLifecycleOrder(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{3, 3, 3, 4, 4, 0, 0, 1, 9, 9, 2})
	f.Add([]byte("settled reopened withdrawn amended raised"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 64 {
			b = b[:64]
		}
		types := []string{TypeRaised, TypeAmended, TypeWithdrawn, TypeSettled, TypeReopened, TypeClaimed, TypeNote, TypeRelated}
		var rs []Record
		var ids []string
		for i := 0; i+1 < len(b); i += 2 {
			typ := types[int(b[i])%len(types)]
			id := fmt.Sprintf("x%d", int(b[i+1])%7)
			r := rec(id, typ, fmt.Sprintf("2026-11-0%dT09:00:00Z", 1+int(b[i])%3))
			if len(ids) > 0 && b[i+1]%3 != 0 {
				r.Supersedes = []string{ids[int(b[i+1])%len(ids)]}
			}
			if b[i+1]%11 == 5 { // a record whose predecessor never arrived
				r.Supersedes = []string{fmt.Sprintf("lost%d", b[i]%2)}
			}
			switch typ {
			case TypeRaised, TypeAmended:
				r.Terms, r.TermsRev = &Terms{Text: fmt.Sprint("t", b[i+1])}, 1+int(b[i+1])%3
			case TypeSettled:
				r.Outcome, r.TermsRev = "done", 1
			}
			rs = append(rs, r)
			ids = append(ids, id)
		}
		if len(rs) == 0 {
			return
		}
		st, err := Lifecycle(rs)
		rev := make([]Record, len(rs))
		for i := range rs {
			rev[len(rs)-1-i] = rs[i]
		}
		rot := append(append([]Record(nil), rs[1:]...), rs[0])
		for _, other := range [][]Record{rev, rot} {
			st2, err2 := Lifecycle(other)
			if (err == nil) != (err2 == nil) {
				t.Fatalf("error depends on order: %v vs %v", err, err2)
			}
			if err == nil && !reflect.DeepEqual(st, st2) {
				t.Fatalf("state depends on order:\n%+v\n%+v", st, st2)
			}
		}
		if err != nil {
			var ce *ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		// Every record is accounted for exactly once.
		n := len(st.History) + len(st.Claims) + len(st.Notes) + len(st.Relations) + len(st.Stale)
		settlePath := 0
		if st.SettlementID != "" {
			settlePath = 1 // at least the current one; the path itself is not exposed
		}
		distinct := map[string]bool{}
		for _, r := range rs {
			distinct[r.ID] = true
		}
		if n+settlePath > len(distinct) {
			t.Fatalf("%d records accounted, %d distinct", n+settlePath, len(distinct))
		}
	})
}

func TestLifecycleForkComparesInstants(t *testing.T) {
	t.Parallel()
	// 10:00+01:00 is 09:00Z: earlier than 09:30Z although it sorts later as text.
	a := rec("a-offset", TypeAmended, "2026-11-02T10:00:00+01:00", terms("Offset", 2), sup("r:"+lk))
	b := rec("a-utc", TypeAmended, "2026-11-02T09:30:00Z", terms("UTC", 2), sup("r:"+lk))
	st := stateOf(t, raised, a, b)
	if st.Text != "UTC" || len(st.Stale) != 1 || st.Stale[0].ID != "a-offset" {
		t.Fatalf("%+v", st)
	}
	// The same instant spelled two ways is a tie, broken by id.
	c := rec("a-z", TypeAmended, "2026-11-02T09:00:00+00:00", terms("Z", 2), sup("r:"+lk))
	d := rec("a-y", TypeAmended, "2026-11-02T09:00:00Z", terms("Y", 2), sup("r:"+lk))
	if st := stateOf(t, raised, c, d); st.Text != "Z" {
		t.Fatalf("%+v", st)
	}
}
