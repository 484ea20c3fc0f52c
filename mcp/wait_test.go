package mcp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLongWaitKeepsAClientAlive: a wait longer than the client's request
// timeout returns its result, because the progress it sends resets the
// timeout of a client that resets on progress (the TypeScript SDK's
// resetTimeoutOnProgress: the default 60 s timeout, a 75 s wait, progress
// every 5 s). The test takes that path scaled by 1/50 so it runs in
// about 3 s instead of 75: the server's progress interval is an option
// (Config.ProgressEvery, 100 ms for 5 s), the client's timeout is 1.2 s
// (for 60 s) and the wait 1.5 s (for 75 s). Without a progressToken no
// progress comes and the same client gives up before the wait ends: the
// control that shows the first half can fail.
func TestLongWaitKeepsAClientAlive(t *testing.T) {
	t.Parallel()
	const (
		clientTimeout = 1200 * time.Millisecond // 60 s / 50
		waitSeconds   = 1.5                     // 75 s / 50
	)
	var mu sync.Mutex
	var onProgress func()
	w := newWorld(t, "m1")
	w.ProgressEvery = 100 * time.Millisecond // 5 s / 50
	w.ClientOptions = &sdk.ClientOptions{ProgressNotificationHandler: func(context.Context, *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		f := onProgress
		mu.Unlock()
		if f != nil {
			f()
		}
	}}
	cs := w.serve(t)
	doc := filepath.Join(w.Work, "STATE.md")
	writeFile(t, doc, "## Tasks\n\n- [ ] [owner] Renew the domain\n")
	ok(t, cs, "tp_acts_sync", map[string]any{"document": doc, "project": "demo"})
	key := regexp.MustCompile(`waiting on owner: (\S+)\)`).FindStringSubmatch(string(mustRead(t, doc)))[1]

	// call is a client with a request timeout that progress resets.
	call := func(withProgress bool) (*sdk.CallToolResult, error) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		timer := time.AfterFunc(clientTimeout, cancel)
		defer timer.Stop()
		mu.Lock()
		onProgress = func() { timer.Reset(clientTimeout) }
		mu.Unlock()
		p := &sdk.CallToolParams{Name: "tp_acts_wait", Arguments: map[string]any{"key": key, "project": "demo", "timeout_seconds": waitSeconds}}
		if withProgress {
			p.SetProgressToken("wait-1")
		}
		return cs.CallTool(ctx, p)
	}
	start := time.Now()
	res, err := call(true)
	if err != nil {
		t.Fatalf("a wait longer than the client's timeout failed although progress came: %v", err)
	}
	if took := time.Since(start); took < clientTimeout {
		t.Fatalf("the wait returned after %v, before the client's timeout: it tests nothing", took)
	}
	m := asMap(t, res.StructuredContent)
	if m["timed_out"] != true || m["settled"] != false {
		t.Errorf("the wait's result: %v", m)
	}
	if _, err := call(false); !errors.Is(err, context.Canceled) {
		t.Errorf("without progress the client should have given up before the wait ended: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
