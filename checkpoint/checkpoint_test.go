package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
)

func newStore(t *testing.T) (*store.Store, string) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.Create("T", "G", store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st, v.Get("id").Text()
}

func str(s string) *string { return &s }

func facts(t *testing.T, st *store.Store, id string) []*ojson.Value {
	t.Helper()
	s, err := st.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return s.V.Get("facts").Items()
}

// TestVerifiedOn is D17: a verified fact is stamped with this machine; a
// fact never verified carries no verified_on, whatever the caller sent.
func TestVerifiedOn(t *testing.T) {
	ctx := context.Background()
	st, id := newStore(t)
	rep, err := Run(ctx, st, Request{ID: id, ExpectedVersion: 1, Machine: "box",
		Facts: []Fact{{Claim: "built", Scope: "machine", Verified: true}, {Claim: "wants PDF", Scope: "universal"}}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.StateVersion != 2 || rep.PreviousVersion != 1 {
		t.Fatalf("versions %d → %d", rep.PreviousVersion, rep.StateVersion)
	}
	fs := facts(t, st, id)
	if got := fs[0].Get("verified_on").Text(); got != "box" {
		t.Errorf("verified fact: verified_on %q, want box", got)
	}
	if fs[1].Has("verified_on") {
		t.Errorf("unverified fact carries verified_on %q", fs[1].Get("verified_on").Text())
	}

	// A whole state that forges verified_on on an unverified fact loses it;
	// a sealed fact kept from the stored state keeps its verified_on.
	sealed := ojson.NewObject()
	sealed.Set("claim", ojson.NewString("gpu works"))
	sealed.Set("scope", ojson.NewString("machine"))
	sealed.Set("verified", ojson.NewBool(false))
	sealed.Set("needs_reverify", ojson.NewBool(true))
	sealed.Set("verified_on", ojson.NewString("alice-mac"))
	s, _ := st.Get(id)
	withSealed := s.V.Clone()
	withSealed.Get("facts").Append(sealed)
	if _, err := st.Save(withSealed, 2); err != nil {
		t.Fatal(err)
	}
	whole := withSealed.Clone()
	forged := sealed.Clone()
	forged.Set("claim", ojson.NewString("new claim"))
	forged.Set("verified_on", ojson.NewString("box"))
	whole.Get("facts").Append(forged)
	rep, err = Run(ctx, st, Request{Whole: whole, ExpectedVersion: 3, Machine: "box"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "facts[3]: dropped verified_on") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	fs = facts(t, st, id)
	if got := fs[2].Get("verified_on").Text(); got != "alice-mac" {
		t.Errorf("sealed fact from the store: verified_on %q, want alice-mac kept", got)
	}
	if fs[3].Has("verified_on") {
		t.Error("a forged verified_on survived")
	}

	// Re-verifying the sealed fact here: same claim, verified → this machine, unsealed.
	_, err = Run(ctx, st, Request{ID: id, ExpectedVersion: 4, Machine: "box",
		Facts: []Fact{{Claim: "gpu works", Scope: "machine", Verified: true}}})
	if err != nil {
		t.Fatal(err)
	}
	fs = facts(t, st, id)
	if len(fs) != 4 {
		t.Fatalf("re-verifying added a fact: %d facts", len(fs))
	}
	if fs[2].Get("verified_on").Text() != "box" || fs[2].Has("needs_reverify") {
		t.Errorf("re-verified fact: %s", ojson.Compact(fs[2]))
	}
}

func TestConflictWritesNothing(t *testing.T) {
	st, id := newStore(t)
	before, _ := os.ReadFile(st.Path(id))
	_, err := Run(context.Background(), st, Request{ID: id, ExpectedVersion: 0, State: str("x")})
	var ce *store.ConflictError
	if !errors.As(err, &ce) || ce.Expected != 0 || ce.Found != 1 || !IsConflict(err) {
		t.Fatalf("err %v, want a conflict 0 vs 1", err)
	}
	if !strings.Contains(err.Error(), "conflict") || !strings.Contains(err.Error(), "expected version 0, found 1") {
		t.Errorf("message %q does not name both versions", err)
	}
	after, _ := os.ReadFile(st.Path(id))
	if string(before) != string(after) {
		t.Error("a stale checkpoint changed the file")
	}
}

func TestCredentialsRefused(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		req  Request
		bad  bool
	}{
		{"state", Request{State: str("token ghp_abcdefghijklmnopqrstuvwxyz0123456789")}, true},
		{"fact", Request{Facts: []Fact{{Claim: "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789", Scope: "org"}}}, true},
		{"decision why", Request{Decisions: []Decision{{What: "x", Why: "AKIAIOSFODNN7EXAMPLE"}}}, true},
		{"near miss", Request{State: str("ghp_ is GitHub's token prefix")}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, id := newStore(t)
			c.req.ID, c.req.ExpectedVersion = id, 1
			_, err := Run(ctx, st, c.req)
			var ce *Error
			if got := errors.As(err, &ce); got != c.bad {
				t.Fatalf("refused=%v (%v), want %v", got, err, c.bad)
			}
			if c.bad {
				if s, _ := st.Get(id); s.Version != 1 {
					t.Error("a refused checkpoint was saved")
				}
			}
		})
	}
}

func TestParseDocument(t *testing.T) {
	cases := []struct {
		name, doc string
		whole     bool
		err       string
		check     func(*Document) string
	}{
		{name: "fields", doc: `{"state":"s","facts":["a|org"],"verified":true,"decisions":["d|why"],"next":["1","2"],"artifacts":"x"}`,
			check: func(d *Document) string {
				if *d.State != "s" || !d.Facts[0].Verified || d.Facts[0].Scope != "org" || d.Decisions[0].Why != "why" ||
					len(d.NextSteps) != 2 || d.Artifacts[0] != "x" {
					return "fields not read"
				}
				return ""
			}},
		{name: "bom", doc: "\ufeff{\"current_state\":\"s\"}", check: func(d *Document) string {
			if d.State == nil || *d.State != "s" {
				return "BOM document not read"
			}
			return ""
		}},
		{name: "no scope is machine", doc: `{"facts":[{"claim":"c"}]}`, check: func(d *Document) string {
			if d.Facts[0].Scope != "machine" {
				return "scope " + d.Facts[0].Scope
			}
			return ""
		}},
		{name: "empty next clears", doc: `{"next_steps":[]}`, check: func(d *Document) string {
			if d.NextSteps == nil || len(d.NextSteps) != 0 {
				return "next_steps [] should replace with nothing"
			}
			return ""
		}},
		{name: "open wrapper", doc: `{"passport_id":"TP-A","state_version":3,"state":{"id":"TP-A"}}`, whole: true},
		{name: "state object", doc: `{"spec":"2origin/0.1","id":"TP-A"}`, whole: true},
		{name: "unknown member", doc: `{"stat":"typo"}`, err: "unknown member stat ("},
		{name: "unknown members", doc: `{"stat":"typo","nxt":"x"}`, err: "unknown members nxt, stat ("},
		{name: "not an object", doc: `[]`, err: "JSON object"},
		{name: "bad fact", doc: `{"facts":["c|planet"]}`, err: "scope must be"},
		{name: "bad version", doc: `{"expected_version":-1,"state":"x"}`, err: "non-negative"},
		{name: "bad json", doc: `{"state":`, err: "doc.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := ParseDocument([]byte(c.doc), "doc.json")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (d.Whole != nil) != c.whole {
				t.Fatalf("whole=%v, want %v", d.Whole != nil, c.whole)
			}
			if c.check != nil {
				if msg := c.check(d); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

func TestWholeStateKeepsBookkeeping(t *testing.T) {
	st, id := newStore(t)
	s, _ := st.Get(id)
	v := s.V.Clone()
	v.Set("asks", ojson.NewArray(ojson.NewString("kept")))
	if _, err := st.Save(v, 1); err != nil {
		t.Fatal(err)
	}
	whole := ojson.NewObject()
	whole.Set("id", ojson.NewString(id))
	whole.Set("current_state", ojson.NewString("new"))
	if _, err := Run(context.Background(), st, Request{Whole: whole, ExpectedVersion: 2}); err != nil {
		t.Fatal(err)
	}
	s, _ = st.Get(id)
	if len(s.V.Get("asks").Items()) != 1 || s.V.Get("current_state").Text() != "new" {
		t.Errorf("saved %s", ojson.Compact(s.V))
	}
	// the id must match when both are given
	_, err := Run(context.Background(), st, Request{ID: "TP-OTHER", Whole: whole, ExpectedVersion: 3})
	if err == nil || !strings.Contains(err.Error(), "not TP-OTHER") {
		t.Errorf("err %v", err)
	}
}

func FuzzParseDocument(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "cmd", "tp", "testdata", "checkpoint.txtar"))
	for _, s := range seeds {
		b, _ := os.ReadFile(s)
		f.Add(b)
	}
	f.Add([]byte(`{"state":"s","facts":["a|org|e",{"claim":"c","verified":true}],"decisions":[{"what":"w"}],"next":"n"}`))
	f.Add([]byte(`{"passport_id":"TP-A","state":{"id":"TP-A"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseDocument(data, "fuzz.json")
		if err != nil {
			return
		}
		// What the parser accepts, Run can rely on: a whole state is an
		// object, and every decision says what was decided.
		if d.Whole != nil && d.Whole.Kind() != ojson.Object {
			t.Fatalf("whole state is a %s", d.Whole.Kind())
		}
		for i, dec := range d.Decisions {
			if strings.TrimSpace(dec.What) == "" {
				t.Fatalf("decisions[%d] accepted with no what", i)
			}
		}
	})
}

// BenchmarkCheckpoint1000Facts is issue 12's target: a checkpoint of a
// 1,000-fact passport (figures in BENCHMARKS.md).
func BenchmarkCheckpoint1000Facts(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	v, err := st.Create("T", "G", store.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	id := v.Get("id").Text()
	var facts []Fact
	for i := 0; i < 1000; i++ {
		facts = append(facts, Fact{Claim: "fact number " + strings.Repeat("x", 40) + string(rune('a'+i%26)) + itoa(i), Scope: "machine", Verified: i%2 == 0})
	}
	if _, err := Run(context.Background(), st, Request{ID: id, ExpectedVersion: 1, Facts: facts, Machine: "m"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := "state " + itoa(i)
		if _, err := Run(context.Background(), st, Request{ID: id, ExpectedVersion: int64(i + 2), State: &s, Machine: "m"}); err != nil {
			b.Fatal(err)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestWholeStateScopeIsOneOfThree: a whole state object whose fact names a
// scope that is not universal, org or machine (TaskPack 0.1 §4.2) is
// refused, naming the fact and the scope, and nothing is written; a fact
// with no scope is kept (it counts as machine), and a scope the stored
// state already holds for that claim (a landed pack's) is not the caller's
// to answer for.
func TestWholeStateScopeIsOneOfThree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, id := newStore(t)
	whole := func(facts string) *ojson.Value {
		v, _, err := ojson.Parse([]byte(`{"id":"` + id + `","title":"T","goal":"G","facts":` + facts + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, bad := range []string{`"project"`, `"Machine"`, `""`, `1`, `null`} {
		_, err := Run(ctx, st, Request{Whole: whole(`[{"claim":"ok","scope":"org"},{"claim":"c","scope":` + bad + `}]`), ExpectedVersion: 1})
		var ce *Error
		if !errors.As(err, &ce) || ce.Field != "facts[1].scope" || !strings.Contains(err.Error(), strings.Trim(bad, `"`)) {
			t.Errorf("scope %s: %v, want a refusal naming facts[1].scope and the scope", bad, err)
		}
	}
	if s, _ := st.Get(id); s.Version != 1 {
		t.Fatalf("a refused checkpoint wrote version %d", s.Version)
	}
	rep, err := Run(ctx, st, Request{Whole: whole(`[{"claim":"no scope"},{"claim":"u","scope":"universal"}]`), ExpectedVersion: 1})
	if err != nil {
		t.Fatal(err)
	}
	// A scope already stored for the claim (as a landing keeps it) stays.
	stored := rep.State.Clone()
	stored.Get("facts").Items()[1].Set("scope", ojson.NewString("team"))
	saved, err := st.Save(stored, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, st, Request{Whole: saved, ExpectedVersion: 3}); err != nil {
		t.Errorf("a scope the stored state already holds was refused: %v", err)
	}
}

// TestWholeStateFactMembersAreKnown: a fact member a checkpoint brings
// that no fact of the stored state has, and that TaskPack 0.1 and tp do
// not define, is refused, named, with nothing written: "verfied": true
// kept silently would leave the writer believing a fact proven that every
// reader sees unproven. A member the stored facts already carry (a landed
// pack's extension) is the passport's own and stays.
func TestWholeStateFactMembersAreKnown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, id := newStore(t)
	whole := func(facts string) *ojson.Value {
		v, _, err := ojson.Parse([]byte(`{"id":"` + id + `","title":"T","goal":"G","facts":` + facts + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, bad := range []struct{ facts, member string }{
		{`[{"claim":"c","scope":"universal","verfied":true}]`, "verfied"},
		{`[{"claim":"ok","scope":"org"},{"claim":"c","scope":"universal","verified":true,"Scope":"machine"}]`, "Scope"},
		{`[{"claim":"c","needs_reverfy":false}]`, "needs_reverfy"},
	} {
		_, err := Run(ctx, st, Request{Whole: whole(bad.facts), ExpectedVersion: 1})
		var ce *Error
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.Field, "facts[") || !strings.Contains(err.Error(), bad.member) || !strings.Contains(err.Error(), "claim") {
			t.Errorf("%s: %v, want a refusal naming the fact, %q and the members there are", bad.facts, err, bad.member)
		}
	}
	if s, _ := st.Get(id); s.Version != 1 {
		t.Fatalf("a refused checkpoint wrote version %d", s.Version)
	}
	rep, err := Run(ctx, st, Request{Whole: whole(`[{"claim":"all known","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"m1","source":"s","evidence":"e","source_actor":"ana"}]`), ExpectedVersion: 1})
	if err != nil {
		t.Fatalf("a fact with every known member was refused: %v", err)
	}
	// An extension member a stored fact already has (as a landing keeps
	// it) is the passport's, and a checkpoint may carry it on any fact.
	stored := rep.State.Clone()
	stored.Get("facts").Items()[0].Set("confidence", ojson.NewString("high"))
	saved, err := st.Save(stored, 2)
	if err != nil {
		t.Fatal(err)
	}
	next := saved.Clone()
	f2, _, _ := ojson.Parse([]byte(`{"claim":"new","scope":"universal","confidence":"low"}`))
	next.Get("facts").Append(f2)
	if _, err := Run(ctx, st, Request{Whole: next, ExpectedVersion: 3}); err != nil {
		t.Errorf("a member the stored facts already carry was refused: %v", err)
	}
}
