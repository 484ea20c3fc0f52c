package mcp

import (
	"context"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tp-dev/tp/internal/store"
)

// TestIdentityResolvedOnce: who the server acts as is resolved once per
// server, not on every call (issue 16: each call ran git config twice).
// The actor's lookup reads TP_ACTOR first every time it runs; over many
// calls that write as the actor (new, checkpoint, answer, pack, land), it
// runs once.
func TestIdentityResolvedOnce(t *testing.T) {
	t.Parallel()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var lookups atomic.Int32
	work := t.TempDir()
	env := map[string]string{"TP_ACTOR": "agent", "TP_MACHINE": "m1", "HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir()}
	srv := New(Config{Store: st, WorkDir: work, Offline: true, Version: "test", Env: func(k string) string {
		if k == "TP_ACTOR" {
			lookups.Add(1)
		}
		return env[k]
	}})
	ct, stt := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, stt)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", name, err, res)
		}
		m, _ := res.StructuredContent.(map[string]any)
		return m
	}
	before := lookups.Load()
	for i := 0; i < 3; i++ {
		id := call("task_passport_new", map[string]any{"title": "t", "goal": "g"})["passport_id"].(string)
		out := work + "/p" + id + ".taskpack"
		call("task_passport_pack", map[string]any{"passport_id": id, "out": out,
			"asks": []any{map[string]any{"what": "w", "accept": "a"}}})
		call("task_passport_land", map[string]any{"path": out, "dry_run": true})
		landed := call("task_passport_land", map[string]any{"path": out})["passport_id"].(string)
		call("tp_asks_answer", map[string]any{"passport_id": landed, "answers": []any{map[string]any{"id": "a1", "answer": "x"}}})
	}
	if n := lookups.Load() - before; n != 1 {
		t.Errorf("the actor was looked up %d times over 15 calls, want once per server", n)
	}
}
