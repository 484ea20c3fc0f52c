package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// task_passport_open of a big state returns the state once and a briefing
// bounded by max_bytes (default 4096) that says it was cut; the whole
// result stays near the state's own size (text and structured content
// each carry it once), not three copies of it.
func TestOpenResultIsBounded(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "m1")
	cs := w.serve(t)
	id := newPassport(t, cs)
	o := ok(t, cs, "task_passport_open", map[string]any{"passport_id": id})
	state := o.Doc["state"].(map[string]any)
	var steps, facts []any
	for i := 0; len(steps) < 800; i++ {
		steps = append(steps, strings.Repeat("step words ", 10)+string(rune('a'+i%26)))
		facts = append(facts, map[string]any{"claim": strings.Repeat("a fact ", 12), "scope": "universal", "verified": false})
	}
	state["next_steps"], state["facts"] = steps, facts
	ok(t, cs, "task_passport_checkpoint", map[string]any{"state": state, "expected_version": o.Doc["state_version"]})
	big := ok(t, cs, "task_passport_open", map[string]any{"passport_id": id})
	sb, _ := json.Marshal(big.Doc["state"])
	if len(sb) < 150_000 {
		t.Fatalf("the state is only %d bytes", len(sb))
	}
	md, _ := big.Doc["compiled_context"].(string)
	if len(md) > 4096 || big.Doc["compiled_context_truncated"] != true || !strings.Contains(md, "not shown") {
		t.Errorf("compiled_context is %d bytes (truncated %v), want at most 4096 with a notice:\n%.600s", len(md), big.Doc["compiled_context_truncated"], md)
	}
	if limit := len(sb)*5/2 + 16_384; big.Size > limit { // text content escapes the JSON once more
		t.Errorf("the open result is %d bytes for a %d-byte state (bound %d)", big.Size, len(sb), limit)
	}
	small := ok(t, cs, "task_passport_open", map[string]any{"passport_id": id, "max_bytes": 1024})
	if md, _ := small.Doc["compiled_context"].(string); len(md) > 1024 {
		t.Errorf("max_bytes 1024: %d bytes", len(md))
	}
	fails(t, cs, "task_passport_open", map[string]any{"passport_id": id, "max_bytes": 10}, "invalid")
}
