package mcp_test

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkToolRoundTrip times one call of each of the reference's seven
// tools in process over the SDK's in-memory transports: the server's own
// work per call, without a process start or a pipe (scripts/mcp-latency.py
// measures the same calls over stdio against the reference's server).
func BenchmarkToolRoundTrip(b *testing.B) {
	w := newWorld(b, "bench")
	cs := w.serve(b)
	id := newPassport(b, cs)
	first := filepath.Join(w.Work, "first.taskpack")
	ok(b, cs, "task_passport_pack", map[string]any{"passport_id": id, "out": first})
	opened := ok(b, cs, "task_passport_open", map[string]any{"passport_id": id})
	state, _ := opened.Doc["state"].(map[string]any)
	version := opened.Doc["state_version"]
	n := 0
	cases := []struct {
		tool string
		args func() map[string]any
		keep func(result)
	}{
		{"task_passport_list", func() map[string]any { return map[string]any{} }, nil},
		{"task_passport_open", func() map[string]any { return map[string]any{"passport_id": id} }, nil},
		{"task_passport_new", func() map[string]any { return map[string]any{"title": fmt.Sprint("t", n), "goal": "g"} }, nil},
		{"task_passport_checkpoint", func() map[string]any {
			s := map[string]any{}
			for k, v := range state {
				s[k] = v
			}
			s["current_state"] = fmt.Sprint("step ", n)
			return map[string]any{"state": s, "expected_version": version}
		}, func(r result) { state, _ = r.Doc["state"].(map[string]any); version = r.Doc["state_version"] }},
		{"task_passport_pack", func() map[string]any {
			return map[string]any{"passport_id": id, "out": filepath.Join(w.Work, fmt.Sprintf("p%d.taskpack", n))}
		}, nil},
		{"task_passport_land", func() map[string]any { return map[string]any{"path": first, "dry_run": true} }, nil},
		{"task_passport_conformance", func() map[string]any { return map[string]any{"path": first} }, nil},
	}
	for _, c := range cases {
		b.Run(c.tool, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				n++
				r := ok(b, cs, c.tool, c.args())
				if c.keep != nil {
					c.keep(r)
				}
			}
		})
	}
}
