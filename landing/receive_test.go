package landing

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

func storeNames(t *testing.T, st *store.Store) []string {
	t.Helper()
	entries, _, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	slices.Sort(ids)
	return ids
}

// receiveWorld is a store, home, holding passport id with an open ask,
// packed to handoff in dir, and a second store, away, with the identity
// that lands it there.
func receiveWorld(t *testing.T) (home *store.Store, id, dir, handoff string, away *store.Store, env Env) {
	t.Helper()
	home, id, dir = packFixture(t)
	handoff = filepath.Join(dir, "h.taskpack")
	if _, err := Pack(context.Background(), home, askReq(id, handoff)); err != nil {
		t.Fatal(err)
	}
	away, err := store.Open(filepath.Join(dir, "away"))
	if err != nil {
		t.Fatal(err)
	}
	return home, id, dir, handoff, away, Env{Machine: "away-box", Actor: "bob"}
}

// Receive is the whole landing for front ends that decide up front (the
// MCP server, the task-passport drop-in): a dry run writes nothing; a
// handoff lands as a new passport, once; a receipt merges into the passport
// whose asks it answers (TaskPack 0.1 §3.1, §4.4.1).
func TestReceive(t *testing.T) {
	ctx := context.Background()
	home, id, dir, handoff, away, env := receiveWorld(t)

	dry, err := Receive(ctx, away, ReceiveRequest{Path: handoff, DryRun: true, Env: env})
	if err != nil || dry.Plan == nil || dry.Landed != nil || dry.Merged != nil || dry.Object.Get("origin") == nil {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	if ids := storeNames(t, away); len(ids) != 0 {
		t.Fatalf("a dry run wrote %v", ids)
	}

	got, err := Receive(ctx, away, ReceiveRequest{Path: handoff, Env: env})
	if err != nil || got.Landed == nil || got.Landed.ID == id || got.Merged != nil {
		t.Fatalf("land: %+v %v", got, err)
	}
	var pe *pack.Error
	if _, err := Receive(ctx, away, ReceiveRequest{Path: handoff, Env: env}); !errors.As(err, &pe) || pe.Rule != RuleAlreadyLanded {
		t.Errorf("landing the same file twice: %v", err)
	}
	if _, err := Receive(ctx, away, ReceiveRequest{Path: handoff, Env: env, Decisions: Decisions{Again: true}}); err != nil {
		t.Errorf("--again: %v", err)
	}
	if ids := storeNames(t, away); len(ids) != 2 {
		t.Errorf("after land, refusal, again: %v", ids)
	}

	if _, err := EditAsks(ctx, away, AsksRequest{ID: got.Landed.ID, Edits: []AskEdit{{ID: "a1", Answer: "close.csv"}}, By: "bob@away-box"}); err != nil {
		t.Fatal(err)
	}
	receipt := filepath.Join(dir, "r.taskpack.json")
	if _, err := Pack(ctx, away, PackRequest{ID: got.Landed.ID, Out: receipt, Encoding: pack.EncodingFlat,
		Build: BuildOptions{Kind: model.KindReceipt, Actor: "bob", Machine: "away-box"}}); err != nil {
		t.Fatal(err)
	}
	merged, err := Receive(ctx, home, ReceiveRequest{Path: receipt, Env: Env{Machine: "m", Actor: "a"}})
	if err != nil || merged.Merged == nil || merged.Merged.Target != id || merged.Landed != nil {
		t.Fatalf("receipt: %+v %v", merged, err)
	}
	if ids := storeNames(t, home); !slices.Equal(ids, []string{id}) {
		t.Errorf("a receipt made a new passport: %v", ids)
	}
	st, err := home.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if a := st.V.Get("asks").Items(); len(a) != 1 || (model.Ask{V: a[0]}).Status() != model.AskAnswered {
		t.Errorf("home ask after the merge: %v", st.V.Get("asks"))
	}
	// A check status given for a receipt is a mistake, said before anything is written.
	if _, err := Receive(ctx, home, ReceiveRequest{Path: receipt, Decisions: Decisions{CheckStatus: map[string]string{"c1": "passed"}}}); err == nil {
		t.Error("a receipt took landing-check statuses")
	}
}

// A pack is always a named file: it appears only once complete, and stdout
// is the report's; "-" and "" are refused before anything is built or saved.
func TestPackOutIsAFile(t *testing.T) {
	st, id, _ := packFixture(t)
	for _, out := range []string{"", "-"} {
		req := askReq(id, out)
		if _, err := Pack(context.Background(), st, req); err == nil || !strings.Contains(err.Error(), "name the pack file") {
			t.Errorf("out %q: %v", out, err)
		}
	}
	if s, err := st.Get(id); err != nil || s.Version != 1 {
		t.Errorf("the asks were recorded for a pack never written: %v %v", s, err)
	}
}

// Show sees the decided plan before anything is written, and an error from
// it (a person or a front end saying no) leaves the store as it was.
func TestReceiveShowsThePlanFirst(t *testing.T) {
	ctx := context.Background()
	_, _, _, handoff, away, env := receiveWorld(t)
	no := errors.New("not now")
	var shown *Plan
	_, err := Receive(ctx, away, ReceiveRequest{Path: handoff, Env: env, Show: func(p *Plan) error {
		if ids := storeNames(t, away); len(ids) != 0 {
			t.Errorf("written before the plan was shown: %v", ids)
		}
		shown = p
		return no
	}})
	if !errors.Is(err, no) || shown == nil || shown.ID == "" {
		t.Fatalf("Show: %v, plan %+v", err, shown)
	}
	if ids := storeNames(t, away); len(ids) != 0 {
		t.Fatalf("Show said no, yet %v was written", ids)
	}
	got, err := Receive(ctx, away, ReceiveRequest{Path: handoff, Env: env, Show: func(p *Plan) error { shown = p; return nil }})
	if err != nil || got.Plan != shown || got.Landed == nil || got.Landed.ID != shown.ID {
		t.Fatalf("land after Show: %+v %v", got, err)
	}
}
