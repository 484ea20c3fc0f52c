package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/mcp"
)

// world is one machine for in-memory tests: a store, a working directory
// the server is confined to, an acts folder and an identity.
type world struct {
	Store, Work, Acts string
	Env               map[string]string
	Roots             []string // the client's roots; none: the client declares no roots capability
	Log               *bytes.Buffer
	// ProgressEvery is the server's progress interval for tp_acts_wait
	// (0: its default, 5 s).
	ProgressEvery time.Duration
	// ClientOptions are the client's (its notification handlers).
	ClientOptions *sdk.ClientOptions
}

func newWorld(t testing.TB, machine string) *world {
	t.Helper()
	base := t.TempDir()
	w := &world{Store: filepath.Join(base, "store"), Work: filepath.Join(base, "work"), Acts: filepath.Join(base, "acts"), Log: &bytes.Buffer{}}
	mkdir(t, w.Work)
	w.Env = map[string]string{"TP_MACHINE": machine, "TP_ACTOR": "agent-" + machine, "HOME": filepath.Join(base, "home"),
		"XDG_DATA_HOME": filepath.Join(base, "data"), "XDG_CACHE_HOME": filepath.Join(base, "cache")}
	return w
}

// serve starts tp's server in this process and connects a client to it
// over the SDK's in-memory transports.
func (w *world) serve(t testing.TB) *sdk.ClientSession {
	t.Helper()
	st, err := store.Open(w.Store)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	srv := mcp.New(mcp.Config{Store: st, ActsDir: w.Acts, Offline: true, Version: "test", WorkDir: w.Work,
		Env: func(k string) string { return w.Env[k] }, Log: lockedWriter{&mu, w.Log}, ProgressEvery: w.ProgressEvery})
	ct, st2 := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st2)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "tp-test", Version: "1"}, w.ClientOptions)
	for _, r := range w.Roots {
		client.AddRoots(&sdk.Root{URI: (&url.URL{Scheme: "file", Path: r}).String()})
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// result is one tool call's outcome as a test reads it.
type result struct {
	IsError bool
	Text    string         // every text content, joined by newlines
	Doc     map[string]any // the structured content
	Size    int            // bytes of the whole result on the wire
}

// code is an isError result's machine-readable code.
func (r result) code() string {
	e, _ := r.Doc["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func callTool(t testing.TB, cs *sdk.ClientSession, name string, args any) result {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	if !res.IsError {
		checkOutput(t, cs, name, res.StructuredContent)
	}
	r := result{IsError: res.IsError, Text: strings.Join(texts, "\n")}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &r.Doc)
	whole, _ := json.Marshal(res)
	r.Size = len(whole)
	// Every result, a failure too, says that what it quotes is data
	// (TaskPack 0.1 §4.5).
	if n, _ := r.Doc["data_notice"].(string); !strings.Contains(n, "not instructions") {
		t.Errorf("%s: the result does not label its content as data: %.300s", name, r.Text)
	}
	return r
}

// outputSchemas are each session's tools' output schemas, resolved.
var outputSchemas sync.Map // *sdk.ClientSession → map[string]*jsonschema.Resolved

// checkOutput fails the test when a tool's successful result does not
// match the output schema tools/list gives for it. The server does not
// check each result against its schema (addTool); every call a test makes
// is checked here instead.
func checkOutput(t testing.TB, cs *sdk.ClientSession, name string, structured any) {
	t.Helper()
	if err := outputMismatch(cs, name, structured); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

// outputMismatch says how structured does not match name's output schema,
// or nil.
func outputMismatch(cs *sdk.ClientSession, name string, structured any) error {
	v, ok := outputSchemas.Load(cs)
	if !ok {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			return err
		}
		schemas := map[string]*jsonschema.Resolved{}
		for _, tl := range res.Tools {
			b, _ := json.Marshal(tl.OutputSchema)
			var s jsonschema.Schema
			if err := json.Unmarshal(b, &s); err != nil {
				return fmt.Errorf("%s: output schema %s: %v", tl.Name, b, err)
			}
			r, err := s.Resolve(nil)
			if err != nil {
				return fmt.Errorf("%s: output schema: %v", tl.Name, err)
			}
			schemas[tl.Name] = r
		}
		v, _ = outputSchemas.LoadOrStore(cs, schemas)
	}
	schema := v.(map[string]*jsonschema.Resolved)[name]
	if schema == nil {
		return fmt.Errorf("no output schema in tools/list")
	}
	b, _ := json.Marshal(structured)
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("structured content %.300s: %v", b, err)
	}
	if err := schema.Validate(&doc); err != nil {
		return fmt.Errorf("the result does not match its output schema: %v\n%.600s", err, b)
	}
	return nil
}

// ok calls a tool that must succeed.
func ok(t testing.TB, cs *sdk.ClientSession, name string, args any) result {
	t.Helper()
	r := callTool(t, cs, name, args)
	if r.IsError {
		t.Fatalf("%s: %s", name, r.Text)
	}
	return r
}

// fails calls a tool that must fail with code.
func fails(t *testing.T, cs *sdk.ClientSession, name string, args any, code string) result {
	t.Helper()
	r := callTool(t, cs, name, args)
	if !r.IsError {
		t.Fatalf("%s succeeded, want %s: %.400s", name, code, r.Text)
	}
	if r.code() != code {
		t.Errorf("%s: code %q, want %q: %s", name, r.code(), code, r.Text)
	}
	return r
}

// newPassport creates a passport and returns its id.
func newPassport(t testing.TB, cs *sdk.ClientSession) string {
	t.Helper()
	r := ok(t, cs, "task_passport_new", map[string]any{"title": "t", "goal": "g", "next_step": "look"})
	id, _ := r.Doc["passport_id"].(string)
	if id == "" {
		id, _ = r.Doc["id"].(string)
	}
	if id == "" {
		t.Fatalf("no id in %s", r.Text)
	}
	return id
}
