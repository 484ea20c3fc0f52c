package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/mcp"
)

// BenchmarkToolRoundTrip times one call of each of the reference's seven
// tools in process over the SDK's in-memory transports: the server's own
// work per call, without a process start or a pipe (scripts/mcp-latency.py
// measures the same calls over stdio against the reference's server).
func BenchmarkToolRoundTrip(b *testing.B) {
	w := newWorld(b, "bench")
	cs := w.serve(b)
	benchSevenTools(b, w, func(name string, args map[string]any) map[string]any { return ok(b, cs, name, args).Doc })
}

// benchSevenTools times one call of each of the reference's seven tools
// through tool, which returns a call's structured result: a passport made
// and packed first, then each tool as a sub-benchmark.
func benchSevenTools(b *testing.B, w *world, tool func(name string, args map[string]any) map[string]any) {
	created := tool("task_passport_new", map[string]any{"title": "t", "goal": "g", "next_step": "look"})
	pid, _ := created["passport_id"].(string)
	first := filepath.Join(w.Work, "first.taskpack")
	tool("task_passport_pack", map[string]any{"passport_id": pid, "out": first})
	opened := tool("task_passport_open", map[string]any{"passport_id": pid})
	state, _ := opened["state"].(map[string]any)
	version := opened["state_version"]
	n := 0
	cases := []struct {
		tool string
		args func() map[string]any
		keep func(map[string]any)
	}{
		{"task_passport_list", func() map[string]any { return map[string]any{} }, nil},
		{"task_passport_open", func() map[string]any { return map[string]any{"passport_id": pid} }, nil},
		{"task_passport_new", func() map[string]any { return map[string]any{"title": fmt.Sprint("t", n), "goal": "g"} }, nil},
		{"task_passport_checkpoint", func() map[string]any {
			s := maps.Clone(state)
			s["current_state"] = fmt.Sprint("step ", n)
			return map[string]any{"state": s, "expected_version": version}
		}, func(r map[string]any) { state, _ = r["state"].(map[string]any); version = r["state_version"] }},
		{"task_passport_pack", func() map[string]any {
			return map[string]any{"passport_id": pid, "out": filepath.Join(w.Work, fmt.Sprintf("p%d.taskpack", n))}
		}, nil},
		{"task_passport_land", func() map[string]any { return map[string]any{"path": first, "dry_run": true} }, nil},
		{"task_passport_conformance", func() map[string]any { return map[string]any{"path": first} }, nil},
	}
	for _, c := range cases {
		b.Run(c.tool, func(b *testing.B) {
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				n++
				r := tool(c.tool, c.args())
				if c.keep != nil {
					c.keep(r)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkToolRoundTripStdio times the same seven calls as
// BenchmarkToolRoundTrip through Server.Run, the path `tp mcp` serves on
// stdio (the lifecycle's reader and writer included), with a client that
// only writes request lines and reads response lines: the server's own
// work per call, without the SDK client's decoding and validation that the
// in-memory benchmark also times.
func BenchmarkToolRoundTripStdio(b *testing.B) {
	w := newWorld(b, "bench")
	st, err := store.Open(w.Store)
	if err != nil {
		b.Fatal(err)
	}
	srv := mcp.New(mcp.Config{Store: st, ActsDir: w.Acts, Offline: true, Version: "test", WorkDir: w.Work,
		Env: func(k string) string { return w.Env[k] }, Log: io.Discard})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, inR, outW) }()
	b.Cleanup(func() { inW.Close(); cancel(); outR.Close(); <-done })
	rd := bufio.NewReaderSize(outR, 1<<20)
	id := 0
	call := func(method string, params any) map[string]any {
		id++
		line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := inW.Write(append(line, '\n')); err != nil {
			b.Fatal(err)
		}
		for {
			resp, err := rd.ReadBytes('\n')
			if err != nil {
				b.Fatal(err)
			}
			var m struct {
				ID     int `json:"id"`
				Result struct {
					IsError           bool           `json:"isError"`
					StructuredContent map[string]any `json:"structuredContent"`
				} `json:"result"`
			}
			if err := json.Unmarshal(resp, &m); err != nil {
				b.Fatal(err)
			}
			if m.ID != id {
				continue
			}
			if m.Result.IsError {
				b.Fatalf("%s: %.400s", method, resp)
			}
			return m.Result.StructuredContent
		}
	}
	call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "bench", "version": "1"}})
	if _, err := inW.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		b.Fatal(err)
	}
	tool := func(name string, args map[string]any) map[string]any {
		return call("tools/call", map[string]any{"name": name, "arguments": args})
	}
	benchSevenTools(b, w, tool)
}

// reportCPU reports the process's CPU time per call since start (client
// and server alike: both run in this process), as cpu-ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	if used := cpuTime() - start; used > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
