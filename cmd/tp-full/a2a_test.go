package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	"github.com/rogpeppe/go-internal/testscript"

	tpa2a "github.com/tp-dev/tp/a2a"
	"github.com/tp-dev/tp/internal/scripttest"
)

// TestA2AScripts runs cmd/tp-full/testdata/a2a/*.txtar: black-box tests that
// start `tp a2a serve` on a loopback port (a real process: the test binary
// as tp) and drive it with a2a-go's client through the a2a command below
// (D23).
func TestA2AScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "a2a"),
		Setup: func(env *testscript.Env) error {
			scripttest.Isolate(env)
			// A free loopback port for this script's server.
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return err
			}
			env.Setenv("A2A_PORT", strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
			return ln.Close()
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"capture": scripttest.Capture, "a2a": a2aCmd},
	})
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.next.RoundTrip(r)
}

func a2aBase(ts *testscript.TestScript) string {
	return "http://127.0.0.1:" + ts.Getenv("A2A_PORT")
}

func a2aClient(ts *testscript.TestScript) *a2aclient.Client {
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, a2aBase(ts))
	if err != nil {
		ts.Fatalf("resolve the agent card: %v", err)
	}
	hc := &http.Client{Timeout: time.Minute, Transport: bearer{ts.Getenv("A2A_TOKEN"), http.DefaultTransport}}
	c, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithJSONRPCTransport(hc))
	if err != nil {
		ts.Fatalf("a2a client: %v", err)
	}
	return c
}

// checkTask checks a Task's state and, when TP_A2A_SCHEMA names A2A 0.3's
// JSON schema, validates it (a2aschema_test.go).
func checkTask(ts *testscript.TestScript, t *sdk.Task, state string) {
	if string(t.Status.State) != state {
		ts.Fatalf("task %s is %s, want %s (%v)", t.ID, t.Status.State, state, statusText(t))
	}
	b, err := json.Marshal(t)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	if err := validateA2A("Task", b); err != nil {
		ts.Fatalf("the Task does not validate against A2A 0.3's schema: %v", err)
	}
	ts.Logf("task %s: %s — %s", t.ID, t.Status.State, statusText(t))
}

func statusText(t *sdk.Task) string {
	if t.Status.Message == nil {
		return ""
	}
	var s []string
	for _, p := range t.Status.Message.Parts {
		if tp, ok := p.(sdk.TextPart); ok {
			s = append(s, tp.Text)
		}
	}
	return strings.Join(s, " ")
}

func filePart(ts *testscript.TestScript, file string) sdk.Part {
	b, err := os.ReadFile(ts.MkAbs(file))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	mt := tpa2a.MediaBag
	if strings.HasSuffix(file, ".json") {
		mt = tpa2a.MediaFlat
	}
	return sdk.FilePart{File: sdk.FileBytes{FileMeta: sdk.FileMeta{MimeType: mt, Name: filepath.Base(file)}, Bytes: base64.StdEncoding.EncodeToString(b)}}
}

// a2aCmd is the agent's side of the loop (D23):
//
//	a2a wait                        until the server answers (its card)
//	a2a card                        the card declares the TaskPack extension
//	a2a send FILE STATE             message/send with FILE as a FilePart; sets $TASK
//	a2a send FILE error REGEXP      ... answered with a JSON-RPC error matching REGEXP
//	a2a sendtask TASKJSON STATE     message/send with an exported Task as a DataPart
//	a2a text TEXT STATE             message/send with only a text part
//	a2a get ID STATE [RECEIPT]      tasks/get; RECEIPT: the receipt artifact's bytes equal that file
//	a2a cancel ID STATE             tasks/cancel
//	a2a hostile FILE                write a ZIP with a path-traversal entry
//	a2a flood MB [declared]         a raw request of MB MiB, streamed (with its Content-Length if declared)
//	                                answered with a JSON-RPC error
//
// $A2A_TOKEN, when set, is sent as the bearer token.
func a2aCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: a2a wait|card|send|sendtask|text|get|cancel|flood ...")
	}
	ctx := context.Background()
	switch args[0] {
	case "wait":
		// A deadline, not a count of tries: on a loaded machine the
		// server's start alone has taken more than the 10 s a count of
		// 200 short sleeps allowed.
		deadline := time.Now().Add(time.Minute)
		for {
			resp, err := http.Get(a2aBase(ts) + "/.well-known/agent-card.json")
			if err == nil {
				resp.Body.Close()
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("the server never answered within a minute: %v", err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	case "gone":
		// After kill: the killed server may still hold the port when the
		// next one binds it (kill does not wait), so wait until nothing
		// answers there, with a deadline.
		deadline := time.Now().Add(time.Minute)
		for {
			c, err := net.DialTimeout("tcp", "127.0.0.1:"+ts.Getenv("A2A_PORT"), time.Second)
			if err != nil {
				return
			}
			c.Close()
			if time.Now().After(deadline) {
				ts.Fatalf("the killed server still answered after a minute")
			}
			time.Sleep(20 * time.Millisecond)
		}
	case "card":
		card, err := agentcard.DefaultResolver.Resolve(ctx, a2aBase(ts))
		if err != nil {
			ts.Fatalf("%v", err)
		}
		b, _ := json.Marshal(card)
		if err := validateA2A("AgentCard", b); err != nil {
			ts.Fatalf("the card does not validate against A2A 0.3's schema: %v", err)
		}
		found := false
		for _, e := range card.Capabilities.Extensions {
			found = found || e.URI == tpa2a.ExtensionURI
		}
		if !found {
			ts.Fatalf("the card does not declare %s: %s", tpa2a.ExtensionURI, b)
		}
		if (len(card.Security) > 0) != (ts.Getenv("A2A_TOKEN") != "") {
			ts.Fatalf("the card's security (%v) does not match whether a token is in use", card.Security)
		}
	case "send", "sendtask", "text":
		if len(args) < 3 {
			ts.Fatalf("usage: a2a %s ARG STATE | ARG error REGEXP", args[0])
		}
		var part sdk.Part
		switch args[0] {
		case "send":
			part = filePart(ts, args[1])
		case "sendtask":
			var data map[string]any
			if err := json.Unmarshal([]byte(ts.ReadFile(args[1])), &data); err != nil {
				ts.Fatalf("%v", err)
			}
			part = sdk.DataPart{Data: data}
		case "text":
			part = sdk.TextPart{Text: args[1]}
		}
		res, err := a2aClient(ts).SendMessage(ctx, &sdk.MessageSendParams{Message: sdk.NewMessage(sdk.MessageRoleUser, part)})
		if args[2] == "error" {
			if err == nil {
				ts.Fatalf("message/send succeeded (%v); want an error", res)
			}
			if len(args) > 3 && !regexp.MustCompile(args[3]).MatchString(err.Error()) {
				ts.Fatalf("error %q does not match %s", err, args[3])
			}
			ts.Logf("refused: %v", err)
			return
		}
		if err != nil {
			ts.Fatalf("message/send: %v", err)
		}
		t, ok := res.(*sdk.Task)
		if !ok {
			ts.Fatalf("message/send answered %T, want a Task", res)
		}
		checkTask(ts, t, args[2])
		ts.Setenv("TASK", string(t.ID))
	case "get", "cancel":
		if len(args) < 3 {
			ts.Fatalf("usage: a2a %s ID STATE", args[0])
		}
		c := a2aClient(ts)
		var t *sdk.Task
		var err error
		if args[0] == "get" {
			t, err = c.GetTask(ctx, &sdk.TaskQueryParams{ID: sdk.TaskID(args[1])})
		} else {
			t, err = c.CancelTask(ctx, &sdk.TaskIDParams{ID: sdk.TaskID(args[1])})
		}
		if args[2] == "error" {
			if err == nil {
				ts.Fatalf("%s succeeded; want an error", args[0])
			}
			return
		}
		if err != nil {
			ts.Fatalf("%s: %v", args[0], err)
		}
		checkTask(ts, t, args[2])
		if len(args) > 3 {
			want, err := os.ReadFile(ts.MkAbs(args[3]))
			if err != nil {
				ts.Fatalf("%v", err)
			}
			fb, err := receiptBytes(t)
			if err != nil {
				ts.Fatalf("%v", err)
			}
			if !bytes.Equal(fb, want) {
				ts.Fatalf("the receipt artifact (%d bytes) is not %s (%d bytes)", len(fb), args[3], len(want))
			}
		}
	case "hostile":
		// A ZIP whose entry climbs out of the bag (D10 path-traversal).
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, name := range []string{"bagit.txt", "../../evil.sh"} {
			w, err := zw.Create(name)
			if err != nil {
				ts.Fatalf("%v", err)
			}
			w.Write([]byte("BagIt-Version: 1.0\n"))
		}
		zw.Close()
		if err := os.WriteFile(ts.MkAbs(args[1]), buf.Bytes(), 0o644); err != nil {
			ts.Fatalf("%v", err)
		}
	case "flood":
		mb, err := strconv.Atoi(args[1])
		if err != nil {
			ts.Fatalf("%v", err)
		}
		a2aFlood(ts, int64(mb)<<20, len(args) > 2 && args[2] == "declared")
	default:
		ts.Fatalf("a2a: unknown %s", args[0])
	}
}

func receiptBytes(t *sdk.Task) ([]byte, error) {
	for _, a := range t.Artifacts {
		if a.ID != "receipt" {
			continue
		}
		for _, p := range a.Parts {
			if fp, ok := p.(sdk.FilePart); ok {
				if fb, ok := fp.File.(sdk.FileBytes); ok {
					return base64.StdEncoding.DecodeString(fb.Bytes)
				}
			}
		}
	}
	return nil, fmt.Errorf("the Task has no receipt artifact")
}

// flood is a message/send whose one file part is n bytes of base64 that
// is never held: the body is generated as it is sent.
type flood struct {
	head, tail []byte
	n          int64
	sent       atomic.Int64
}

func (f *flood) Read(p []byte) (int, error) {
	total := int64(len(f.head)) + f.n + int64(len(f.tail))
	sent := f.sent.Load()
	if sent >= total {
		return 0, io.EOF
	}
	i := 0
	for i < len(p) && sent < total {
		switch {
		case sent < int64(len(f.head)):
			p[i] = f.head[sent]
		case sent < int64(len(f.head))+f.n:
			p[i] = 'A'
		default:
			p[i] = f.tail[sent-int64(len(f.head))-f.n]
		}
		i++
		sent++
	}
	f.sent.Store(sent)
	return i, nil
}

func a2aFlood(ts *testscript.TestScript, n int64, declared bool) {
	f := &flood{
		head: []byte(`{"jsonrpc":"2.0","id":"1","method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"file","file":{"mimeType":"application/vnd.taskpack+zip","name":"big.taskpack","bytes":"`),
		tail: []byte(`"}}]}}}`),
		n:    n,
	}
	req, err := http.NewRequest("POST", a2aBase(ts)+"/", f)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if declared {
		req.ContentLength = int64(len(f.head)) + n + int64(len(f.tail))
	} else {
		req.ContentLength = -1 // chunked: the server learns the size only by reading
	}
	if tok := ts.Getenv("A2A_TOKEN"); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.Fatalf("the server dropped the request instead of answering it: %v", err)
	}
	defer resp.Body.Close()
	var body struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err := json.Unmarshal(b, &body); err != nil || body.Error == nil {
		ts.Fatalf("a %d-byte part: want a JSON-RPC error, got HTTP %s %q", n, resp.Status, b)
	}
	ts.Logf("a %d-byte part: HTTP %s, JSON-RPC error %d %s (the client sent %d bytes of it)", n, resp.Status, body.Error.Code, body.Error.Message, f.sent.Load())
	if f.sent.Load() >= int64(len(f.head))+n {
		ts.Fatalf("the server read the whole %d-byte part before refusing it", n)
	}
}
