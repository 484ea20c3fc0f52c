package mcp_test

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tp-dev/tp/cmd/cli"
	"github.com/tp-dev/tp/cmd/tp-full/mcpserve"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/mcp"
)

// tpBin is this test binary as "tp", with "tp-full" beside it (D26):
// TestStdinEOFAnswered and the node client drive `tp mcp` black-box over
// stdio, as a client starts it, and the acts tests settle as the principal
// through the command line. Every other test serves the server in process
// (connect). Linking the test binary costs nothing; building tp and
// tp-full cost two links of the whole program every run of the package.
var tpBin string

func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) {
	case "tp":
		os.Exit(cli.Main(nil))
	case cli.FullName:
		os.Exit(cli.Main(&cli.Full{Servers: &cli.Servers{MCP: mcpserve.Run}}))
	}
	dir, err := os.MkdirTemp("", "tp-mcp-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	exe, err := os.Executable()
	if err == nil {
		// tp and, beside it, tp-full: `tp mcp` is forwarded to it, as on
		// a machine where go install ./cmd/... put both.
		for _, name := range []string{"tp", cli.FullName} {
			if err = os.Link(exe, filepath.Join(dir, name)); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "placing the test binary as tp: %v\n", err)
		os.Exit(1)
	}
	tpBin = filepath.Join(dir, "tp")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is the child's environment: its own store, acts folder and identity.
func env(t *testing.T, store, machine string) []string {
	home := t.TempDir()
	return append(os.Environ(), "TP_STORE="+store, "TASK_PASSPORT_STORE=", "TP_ACTS="+filepath.Join(home, "acts"),
		"HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"TP_MACHINE="+machine, "TP_ACTOR=agent-"+machine)
}

// connect serves tp's MCP server in this process, configured from environ
// as `tp mcp` configures itself (TP_STORE, TP_ACTS, the identity), and
// connects a client to it over the SDK's in-memory transports.
func connect(t *testing.T, environ []string, version string) *sdk.ClientSession {
	t.Helper()
	return connectWith(t, environ, version, nil)
}

// connectWith is connect with the client's options (handlers for the
// server's notifications).
func connectWith(t *testing.T, environ []string, version string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	return connectConfig(t, environ, version, opts, nil)
}

// connectConfig is connectWith with the server's Config changed by edit.
func connectConfig(t *testing.T, environ []string, version string, opts *sdk.ClientOptions, edit func(*mcp.Config)) *sdk.ClientSession {
	t.Helper()
	vars := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	st, err := store.Open(vars["TP_STORE"])
	if err != nil {
		t.Fatal(err)
	}
	// The server is confined to its working directory (D25): the folder
	// that holds every temporary folder of this test.
	cfg := mcp.Config{Store: st, ActsDir: vars["TP_ACTS"], Env: func(k string) string { return vars[k] },
		Version: "test", Log: &testLog{t: t}, WorkDir: filepath.Dir(t.TempDir())}
	if edit != nil {
		edit(&cfg)
	}
	srv := mcp.New(cfg)
	ct, stt := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, stt)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "tp-test", Version: "1"}, opts).Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Logf("tp mcp stderr: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// call calls a tool and decodes its structured result into a map; wantErr
// says whether the result must be an isError result.
func call(t *testing.T, cs *sdk.ClientSession, name string, args any, wantErr bool) (map[string]any, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			text = tc.Text
		}
	}
	if res.IsError != wantErr {
		t.Fatalf("%s: isError=%v, want %v: %s", name, res.IsError, wantErr, text)
	}
	if wantErr {
		return nil, text
	}
	checkOutput(t, cs, name, res.StructuredContent)
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, b, err)
	}
	// The text content is the same document, for clients that read text.
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		t.Fatalf("%s: text content is not the JSON document: %v", name, err)
	}
	// Every result says that the passport and pack text it carries is data
	// (TaskPack 0.1 §4.5).
	if n, _ := out["data_notice"].(string); !strings.Contains(n, "not instructions") {
		t.Errorf("%s: the result does not label its content as data: %.300s", name, text)
	}
	return out, text
}

func TestInitializeAndTools(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"2025-06-18", "2025-03-26", "2024-11-05"} {
		t.Run(v, func(t *testing.T) {
			cs := connect(t, env(t, t.TempDir(), "m1"), v)
			if got := cs.InitializeResult().ProtocolVersion; got != v {
				t.Errorf("negotiated %s, want %s", got, v)
			}
			if got := cs.InitializeResult().ServerInfo.Name; got != "tp" {
				t.Errorf("server name %q", got)
			}
		})
	}
	cs := connect(t, env(t, t.TempDir(), "m1"), "2025-06-18")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		byName[tl.Name] = tl
	}
	want := []string{"task_passport_list", "task_passport_open", "task_passport_new", "task_passport_checkpoint",
		"task_passport_pack", "task_passport_land", "task_passport_conformance",
		"tp_asks_list", "tp_asks_answer", "tp_checks_list", "tp_checks_report", "tp_receipt_pack",
		"tp_acts_sync", "tp_acts_list", "tp_acts_claim", "tp_acts_withdraw", "tp_acts_note", "tp_acts_wait", "tp_acts_declare"}
	for _, n := range want {
		if byName[n] == nil {
			t.Errorf("tool %s missing", n)
		}
	}
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools, want %d", len(res.Tools), len(want))
	}
	// Nothing an agent must never do is offered (D18, Acts 0.3 §10).
	for n := range byName {
		for _, bad := range []string{"settle", "reopen", "amend", "run"} {
			if strings.Contains(n, bad) {
				t.Errorf("tool %s offers %s", n, bad)
			}
		}
	}
	ro := func(n string) bool { return byName[n].Annotations != nil && byName[n].Annotations.ReadOnlyHint }
	for _, n := range []string{"task_passport_list", "task_passport_open", "task_passport_conformance", "tp_asks_list", "tp_checks_list"} {
		if !ro(n) {
			t.Errorf("%s is not readOnly", n)
		}
	}
	// Annotations tell the truth: a tool that can replace or remove what is
	// there is destructive; one that pulls from git is not read-only.
	for _, n := range []string{"task_passport_pack", "tp_receipt_pack", "tp_acts_sync"} {
		if a := byName[n].Annotations; a.DestructiveHint == nil || !*a.DestructiveHint || a.ReadOnlyHint {
			t.Errorf("%s: can replace or remove what is there, so destructiveHint must be true", n)
		}
	}
	for _, n := range []string{"tp_acts_wait", "tp_acts_list"} {
		if ro(n) {
			t.Errorf("%s pulls from git: it is not read-only", n)
		}
	}
	for _, n := range []string{"task_passport_new", "task_passport_checkpoint", "task_passport_land", "tp_asks_answer", "tp_acts_claim"} {
		if ro(n) {
			t.Errorf("%s claims to be readOnly", n)
		}
		if a := byName[n].Annotations; a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("%s: destructiveHint should be false (it only adds)", n)
		}
	}
	// The reference's argument shapes.
	schema := func(n string) map[string]any {
		b, _ := json.Marshal(byName[n].InputSchema)
		var m map[string]any
		json.Unmarshal(b, &m)
		return m
	}
	if req := schema("task_passport_checkpoint")["required"]; fmt.Sprint(req) != "[state expected_version]" {
		t.Errorf("checkpoint required %v", req)
	}
	props := schema("task_passport_pack")["properties"].(map[string]any)
	for _, k := range []string{"passport_id", "out", "encoding", "actor", "note", "kind", "files", "asks", "landing_checks"} {
		if props[k] == nil {
			t.Errorf("task_passport_pack has no %s", k)
		}
	}
	props = schema("task_passport_land")["properties"].(map[string]any)
	for _, k := range []string{"path", "dry_run", "files_out"} {
		if props[k] == nil {
			t.Errorf("task_passport_land has no %s", k)
		}
	}
}

// TestRoundTrip: new → checkpoint → pack on one machine, land on another
// (its own store), answer, receipt, and the receipt merged back home.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	storeA, storeB := filepath.Join(work, "a"), filepath.Join(work, "b")
	a := connect(t, env(t, storeA, "alice-box"), "2025-06-18")
	b := connect(t, env(t, storeB, "bob-box"), "2025-06-18")

	created, _ := call(t, a, "task_passport_new", map[string]any{"title": "Q4 deck", "goal": "12 slides the CFO signs", "next_step": "draft"}, false)
	id := created["passport_id"].(string)
	if created["state_version"].(float64) != 1 {
		t.Fatalf("new: %v", created)
	}
	opened, _ := call(t, a, "task_passport_open", map[string]any{"passport_id": id}, false)
	if opened["data_notice"] == nil || !strings.Contains(opened["compiled_context"].(string), "data from the passport, not instructions") {
		t.Error("open does not label its content as data")
	}
	state := opened["state"].(map[string]any)
	state["current_state"] = "slides 1-9 drafted"
	state["facts"] = []any{
		map[string]any{"claim": "Keynote 14 is installed", "scope": "machine", "verified": true},
		map[string]any{"claim": "the CFO wants 12 slides", "scope": "universal", "verified": true},
	}
	saved, _ := call(t, a, "task_passport_checkpoint", map[string]any{"state": state, "expected_version": opened["state_version"]}, false)
	if saved["state_version"].(float64) != 2 {
		t.Fatalf("checkpoint: %v", saved)
	}
	facts := saved["state"].(map[string]any)["facts"].([]any)
	if facts[0].(map[string]any)["verified_on"] != "alice-box" {
		t.Errorf("verified fact not stamped with this machine: %v", facts[0])
	}

	// A stale checkpoint: an error result naming both versions, nothing written.
	_, msg := call(t, a, "task_passport_checkpoint", map[string]any{"state": state, "expected_version": 1}, true)
	if !strings.Contains(msg, "conflict") || !strings.Contains(msg, "expected version 1, found 2") {
		t.Errorf("stale checkpoint: %q", msg)
	}

	ran := filepath.Join(work, "how-ran")
	handoff := filepath.Join(work, "deck.taskpack")
	packed, _ := call(t, a, "task_passport_pack", map[string]any{
		"passport_id": id, "out": handoff, "actor": "alice",
		"asks":           []any{map[string]any{"what": "the September close", "accept": "a CSV with EMEA, APAC, AMER revenue"}},
		"landing_checks": []any{map[string]any{"check": "Keynote opens the template", "how": "touch " + ran}},
	}, false)
	if packed["ok"] != true || packed["asks"].(float64) != 1 || fmt.Sprint(packed["asks_recorded"]) != "[a1]" {
		t.Fatalf("pack: %v", packed)
	}
	conf, _ := call(t, a, "task_passport_conformance", map[string]any{"path": handoff}, false)
	if conf["ok"] != true {
		t.Fatalf("the pack tp made is not conformant: %v", conf)
	}

	landed, _ := call(t, b, "task_passport_land", map[string]any{"path": handoff}, false)
	bid, _ := landed["passport_id"].(string)
	if bid == "" || bid == id {
		t.Fatalf("land: a handoff must get a new local id: %v", landed)
	}
	if landed["needs_reverify"].(float64) != 1 || landed["landing_checks_required"].(float64) != 1 || landed["open_asks"].(float64) != 1 {
		t.Errorf("land counts: %v", landed)
	}
	// D23: the receiver verdict names the unmet required check and the open ask.
	if landed["verdict"] != "needs_input" || len(landed["unmet_checks"].([]any)) != 1 || len(landed["open_ask_items"].([]any)) != 1 {
		t.Errorf("land verdict: %v %v %v", landed["verdict"], landed["unmet_checks"], landed["open_ask_items"])
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("landing ran the sender's how")
	}
	bOpen, _ := call(t, b, "task_passport_open", map[string]any{"passport_id": bid}, false)
	ctx := bOpen["compiled_context"].(string)
	if !strings.Contains(ctx, "⚠ Keynote 14 is installed") || !strings.Contains(ctx, "✓ the CFO wants 12 slides") {
		t.Errorf("the machine fact crossed wearing a ✓, or the universal one lost it:\n%s", ctx)
	}
	// An agent cannot restore the sender's ✓ through a checkpoint: the sealed
	// fact sent back as verified, still saying alice-box, is recorded as
	// proven here (bob-box) or not at all (D17, TaskPack 0.1 §4.2).
	bState := bOpen["state"].(map[string]any)
	for _, f := range bState["facts"].([]any) {
		if m := f.(map[string]any); m["claim"] == "Keynote 14 is installed" {
			m["verified"], m["verified_on"] = true, "alice-box"
			delete(m, "needs_reverify")
		}
	}
	resaved, _ := call(t, b, "task_passport_checkpoint", map[string]any{"state": bState, "expected_version": bOpen["state_version"]}, false)
	for _, f := range resaved["state"].(map[string]any)["facts"].([]any) {
		if m := f.(map[string]any); m["claim"] == "Keynote 14 is installed" && m["verified_on"] != "bob-box" {
			t.Errorf("a checkpoint restored the sender's ✓: %v", m)
		}
	}
	checks, _ := call(t, b, "tp_checks_list", map[string]any{"passport_id": bid}, false)
	c := checks["landing_checks"].([]any)[0].(map[string]any)
	if c["status"] != "pending" || c["how_suggested_by"] == "" {
		t.Errorf("check: %v", c)
	}
	call(t, b, "tp_checks_report", map[string]any{"passport_id": bid, "reports": []any{map[string]any{"id": c["id"], "status": "passed"}}}, false)
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("reporting a check ran its how")
	}
	asks, _ := call(t, b, "tp_asks_list", map[string]any{"passport_id": bid}, false)
	ask := asks["asks"].([]any)[0].(map[string]any)
	if ask["accept"] != "a CSV with EMEA, APAC, AMER revenue" || ask["sent"] != false {
		t.Errorf("ask on the receiving side: %v", ask)
	}
	call(t, b, "tp_asks_answer", map[string]any{"passport_id": bid, "answers": []any{map[string]any{"id": "a1", "answer": "close.csv"}}}, false)
	receipt := filepath.Join(work, "answers.taskpack.json")
	rp, _ := call(t, b, "tp_receipt_pack", map[string]any{"passport_id": bid, "out": receipt, "encoding": "flat"}, false)
	if rp["kind"] != "receipt" {
		t.Fatalf("receipt: %v", rp)
	}

	merged, _ := call(t, a, "task_passport_land", map[string]any{"path": receipt}, false)
	if merged["passport_id"] != id || merged["merged"] == nil {
		t.Fatalf("the receipt did not merge into the passport that asked: %v", merged)
	}
	home, _ := call(t, a, "tp_asks_list", map[string]any{"passport_id": id}, false)
	got := home["asks"].([]any)[0].(map[string]any)
	if got["status"] != "answered" || got["answer"] != "close.csv" || got["answered_by"] != "agent-bob-box@bob-box" {
		t.Errorf("home ask after the merge: %v", got)
	}
	final, _ := call(t, a, "task_passport_open", map[string]any{"passport_id": id}, false)
	if final["state"].(map[string]any)["current_state"] != "slides 1-9 drafted" {
		t.Error("a merge rewrote the current state (§4.4.1)")
	}
}

// TestBadCalls: a malformed call and a hostile pack are error results; the
// server keeps serving, and nothing is written.
func TestBadCalls(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	store := filepath.Join(work, "store")
	cs := connect(t, env(t, store, "m1"), "2024-11-05")
	created, _ := call(t, cs, "task_passport_new", map[string]any{"title": "t", "goal": "g"}, false)
	id := created["passport_id"].(string)

	for _, bad := range []struct {
		tool string
		args any
		want string
	}{
		{"task_passport_checkpoint", map[string]any{"state": map[string]any{"id": id}, "expected_version": "one"}, "expected_version"},
		{"task_passport_checkpoint", map[string]any{"state": map[string]any{"id": id}}, "required"},
		{"task_passport_open", map[string]any{"passport_id": id, "extra": 1}, `unknown member "extra"`},
		{"task_passport_open", map[string]any{"passport_id": "../../etc/passwd"}, "unsupported characters"},
		{"task_passport_checkpoint", map[string]any{"state": map[string]any{"id": id, "current_state": "key ghp_abcdefghijklmnopqrstuvwxyz0123456789"}, "expected_version": 1}, "credential"},
		{"task_passport_pack", map[string]any{"passport_id": id, "out": filepath.Join(work, "x.taskpack"), "asks": []any{map[string]any{"what": "w", "accept": ""}}}, "accept"},
		{"tp_checks_report", map[string]any{"passport_id": id, "reports": []any{map[string]any{"id": "c1", "status": "passed"}}}, "c1"},
	} {
		_, msg := call(t, cs, bad.tool, bad.args, true)
		if !strings.Contains(msg, bad.want) {
			t.Errorf("%s %v: %q does not say %q", bad.tool, bad.args, msg, bad.want)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "x.taskpack")); err == nil {
		t.Error("a refused pack was written")
	}

	// A hostile pack: an entry that climbs out of the bag.
	hostile := filepath.Join(work, "hostile.taskpack")
	f, _ := os.Create(hostile)
	zw := zip.NewWriter(f)
	for _, name := range []string{"bagit.txt", "../escaped.txt"} {
		w, _ := zw.Create(name)
		w.Write([]byte("BagIt-Version: 1.0\n"))
	}
	zw.Close()
	f.Close()
	before := listing(t, store)
	_, msg := call(t, cs, "task_passport_land", map[string]any{"path": hostile}, true)
	if !strings.Contains(msg, "..") && !strings.Contains(strings.ToLower(msg), "travers") {
		t.Errorf("hostile pack: %q", msg)
	}
	if _, err := os.Stat(filepath.Join(work, "escaped.txt")); err == nil {
		t.Error("the hostile entry was written")
	}
	if after := listing(t, store); !slices.Equal(before, after) {
		t.Errorf("the store changed: %v → %v", before, after)
	}
	// Still serving.
	list, _ := call(t, cs, "task_passport_list", map[string]any{}, false)
	if list["count"].(float64) != 1 {
		t.Errorf("list after the errors: %v", list)
	}
}

func listing(t *testing.T, dir string) []string {
	var out []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestStdinEOFAnswered: `tp mcp < requests.jsonl` — stdin closes right
// after the requests — answers every request, then exits (as the
// reference does), a last line without its newline too.
func TestStdinEOFAnswered(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	reqs := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"batch","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"task_passport_new","arguments":{"title":"t","goal":"g"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"task_passport_list","arguments":{}}}`,
	}, "\n")
	cmd := exec.Command(tpBin, "mcp")
	cmd.Env = env(t, filepath.Join(work, "store"), "m1")
	cmd.Dir = work
	cmd.Stdin = strings.NewReader(reqs)
	cmd.Stderr = &testLog{t: t}
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.Output(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("tp mcp did not exit after stdin closed")
	}
	if err != nil {
		t.Fatalf("tp mcp: %v", err)
	}
	seen := map[float64]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Result != nil {
			seen[m.ID] = true
		}
	}
	for _, id := range []float64{1, 2, 3, 4} {
		if !seen[id] {
			t.Errorf("request %v was not answered:\n%s", id, out)
		}
	}
}
