package landing

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

func TestBuildLineage(t *testing.T) {
	tests := []struct {
		name      string
		state     string
		wantRoot  string
		wantFrom  int64
		wantChain string
	}{
		{"made with tp new: its own root", `{"id":"TP-A","version":3}`, "TP-A", 3, "TP-A@3"},
		{"landed: kept chain plus own entry", `{"id":"TP-B","version":2,"lineage":{"root_id":"TP-A","from_version":3,"chain":["TP-A@3"]}}`, "TP-A", 2, "TP-A@3 TP-B@2"},
		{"two hops", `{"id":"TP-C","version":1,"lineage":{"root_id":"TP-A","from_version":2,"chain":["TP-A@3","TP-B@2"]}}`, "TP-A", 1, "TP-A@3 TP-B@2 TP-C@1"},
		{"kept chain without root_id: the chain's first", `{"id":"TP-C","version":1,"lineage":{"chain":["TP-A@3","TP-B@2"]}}`, "TP-A", 1, "TP-A@3 TP-B@2 TP-C@1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Build(context.Background(), mustParse(t, tc.state), BuildOptions{Now: t0})
			if err != nil {
				t.Fatal(err)
			}
			l := model.PackObject{V: b.Source.Object}.Lineage()
			if l.RootID != tc.wantRoot || l.FromVersion != tc.wantFrom || strings.Join(l.Chain, " ") != tc.wantChain {
				t.Errorf("lineage = %+v", l)
			}
		})
	}
}

func TestBuildObject(t *testing.T) {
	// Landed from TP-A's pack: a receipt from it goes home to TP-A (D6).
	state := mustParse(t, `{"id":"TP-B","version":4,"goal":"g","x-unknown":{"kept":true},
	  "lineage":{"root_id":"TP-A","from_version":3,"chain":["TP-A@3"]},
	  "asks":[{"id":"a1","to":"peer","what":"received","why":"","accept":"acc","status":"answered","answer":"yes","answered_by":"b@m","answered_at":"2026-09-03T14:20:00Z"},
	          {"id":"a2","to":"peer","what":"sent earlier","why":"","accept":"acc","status":"open","answer":null,"asked_at":"2026-09-01T00:00:00Z"}],
	  "landed_from":{"file":"x.taskpack","sha256":"ab"},
	  "receipts_merged":[{"sha256":"cd"}]}`)
	orig := string(ojson.Canonical(state))
	for _, kind := range []string{model.KindHandoff, model.KindReceipt} {
		t.Run(kind, func(t *testing.T) {
			b, err := Build(context.Background(), state, BuildOptions{Kind: kind, Actor: "bob", Machine: "laptop", Note: "hi", Now: t0,
				Asks:   []*ojson.Value{ParseAsk("new question|a precise accept rule|because")},
				Checks: []*ojson.Value{ParseCheck("font installed|fc-list"), mustParse(t, `{"check":"nice to have","required":false}`)}})
			if err != nil {
				t.Fatal(err)
			}
			if string(ojson.Canonical(state)) != orig {
				t.Fatal("Build changed the stored passport")
			}
			po := model.PackObject{V: b.Source.Object}
			keys := strings.Join(b.Source.Object.Obj().Keys(), ",")
			if keys != "spec,kind,packed_at,origin,lineage,note,passport,asks,landing_checks" {
				t.Errorf("keys = %s", keys)
			}
			if po.Kind() != kind || po.PackedAt() != "2026-09-03T14:20:00Z" || po.Note() != "hi" {
				t.Errorf("header: %s", ojson.Compact(b.Source.Object))
			}
			if o := po.Origin(); o.Actor != "bob" || o.Machine != "laptop" || o.Harness != "tp" {
				t.Errorf("origin = %+v", o)
			}
			pp := po.Passport().V
			if pp.Has("landed_from") || pp.Has("receipts_merged") || !pp.Has("x-unknown") {
				t.Errorf("passport keys = %v", pp.Obj().Keys())
			}
			if strings.Contains(string(ojson.Compact(b.Source.Object)), AskedAt) {
				t.Error("asked_at travelled in the pack")
			}
			var ids []string
			for _, a := range po.Asks() {
				ids = append(ids, a.ID()+":"+a.What())
			}
			want := "a3:new question"
			if kind == model.KindReceipt {
				// The received ask goes back with its answer; the one this
				// passport sent elsewhere does not.
				want = "a1:received a3:new question"
			}
			if strings.Join(ids, " ") != want {
				t.Errorf("asks = %v, want %s", ids, want)
			}
			cs := po.LandingChecks()
			if len(cs) != 2 || cs[0].ID() != "c1" || !cs[0].Required() || cs[0].How() != "fc-list" || cs[1].ID() != "c2" || cs[1].Required() {
				t.Errorf("checks = %s", ojson.Compact(b.Source.Object.Get("landing_checks")))
			}
			// The home copy records the ask sent, marked as sent.
			if b.Home == nil || len(b.Home.Get("asks").Items()) != 3 {
				t.Fatalf("home = %v", b.Home)
			}
			last := model.Ask{V: b.Home.Get("asks").Items()[2]}
			if last.ID() != "a3" || last.V.Get(AskedAt).Text() != "2026-09-03T14:20:00Z" || last.Status() != "open" {
				t.Errorf("recorded ask = %s", ojson.Compact(last.V))
			}
		})
	}
}

func TestBuildRefusesReusedAskID(t *testing.T) {
	state := mustParse(t, `{"id":"TP-B","version":1,"asks":[{"id":"a1","what":"x","accept":"y"}]}`)
	_, err := Build(context.Background(), state, BuildOptions{Asks: []*ojson.Value{mustParse(t, `{"id":"a1","what":"q","accept":"a rule"}`)}})
	if err == nil || !strings.Contains(err.Error(), "a1") {
		t.Fatalf("err = %v", err)
	}
	if b, err := Build(context.Background(), state, BuildOptions{}); err != nil || b.Home != nil {
		t.Errorf("no asks sent, yet home changes: %v %v", b, err)
	}
}

func TestBuildLuggageKeepsShape(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "figures", "q4"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "figures", "revenue.csv"), []byte("r"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "figures", "q4", "logo.svg"), []byte("<svg/>"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "outline.md"), []byte("o"), 0o644))
	must(os.Symlink("/etc/passwd", filepath.Join(dir, "figures", "link")))
	b, err := Build(context.Background(), mustParse(t, `{"id":"TP-A","version":1}`), BuildOptions{Files: []string{filepath.Join(dir, "figures") + "/", filepath.Join(dir, "outline.md")}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range b.Source.Luggage {
		names = append(names, l.Name)
	}
	if got := strings.Join(names, " "); got != "figures/q4/logo.svg figures/revenue.csv outline.md" {
		t.Errorf("luggage = %s", got)
	}
	// The same name twice is an error, not a silent overwrite.
	other := filepath.Join(t.TempDir(), "outline.md")
	must(os.WriteFile(other, nil, 0o644))
	if _, err := Build(context.Background(), mustParse(t, `{"id":"TP-A","version":1}`), BuildOptions{Files: []string{filepath.Join(dir, "outline.md"), other}}); err == nil {
		t.Error("two files named outline.md accepted")
	}
	// Packed and landed, the shape survives.
	path := filepath.Join(t.TempDir(), "x.taskpack")
	if err := pack.Write(path, b.Source, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	st := testStore(t)
	_, ld := landIt(t, path, st, envOn("m", "a"), Decisions{})
	got, err := os.ReadFile(filepath.Join(ld.FilesDir, "figures", "q4", "logo.svg"))
	if err != nil || string(got) != "<svg/>" {
		t.Errorf("%q %v", got, err)
	}
	info, _ := os.Stat(filepath.Join(ld.FilesDir, "figures", "q4", "logo.svg"))
	if info.Mode()&0o111 != 0 {
		t.Errorf("execute bits survived landing: %v", info.Mode())
	}
}

func TestPreflight(t *testing.T) {
	dir := t.TempDir()
	carriedFile := filepath.Join(dir, "deck.key")
	if err := os.WriteFile(carriedFile, []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	percentFile := filepath.Join(dir, "100% done.txt")
	if err := os.WriteFile(percentFile, []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		state string
		asks  []*ojson.Value
		files []string
		want  []string // substrings, one per warning, in order
	}{
		{"clean", `{"id":"TP-A","version":1,"artifacts":["git@github.com:x/y.git@abc123"],"facts":[{"claim":"c","scope":"universal","verified":true}]}`,
			[]*ojson.Value{ParseAsk("q|A CSV with EMEA, APAC and AMER revenue for September")}, nil, nil},
		{"absolute path not carried", `{"id":"TP-A","version":1,"artifacts":["draft at ~/deck/draft.key"]}`, nil, nil,
			[]string{"~/deck/draft.key"}},
		{"absolute path carried", `{"id":"TP-A","version":1,"artifacts":["` + carriedFile + `"]}`, nil, []string{carriedFile}, nil},
		{"fact without scope", `{"id":"TP-A","version":1,"facts":[{"claim":"the share is mounted","verified":true}]}`, nil, nil,
			[]string{"facts[0] has no scope"}},
		{"vague accept", `{"id":"TP-A","version":1}`, []*ojson.Value{ParseAsk("q|ok")}, nil, []string{"too vague"}},
		{"percent in a luggage name", `{"id":"TP-A","version":1}`, nil, []string{percentFile}, []string{"% in its name"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Build(context.Background(), mustParse(t, tc.state), BuildOptions{Asks: tc.asks, Files: tc.files})
			if err != nil {
				t.Fatal(err)
			}
			got := Preflight(b)
			if len(got) != len(tc.want) {
				t.Fatalf("warnings = %q, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d = %q, want it to mention %q", i, got[i], w)
				}
			}
		})
	}
}

// §4.2: an org fact keeps its ✓ across a machine, annotated with the source
// actor; one that crossed before keeps its original actor; other scopes are
// not annotated.
func TestBuildAnnotatesOrgFacts(t *testing.T) {
	state := mustParse(t, `{"id":"TP-A","version":1,"facts":[
		{"claim":"decks use the brand template","scope":"org","verified":true},
		{"claim":"invoices go through finance","scope":"org","verified":true,"source_actor":"Maria"},
		{"claim":"the board wants regions","scope":"universal","verified":true},
		{"claim":"unproven convention","scope":"org","verified":false}]}`)
	b, err := Build(context.Background(), state, BuildOptions{Actor: "Bob", Machine: "m"})
	if err != nil {
		t.Fatal(err)
	}
	facts := b.Source.Object.Get("passport").Get("facts").Items()
	want := []string{"Bob", "Maria", "", ""}
	for i, f := range facts {
		if got := f.Get(SourceActor).Text(); got != want[i] {
			t.Errorf("facts[%d] source_actor = %q, want %q", i, got, want[i])
		}
		if i < 2 && !f.Get("verified").IsNull() {
			if v, _ := f.Get("verified").Bool(); !v {
				t.Errorf("facts[%d] lost its ✓", i)
			}
		}
	}
	if state.Get("facts").Items()[0].Has(SourceActor) {
		t.Error("Build changed the stored passport")
	}
}

// A receipt from a passport never landed from a pack would go home to that
// very passport (§4.4.1, D6): Build refuses it with NoHomeError unless the
// caller is one of the reference's entry points (HomelessReceipt).
func TestReceiptNeedsAHome(t *testing.T) {
	for _, tc := range []struct {
		name, state string
		kind        string
		homeless    bool
		refused     bool
	}{
		{"root passport, receipt", `{"id":"TP-A","version":2}`, model.KindReceipt, false, true},
		{"root with its own root_id, receipt", `{"id":"TP-A","version":2,"lineage":{"root_id":"TP-A","from_version":0,"chain":[]}}`, model.KindReceipt, false, true},
		{"root passport, receipt, reference entry point", `{"id":"TP-A","version":2}`, model.KindReceipt, true, false},
		{"root passport, handoff", `{"id":"TP-A","version":2}`, model.KindHandoff, false, false},
		{"landed passport, receipt", `{"id":"TP-B","version":1,"lineage":{"root_id":"TP-A","from_version":3,"chain":["TP-A@3"]}}`, model.KindReceipt, false, false},
		{"root_id elsewhere, empty chain, receipt", `{"id":"TP-B","version":1,"lineage":{"root_id":"TP-A","from_version":3,"chain":[]}}`, model.KindReceipt, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := mustParse(t, tc.state)
			_, err := Build(context.Background(), st, BuildOptions{Kind: tc.kind, HomelessReceipt: tc.homeless, Now: t0})
			var nh *NoHomeError
			if got := errors.As(err, &nh); got != tc.refused {
				t.Fatalf("refused = %v (%v), want %v", got, err, tc.refused)
			}
			if tc.refused && !strings.Contains(err.Error(), "no passport to go home to") {
				t.Errorf("error does not say why: %v", err)
			}
			if want := !tc.refused && !tc.homeless; tc.kind == model.KindReceipt && ReceiptHasHome(st) != want {
				t.Errorf("ReceiptHasHome = %v", ReceiptHasHome(st))
			}
		})
	}
}
