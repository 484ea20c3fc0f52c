package landing

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

var t0 = time.Date(2026, 9, 3, 14, 20, 0, 0, time.UTC)

func testStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	st.Now = func() time.Time { return t0 }
	return st
}

func envOn(machine, actor string) Env {
	return Env{Machine: machine, Actor: actor, Now: func() time.Time { return t0.Add(time.Hour) }}
}

// newPassport creates a passport and lets edit shape it (facts, artifacts...).
func newPassport(t *testing.T, st *store.Store, edit func(v *ojson.Value)) string {
	t.Helper()
	v, err := st.Create("Prepare the Q4 board deck", "A 12-slide deck the CFO signs off", store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := model.Passport{V: v}.ID()
	if edit != nil {
		if _, err := st.Update(id, func(v *ojson.Value) error { edit(v); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func mustParse(t *testing.T, s string) *ojson.Value {
	t.Helper()
	v, err := ojson.ParseStrict([]byte(s))
	if err != nil {
		t.Fatalf("%v in %s", err, s)
	}
	return v
}

// packIt packs passport id the way tp pack does: build, write, record the
// asks sent at home.
func packIt(t *testing.T, st *store.Store, id string, o BuildOptions, enc pack.Encoding) string {
	t.Helper()
	stored, err := st.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if o.Now.IsZero() {
		o.Now = t0
	}
	b, err := Build(context.Background(), stored.V, o)
	if err != nil {
		t.Fatal(err)
	}
	name := "p.taskpack"
	if enc == pack.EncodingFlat {
		name += ".json"
	}
	path := filepath.Join(t.TempDir(), name)
	if err := pack.Write(path, b.Source, enc, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if b.Home != nil {
		if _, err := st.Save(b.Home, stored.Version); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func openPack(t *testing.T, path string) *pack.Pack {
	t.Helper()
	p, err := pack.Open(path, pack.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func landIt(t *testing.T, path string, st *store.Store, env Env, d Decisions) (*Plan, *Landed) {
	t.Helper()
	p := openPack(t, path)
	pl, err := PlanLanding(context.Background(), p, st, env)
	if err != nil {
		t.Fatal(err)
	}
	ld, err := Land(context.Background(), p, pl, st, d)
	if err != nil {
		t.Fatal(err)
	}
	return pl, ld
}

func mergeIt(t *testing.T, path string, st *store.Store, into string, env Env) (*Plan, *Merged) {
	t.Helper()
	p := openPack(t, path)
	pl, err := PlanMerge(context.Background(), p, st, into, env)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Merge(context.Background(), p, pl, st, Decisions{})
	if err != nil {
		t.Fatal(err)
	}
	return pl, m
}

func get(t *testing.T, st *store.Store, id string) *ojson.Value {
	t.Helper()
	s, err := st.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return s.V
}

func askByID(v *ojson.Value, id string) model.Ask {
	for _, a := range v.Get("asks").Items() {
		if (model.Ask{V: a}).ID() == id {
			return model.Ask{V: a}
		}
	}
	return model.Ask{V: nil}
}

// snapshot is every file and folder under dir with its mode, size and digest,
// so a test can say "nothing changed".
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, _ := d.Info()
		s := info.Mode().String()
		if d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			sum := sha256.Sum256(b)
			s += " " + hex.EncodeToString(sum[:])
		}
		out[rel] = s
		return nil
	})
	return out
}

func sameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range after {
		if before[k] != v {
			t.Errorf("changed or new: %s (%s, was %q)", k, v, before[k])
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			t.Errorf("removed: %s", k)
		}
	}
}

// flatPack writes a hand-made flat pack (as a colleague's AI might) around
// a pack object.
func flatPack(t *testing.T, obj string, attachments ...string) string {
	t.Helper()
	doc := `{"taskpack":"0.1","encoding":"flat","note_to_reader":"data","passport":` + obj + `,"attachments":[` + strings.Join(attachments, ",") + `]}`
	path := filepath.Join(t.TempDir(), "hand.taskpack.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func attachment(name, data string) string {
	sum := sha256.Sum256([]byte(data))
	return fmt.Sprintf(`{"name":%q,"encoding":"utf8","sha256":%q,"bytes":%d,"data":%q}`, name, hex.EncodeToString(sum[:]), len(data), data)
}

const handObj = `{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-09-03T14:20:00Z",
 "origin":{"actor":"Maria","machine":"studio-imac","harness":"claude-code"},
 "lineage":{"root_id":"TP-AAAA-AAAA","from_version":4,"chain":["TP-AAAA-AAAA@4"]},
 "note":"n",
 "passport":{"spec":"2origin/0.1","kind":"task.origin","id":"TP-AAAA-AAAA","title":"T","goal":"G","version":4,
   "current_state":"S","facts":[
     {"claim":"board wants regions","scope":"universal","verified":true},
     {"claim":"Keynote 14.2 installed","scope":"machine","verified":true},
     {"claim":"share mounted at /Volumes/finance","verified":true},
     {"claim":"brand template","scope":"org","verified":true}],
   "next_steps":["Draft slides 9-12","Replace placeholders"]},
 "asks":[{"id":"a1","to":"peer","what":"Send the close","why":"w","accept":"A CSV by region signed off","status":"open","answer":null},
         {"id":"a2","to":"peer","what":"Done already","why":"","accept":"Yes or no","status":"answered","answer":"yes"}],
 "landing_checks":[{"id":"c1","check":"optional thing","how":"echo hi","required":false},
                   {"id":"c2","check":"share reachable","how":"rm -rf ~ # ls /Volumes/finance","required":true}]}`

func TestPlanOrdering(t *testing.T) {
	st := testStore(t)
	path := flatPack(t, handObj)
	p := openPack(t, path)
	pl, err := PlanLanding(context.Background(), p, st, envOn("laptop", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	// Required checks first in the plan's list (§4.4).
	if got := []string{pl.Checks[0].ID, pl.Checks[1].ID}; got[0] != "c2" || got[1] != "c1" {
		t.Errorf("checks order = %v, want required c2 first", got)
	}
	if pl.Checks[0].SuggestedBy != "suggested by Maria@studio-imac" {
		t.Errorf("how not attributed: %q", pl.Checks[0].SuggestedBy)
	}
	tests := []struct {
		name string
		d    Decisions
		want []string // kind:ref
	}{
		{"all pending", Decisions{}, []string{
			"landing-check:c2", "re-verify:1", "re-verify:2", "ask:a1", "sender:", "sender:"}},
		{"check attested passed leaves the list", Decisions{CheckStatus: map[string]string{"c2": "passed"}}, []string{
			"re-verify:1", "re-verify:2", "ask:a1", "sender:", "sender:"}},
		{"a failed check stays first", Decisions{CheckStatus: map[string]string{"c2": "failed"}}, []string{
			"landing-check:c2", "re-verify:1", "re-verify:2", "ask:a1", "sender:", "sender:"}},
		{"answered ask leaves the list", Decisions{Answers: map[string]string{"a1": "here"}}, []string{
			"landing-check:c2", "re-verify:1", "re-verify:2", "sender:", "sender:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, s := range pl.steps(tc.d) {
				got = append(got, s.Kind+":"+s.Ref)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("steps = %v\nwant    %v", got, tc.want)
			}
		})
	}
	// The sender's steps come last and verbatim.
	st2 := pl.steps(Decisions{})
	if st2[len(st2)-2].Text != "Draft slides 9-12" || st2[len(st2)-1].Text != "Replace placeholders" {
		t.Errorf("sender's steps not last: %+v", st2)
	}
	// The lenient read sealed two facts; the plan lists both repairs.
	seals := 0
	for _, r := range pl.Repairs {
		if r.Rule == pack.RepairSeal {
			seals++
		}
	}
	if seals != 2 {
		t.Errorf("repairs = %+v, want 2 seals", pl.Repairs)
	}
}

func TestLandSealsAndStores(t *testing.T) {
	st := testStore(t)
	path := flatPack(t, handObj, attachment("notes/brief.md", "hello\n"))
	pl, ld := landIt(t, path, st, envOn("laptop", "bob"), Decisions{CheckStatus: map[string]string{"c1": "skipped"}})
	if ld.ID == "TP-AAAA-AAAA" || ld.ID != pl.ID {
		t.Fatalf("landed as %s: the receiver must mint a new id (§3.1)", ld.ID)
	}
	v := get(t, st, ld.ID)
	if ver, _ := v.Get("version").Int(); ver != 1 || ld.Version != 1 {
		t.Errorf("version = %d", ver)
	}
	facts := model.Passport{V: v}.Facts()
	want := []struct {
		verified, sealed bool
		on               string
	}{{true, false, ""}, {false, true, "studio-imac"}, {false, true, "studio-imac"}, {true, false, ""}}
	for i, w := range want {
		f := facts[i]
		if f.Verified() != w.verified || f.Sealed() != w.sealed || f.VerifiedOn() != w.on {
			t.Errorf("fact %d %q: verified=%v sealed=%v on=%q", i, f.Claim(), f.Verified(), f.Sealed(), f.VerifiedOn())
		}
	}
	lin := model.LineageOf(v.Get("lineage"))
	if lin.RootID != "TP-AAAA-AAAA" || len(lin.Chain) != 1 || lin.Chain[0] != "TP-AAAA-AAAA@4" || lin.FromVersion != 4 {
		t.Errorf("lineage not kept: %+v", lin)
	}
	checks := store.Checks(v)
	status := map[string]string{}
	for _, c := range checks {
		status[c.ID()] = c.Status()
	}
	if status["c1"] != "skipped" || status["c2"] != "pending" {
		t.Errorf("check statuses = %v", status)
	}
	if c := checks[0]; c.ID() == "c1" && c.V.Get("checked_by").Text() != "bob@laptop" {
		t.Errorf("checked_by = %q", c.V.Get("checked_by").Text())
	}
	if a := askByID(v, "a1"); a.Status() != "open" || a.Accept() != "A CSV by region signed off" {
		t.Errorf("a1 = %s", ojson.Compact(a.V))
	}
	next := model.Passport{V: v}.NextSteps()
	if len(next) == 0 || !strings.Contains(next[0], "c2") || next[len(next)-1] != "Replace placeholders" {
		t.Errorf("next steps = %q", next)
	}
	for _, s := range next {
		if strings.Contains(s, "rm -rf") {
			t.Errorf("a sender's how leaked into next_steps: %q", s)
		}
	}
	lf := v.Get("landed_from")
	if lf.Get("sha256").Text() != pl.SHA256 || lf.Get("origin").Get("machine").Text() != "studio-imac" {
		t.Errorf("landed_from = %s", ojson.Compact(lf))
	}
	b, err := os.ReadFile(filepath.Join(st.FilesDir(ld.ID), "notes", "brief.md"))
	if err != nil || string(b) != "hello\n" {
		t.Errorf("luggage: %q %v", b, err)
	}
	info, _ := os.Stat(filepath.Join(st.FilesDir(ld.ID), "notes", "brief.md"))
	if info.Mode()&0o111 != 0 {
		t.Errorf("luggage has execute bits: %v", info.Mode())
	}
	// No temporary folder is left beside the store's passports.
	des, _ := os.ReadDir(st.Dir())
	for _, d := range des {
		if strings.HasPrefix(d.Name(), ".") {
			t.Errorf("left behind: %s", d.Name())
		}
	}
}

func TestTrustOwnFacts(t *testing.T) {
	tests := []struct {
		name     string
		machine  string
		trust    bool
		restored int
		foreign  bool // the store never sent a pack on this lineage (issue 18)
	}{
		{"same machine, chosen", "studio-imac", true, 2, false},
		{"same machine, not chosen", "studio-imac", false, 0, false},
		{"other machine, chosen", "laptop", true, 0, false},
		{"no machine name, chosen", "", true, 0, false},
		{"same machine, chosen, not our pack", "studio-imac", true, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := testStore(t)
			if !tc.foreign {
				sentFrom(t, st, "TP-AAAA-AAAA", 4)
			}
			path := flatPack(t, handObj)
			p := openPack(t, path)
			pl, err := PlanLanding(context.Background(), p, st, envOn(tc.machine, "maria"))
			if err != nil {
				t.Fatal(err)
			}
			this := 0
			for _, f := range pl.Facts {
				if f.ThisMachine {
					this++
				}
			}
			if tc.machine == "studio-imac" && this != 2 || tc.machine != "studio-imac" && this != 0 {
				t.Errorf("plan marks %d facts as this machine's", this)
			}
			for _, f := range pl.Facts {
				if f.ThisMachine && f.Restorable == tc.foreign || f.ThisMachine && tc.foreign && f.NotRestorable != NotOwnLineage {
					t.Errorf("fact %q: restorable %v, why %q (foreign lineage %v)", f.Claim, f.Restorable, f.NotRestorable, tc.foreign)
				}
			}
			ld, err := Land(context.Background(), p, pl, st, Decisions{TrustOwnFacts: tc.trust})
			if err != nil {
				t.Fatal(err)
			}
			if len(ld.Restored) != tc.restored {
				t.Errorf("restored %v, want %d", ld.Restored, tc.restored)
			}
			warned := false
			for _, w := range ld.Warnings {
				warned = warned || w == TrustWarning
			}
			if warned != (tc.restored > 0) {
				t.Errorf("§4.2 warning shown = %v with %d restored", warned, tc.restored)
			}
			if tc.foreign && !strings.Contains(strings.Join(ld.Warnings, "\n"), NotOwnLineage) {
				t.Errorf("nothing says why nothing was restored: %q", ld.Warnings)
			}
			verified := 0
			for _, f := range (model.Passport{V: get(t, st, ld.ID)}).Facts() {
				if f.Verified() {
					verified++
				}
			}
			if verified != 2+tc.restored {
				t.Errorf("%d facts verified, want %d", verified, 2+tc.restored)
			}
			reverify := 0
			for _, s := range ld.NextSteps {
				if s.Kind == StepReverify {
					reverify++
				}
			}
			if reverify != 2-tc.restored {
				t.Errorf("%d re-verify steps", reverify)
			}
		})
	}
}

func TestLandRefusalsWriteNothing(t *testing.T) {
	receiptObj := strings.Replace(handObj, `"kind":"handoff"`, `"kind":"receipt"`, 1)
	tests := []struct {
		name string
		obj  string
		do   func(t *testing.T, p *pack.Pack, st *store.Store) error
		rule string
	}{
		{"unknown check in a decision", handObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
			if err != nil {
				return err
			}
			_, err = Land(context.Background(), p, pl, st, Decisions{CheckStatus: map[string]string{"c9": "passed"}})
			return err
		}, RuleDecision},
		{"bad status", handObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			pl, _ := PlanLanding(context.Background(), p, st, envOn("x", "y"))
			_, err := Land(context.Background(), p, pl, st, Decisions{CheckStatus: map[string]string{"c1": "done"}})
			return err
		}, RuleDecision},
		{"answer to no ask", handObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			pl, _ := PlanLanding(context.Background(), p, st, envOn("x", "y"))
			_, err := Land(context.Background(), p, pl, st, Decisions{Answers: map[string]string{"a7": "x"}})
			return err
		}, RuleDecision},
		{"receipt landed as a new passport", receiptObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			_, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
			return err
		}, RuleReceiptNotLanded},
		{"handoff merged", handObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			_, err := PlanMerge(context.Background(), p, st, "", envOn("x", "y"))
			return err
		}, RuleHandoffMerge},
		{"handoff merged with --into", handObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			_, err := PlanMerge(context.Background(), p, st, "TP-AAAA-AAAA", envOn("x", "y"))
			return err
		}, RuleHandoffMerge},
		{"receipt target missing", receiptObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			_, err := PlanMerge(context.Background(), p, st, "", envOn("x", "y"))
			if err != nil && !strings.Contains(err.Error(), "TP-AAAA-AAAA") {
				t.Errorf("missing target not named: %v", err)
			}
			return err
		}, RuleTargetMissing},
		{"receipt into another passport", receiptObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			_, err := PlanMerge(context.Background(), p, st, "TP-BBBB-BBBB", envOn("x", "y"))
			if err != nil && !strings.Contains(err.Error(), "MAY be merged into that passport only") {
				t.Errorf("rule not quoted: %v", err)
			}
			return err
		}, RuleReceiptTarget},
		{"cancelled before it starts", handObj, func(t *testing.T, p *pack.Pack, st *store.Store) error {
			pl, _ := PlanLanding(context.Background(), p, st, envOn("x", "y"))
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := Land(ctx, p, pl, st, Decisions{})
			return err
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := testStore(t)
			newPassport(t, st, nil) // a store with something in it
			path := flatPack(t, tc.obj, attachment("a.txt", "A"))
			p := openPack(t, path)
			before := snapshot(t, st.Dir())
			err := tc.do(t, p, st)
			if err == nil {
				t.Fatal("no error")
			}
			var pe *pack.Error
			if tc.rule != "" && (!errors.As(err, &pe) || pe.Rule != tc.rule) {
				t.Errorf("err = %v, want rule %s", err, tc.rule)
			}
			sameSnapshot(t, before, snapshot(t, st.Dir()))
		})
	}
}

// failingReader gives some bytes, then fails: a disk error or a pack cut
// off half-way through a luggage file.
type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("simulated read failure")
	}
	k := min(len(p), f.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	f.n -= k
	return k, nil
}
func (f *failingReader) Close() error { return nil }

func TestLandCrashHalfWay(t *testing.T) {
	st := testStore(t)
	newPassport(t, st, nil)
	path := flatPack(t, handObj, attachment("a.txt", "first file"), attachment("dir/b.txt", "second file"))
	p := openPack(t, path)
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st.Dir())
	pl.open = func(name string) (io.ReadCloser, error) {
		if name == "a.txt" {
			return p.OpenLuggage(name)
		}
		return &failingReader{n: 3}, nil
	}
	if _, err := Land(context.Background(), nil, pl, st, Decisions{}); err == nil || !strings.Contains(err.Error(), "simulated") {
		t.Fatalf("err = %v", err)
	}
	sameSnapshot(t, before, snapshot(t, st.Dir()))
	if _, err := os.Lstat(st.FilesDir(pl.ID)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("files folder exists after a failed landing: %v", err)
	}
	if _, err := st.Get(pl.ID); err == nil {
		t.Error("a passport was saved by a failed landing")
	}
}

func TestLandCancelMidway(t *testing.T) {
	st := testStore(t)
	big := strings.Repeat("0123456789abcdef", 3<<16) // 3 MiB: several chunks
	path := flatPackAllowLarge(t, big)
	p := openPack(t, path)
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st.Dir())
	ctx, cancel := context.WithCancel(context.Background())
	var seen int64
	_, err = Land(ctx, p, pl, st, Decisions{Progress: func(done, total int64) {
		seen = done
		if done > 0 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if seen == 0 || seen >= int64(len(big)) {
		t.Errorf("cancelled at %d of %d", seen, len(big))
	}
	sameSnapshot(t, before, snapshot(t, st.Dir()))
}

func flatPackAllowLarge(t *testing.T, data string) string {
	t.Helper()
	obj := mustParse(t, handObj)
	path := filepath.Join(t.TempDir(), "big.taskpack")
	src := pack.Source{Object: obj, Luggage: []pack.LuggageSource{{Name: "big.txt", Size: int64(len(data)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(data)), nil }}}}
	if err := pack.Write(path, src, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLandNeverFollowsAnExistingLink(t *testing.T) {
	st := testStore(t)
	newPassport(t, st, nil)
	path := flatPack(t, handObj, attachment("a.txt", "A"))
	p := openPack(t, path)
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, st.FilesDir(pl.ID)); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st.Dir())
	if _, err := Land(context.Background(), p, pl, st, Decisions{}); err == nil {
		t.Fatal("landed through a link")
	}
	sameSnapshot(t, before, snapshot(t, st.Dir()))
	if des, _ := os.ReadDir(elsewhere); len(des) != 0 {
		t.Errorf("wrote through the link: %v", des)
	}
}

func TestAlreadyLanded(t *testing.T) {
	st := testStore(t)
	path := flatPack(t, handObj)
	_, first := landIt(t, path, st, envOn("x", "y"), Decisions{})
	p := openPack(t, path)
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	if pl.AlreadyLandedAs != first.ID {
		t.Fatalf("AlreadyLandedAs = %q, want %s", pl.AlreadyLandedAs, first.ID)
	}
	before := snapshot(t, st.Dir())
	_, err = Land(context.Background(), p, pl, st, Decisions{})
	var pe *pack.Error
	if !errors.As(err, &pe) || pe.Rule != RuleAlreadyLanded || !strings.Contains(err.Error(), first.ID) {
		t.Fatalf("err = %v", err)
	}
	sameSnapshot(t, before, snapshot(t, st.Dir()))
	again, err := Land(context.Background(), p, pl, st, Decisions{Again: true})
	if err != nil || again.ID == first.ID {
		t.Fatalf("--again: %v %v", again, err)
	}
}

func TestFilesOut(t *testing.T) {
	st := testStore(t)
	path := flatPack(t, handObj, attachment("a.txt", "A"))
	out := filepath.Join(t.TempDir(), "lug")
	_, ld := landIt(t, path, st, envOn("x", "y"), Decisions{FilesOut: out})
	if b, err := os.ReadFile(filepath.Join(out, "a.txt")); err != nil || string(b) != "A" {
		t.Errorf("%q %v", b, err)
	}
	if _, err := os.Stat(st.FilesDir(ld.ID)); err == nil {
		t.Error("luggage also went to the store")
	}
	// An existing folder is never written into.
	path2 := flatPack(t, strings.Replace(handObj, `"note":"n"`, `"note":"m"`, 1), attachment("a.txt", "B"))
	p := openPack(t, path2)
	pl, _ := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if _, err := Land(context.Background(), p, pl, st, Decisions{FilesOut: out}); err == nil {
		t.Error("landed into an existing folder")
	}
}

// A sender's how is never executed by any headless path (§4.4, D12): the
// core that plans, lands and merges cannot even start a process.
func TestNoHeadlessPathRunsAHow(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{`"os/exec"`, `/howrun"`} {
			if strings.Contains(string(src), bad) {
				t.Errorf("%s imports %s", f, bad)
			}
		}
	}
}

func TestLandKeepsOrImpliesLineage(t *testing.T) {
	tests := []struct {
		name, lineage string
		want          string
	}{
		{"kept as written", `"lineage":{"root_id":"TP-R","from_version":4,"chain":["TP-R@9","TP-AAAA-AAAA@4"],"x":1},`, `{"root_id":"TP-R","from_version":4,"chain":["TP-R@9","TP-AAAA-AAAA@4"],"x":1}`},
		{"no lineage at all", ``, `{"root_id":"TP-AAAA-AAAA","from_version":4,"chain":["TP-AAAA-AAAA@4"]}`},
		{"root but no chain", `"lineage":{"root_id":"TP-R","from_version":4},`, `{"root_id":"TP-R","from_version":4,"chain":["TP-AAAA-AAAA@4"]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			obj := `{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-09-03T14:20:00Z",
			 "origin":{"actor":"a","machine":"m","harness":"h"},` + tc.lineage + `
			 "note":"","passport":{"id":"TP-AAAA-AAAA","version":4,"goal":"g"},"asks":[],"landing_checks":[]}`
			st := testStore(t)
			pl, ld := landIt(t, flatPack(t, obj), st, envOn("x", "y"), Decisions{})
			if got := string(ojson.Compact(get(t, st, ld.ID).Get("lineage"))); got != tc.want {
				t.Errorf("lineage = %s, want %s", got, tc.want)
			}
			if tc.lineage == "" && len(pl.Warnings) == 0 {
				t.Error("no warning about the missing lineage")
			}
		})
	}
}

// The same handoff converted to the other encoding is the same pack: it is
// recognised as already landed (by the canonical pack object's digest).
func TestAlreadyLandedOtherEncoding(t *testing.T) {
	st := testStore(t)
	obj := mustParse(t, handObj)
	dir := t.TempDir()
	bag, flat := filepath.Join(dir, "h.taskpack"), filepath.Join(dir, "h.taskpack.json")
	for path, enc := range map[string]pack.Encoding{bag: pack.EncodingBag, flat: pack.EncodingFlat} {
		if err := pack.Write(path, pack.Source{Object: obj.Clone()}, enc, pack.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	_, first := landIt(t, bag, st, envOn("x", "y"), Decisions{})
	p := openPack(t, flat)
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	if pl.AlreadyLandedAs != first.ID || pl.SHA256 == "" || pl.ObjectSHA256 == "" {
		t.Errorf("AlreadyLandedAs = %q, want %s", pl.AlreadyLandedAs, first.ID)
	}
}

// A pack of many small files lands whole (one flush for all of them), in
// folders and at the top of the luggage folder alike.
func TestLandManyFiles(t *testing.T) {
	n := durable.ManyFiles + 44
	name := func(i int) string {
		if i%8 == 0 {
			return fmt.Sprintf("f%03d.txt", i)
		}
		return fmt.Sprintf("d%d/f%03d.txt", i%7, i)
	}
	var lug []pack.LuggageSource
	for i := range n {
		data := fmt.Sprintf("file %d\n", i)
		lug = append(lug, pack.LuggageSource{Name: name(i), Size: int64(len(data)),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(data)), nil }})
	}
	path := filepath.Join(t.TempDir(), "many.taskpack")
	if err := pack.Write(path, pack.Source{Object: mustParse(t, handObj), Luggage: lug}, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	st := testStore(t)
	_, ld := landIt(t, path, st, envOn("x", "y"), Decisions{})
	if len(ld.Files) != n {
		t.Fatalf("%d files landed, want %d", len(ld.Files), n)
	}
	// Every file whole, none executable (on Linux they are made by
	// createIn, elsewhere through os.Root).
	for i := range n {
		p := filepath.Join(ld.FilesDir, filepath.FromSlash(name(i)))
		b, err := os.ReadFile(p)
		if err != nil || string(b) != fmt.Sprintf("file %d\n", i) {
			t.Fatalf("%s: %q %v", p, b, err)
		}
		if st, err := os.Stat(p); err != nil || st.Mode().Perm()&0o111 != 0 || st.Mode().Perm()&0o600 != 0o600 {
			t.Fatalf("%s: mode %v %v", p, st.Mode(), err)
		}
	}
}

// A landing killed half-way leaves a hidden temporary folder; a later
// landing removes it once it is a day old, and never touches a fresh one.
func TestSweepStaleLandings(t *testing.T) {
	st := testStore(t)
	if err := os.MkdirAll(st.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(st.Dir(), ".TP-OLD0-OLD0.files.landing-aaaa")
	fresh := filepath.Join(st.Dir(), ".TP-NEW0-NEW0.files.landing-bbbb")
	for _, d := range []string{old, fresh} {
		if err := os.MkdirAll(filepath.Join(d, "x"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-48 * time.Hour)
	os.Chtimes(old, past, past)
	landIt(t, flatPack(t, handObj, attachment("a.txt", "A")), st, envOn("x", "y"), Decisions{})
	if _, err := os.Stat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Error("stale landing folder kept")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a fresh landing folder (maybe another landing in progress) was removed")
	}
}

// The passport is saved last: when that save fails, the luggage already
// renamed into place is removed again.
func TestLandSaveFailsLeavesNoFiles(t *testing.T) {
	st := testStore(t)
	newPassport(t, st, nil)
	p := openPack(t, flatPack(t, handObj, attachment("a.txt", "A")))
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	// Another landing took the id meanwhile.
	if _, err := st.Save(mustParse(t, `{"id":"`+pl.ID+`","title":"someone else's"}`), 0); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st.Dir())
	var ce *store.ConflictError
	if _, err := Land(context.Background(), p, pl, st, Decisions{}); !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a conflict", err)
	}
	sameSnapshot(t, before, snapshot(t, st.Dir()))
}

// Land writes the next steps of the decisions it is given, whatever the
// plan was last decided with: the steps Decide made are taken only when
// they were made for the same decisions (issue 20), and changing a
// decision's map after Decide is seen.
func TestLandStepsAreItsDecisions(t *testing.T) {
	ds := map[string]Decisions{
		"none":     {},
		"passed":   {CheckStatus: map[string]string{"c2": "passed"}},
		"answered": {Answers: map[string]string{"a1": "here"}},
		"both":     {CheckStatus: map[string]string{"c2": "skipped"}, Answers: map[string]string{"a1": "here"}},
	}
	for decided, dd := range ds {
		for landed, dl := range ds {
			t.Run(decided+" then "+landed, func(t *testing.T) {
				st := testStore(t)
				p := openPack(t, flatPack(t, handObj))
				pl, err := PlanLanding(context.Background(), p, st, envOn("laptop", "bob"))
				if err != nil {
					t.Fatal(err)
				}
				dd := Decisions{CheckStatus: maps.Clone(dd.CheckStatus), Answers: maps.Clone(dd.Answers)}
				pl.Decide(dd)
				if decided == "passed" && landed == "none" {
					delete(dd.CheckStatus, "c2") // changed after Decide, in place
					dl = dd
				}
				want := pl.steps(dl)
				ld, err := Land(context.Background(), p, pl, st, dl)
				if err != nil {
					t.Fatal(err)
				}
				var texts []string
				for _, s := range want {
					texts = append(texts, s.Text)
				}
				stored := get(t, st, ld.ID)
				var got []string
				for _, s := range stored.Get("next_steps").Items() {
					got = append(got, s.Text())
				}
				if !slices.Equal(ld.NextSteps, want) || !slices.Equal(got, texts) {
					t.Errorf("next steps %q (stored %q), want %q", ld.NextSteps, got, texts)
				}
				// The generated steps are the ones this landing made, the
				// sender's are the rest (written from the same list, issue 20).
				var gen, own []string
				for _, s := range want {
					if s.Kind == StepSender {
						own = append(own, s.Text)
					} else {
						gen = append(gen, s.Text)
					}
				}
				texts = func(v *ojson.Value) (out []string) {
					for _, s := range v.Items() {
						out = append(out, s.Text())
					}
					return out
				}(stored.Get("landed_from").Get(GeneratedSteps))
				if len(gen) == 0 || len(own) == 0 || !slices.Equal(texts, gen) {
					t.Errorf("generated steps %q, want %q", texts, gen)
				}
				if sender := stored.Get("landed_from").Get(SenderSteps); string(ojson.Compact(sender)) != string(ojson.Compact(ojson.NewStrings(own))) {
					t.Errorf("sender steps %s, want %q", ojson.Compact(sender), own)
				}
				var claims []string
				for _, f := range stored.Get("facts").Items() {
					if c := f.Get("claim").Text(); c != "" {
						claims = append(claims, c)
					}
				}
				var sf []string
				for _, c := range stored.Get("landed_from").Get(SenderFacts).Items() {
					sf = append(sf, c.Text())
				}
				if len(claims) == 0 || !slices.Equal(sf, claims) {
					t.Errorf("sender facts %q, want %q", sf, claims)
				}
			})
		}
	}
}
