package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// messageLines are lines a client may write, and lines made to confuse a
// reader: every one must read as the SDK's own transport reads it.
var messageLines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"task_passport_open","arguments":{"passport_id":"TP-1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"id\":2,\"method\":\"x\"}"}],"structuredContent":{"id":"TP-1"}}}`,
	`{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"no"}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
	`{"jsonrpc":"2.0","id":3,"result":null}`,
	`{"jsonrpc":"2.0","id":4,"method":null}`,
	`{"jsonrpc":"2.0","id":4,"method":7}`,
	`{"jsonrpc":"2.0","id":4,"method":""}`,
	`{"jsonrpc":"2.0","\u0069d":5,"m\u0065thod":"ping"}`,
	`{"jsonrpc":"2.0","id":6,"method":"p\u0069ng"}`,
	`{"jsonrpc":"2.0","id":7,"method":"a","method":null}`,
	`{"jsonrpc":"2.0","ID":8,"Method":"ping"}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"1.0","id":9,"method":"ping"}`,
	`{"id":9,"method":"ping"}`,
	`{"params":{"id":8,"method":"nested"},"result":[1,{"id":9}],"x":"}{]["}`,
	`{"jsonrpc":"2.0","id": 10 , "method" : "spaced" , "params" : { } }`,
	`{"jsonrpc":"2.0","id":11,"result":"a \\\" quote } and \\\\"}`,
	`{"jsonrpc":"2.0","id":12,"result":1e5,"error":false}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},7]`,
	`[]`,
	`[1,2]`,
	`{}`,
	`null`,
	`"a string"`,
	`7`,
	`{"jsonrpc":"2.0","id":13,"method":"cut`,
	`{"jsonrpc":"2.0","id":14,"method":"x",}`,
	`{"jsonrpc":"2.0","id":15 "method":"x"}`,
	`{"jsonrpc":"2.0","id":16,"method":"x"} trailing`,
	`{"jsonrpc":"2.0","id":16,"method":"x"}{"jsonrpc":"2.0","id":17,"method":"x"}`,
	`{"jsonrpc":"2.0","id":17,"method":"é"}`,
	`{"jsonrpc":"2.0","id":[1,2],"method":{"a":1}}`,
	`{"jsonrpc":"2.0","id":18,"method":"x","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`,
	`{"jsonrpc":"2.0","id":18,"method":"x","params":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`,
}

// readOne is the messages a connection reads before the end of its
// input, or its error (the requests read count as answered: nothing here
// answers them).
func readOne(t testing.TB, tr sdk.Transport) ([]jsonrpc.Message, error) {
	t.Helper()
	c, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var msgs []jsonrpc.Message
	for {
		m, err := c.Read(context.Background())
		if err != nil {
			if len(msgs) > 0 && errors.Is(err, io.EOF) {
				return msgs, nil
			}
			return msgs, err
		}
		msgs = append(msgs, m)
		if lc, ok := c.(*lineConn); ok {
			lc.mu.Lock()
			clear(lc.pending)
			lc.mu.Unlock()
		}
	}
}

// sameAsTheSDK checks that lineTransport reads line as the SDK's own
// stdio transport does: the same messages, or an error where it errs.
func sameAsTheSDK(t testing.TB, line string) {
	t.Helper()
	in := func() io.ReadCloser { return io.NopCloser(strings.NewReader(line + "\n")) }
	want, wantErr := readOne(t, &sdk.IOTransport{Reader: in(), Writer: nopWriteCloser{io.Discard}})
	got, gotErr := readOne(t, &lineTransport{in: in(), out: nopWriteCloser{io.Discard}})
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("%.200s: read error %v, the SDK's %v", line, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%.200s: read %#v, the SDK %#v", line, got, want)
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// TestLinesReadAsTheSDK: each line reads as the SDK's transport reads it.
func TestLinesReadAsTheSDK(t *testing.T) {
	for _, l := range messageLines {
		sameAsTheSDK(t, l)
	}
}

// FuzzLinesReadAsTheSDK: any one line (without surrounding space, which
// tp skips and the SDK's decoder may not) reads as the SDK's transport
// reads it.
func FuzzLinesReadAsTheSDK(f *testing.F) {
	for _, l := range messageLines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if line == "" || strings.TrimSpace(line) != line || strings.ContainsAny(line, "\r\n") {
			return
		}
		sameAsTheSDK(t, line)
	})
}

// TestLines: lines longer than the read buffer, CRLF endings, blank lines
// and a last line without its newline are each one message; a line over
// the cap ends the session with an error that says so.
func TestLines(t *testing.T) {
	big := strings.Repeat("x", 300<<10)
	ping := func(id int, params string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"p":%q}}`, id, params)
	}
	for _, c := range []struct {
		name, in string
		max      int
		params   []string // of each message read, in order
		err      string
	}{
		{"one", ping(1, "a") + "\n", 0, []string{"a"}, ""},
		{"no newline at the end", ping(1, "a") + "\n" + ping(2, "b"), 0, []string{"a", "b"}, ""},
		{"crlf and blank lines", "\r\n" + ping(1, "a") + "\r\n\n  \n" + ping(2, "b") + "\r\n", 0, []string{"a", "b"}, ""},
		{"longer than the buffer", ping(1, big) + "\n" + ping(2, "b") + "\n", 0, []string{big, "b"}, ""},
		{"at the cap", ping(1, "abc") + "\r\n", len(ping(1, "abc")), []string{"abc"}, ""},
		{"over the cap", ping(1, "a") + "\n" + ping(2, "abcd") + "\n", len(ping(1, "abc")), []string{"a"}, "longer than"},
		{"over the cap, past the buffer", ping(1, big) + "\n", 200 << 10, nil, "longer than 204800 bytes"},
		{"malformed", ping(1, "a") + "\n{\n" + ping(2, "b") + "\n", 0, []string{"a"}, "unmarshaling"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs, err := readOne(t, &lineTransport{in: io.NopCloser(strings.NewReader(c.in)), out: nopWriteCloser{io.Discard}, max: c.max})
			if (err != nil) != (c.err != "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("error %v, want one saying %q", err, c.err)
			}
			var got []string
			for _, m := range msgs {
				var p struct{ P string }
				json.Unmarshal(m.(*jsonrpc.Request).Params, &p)
				got = append(got, p.P)
			}
			if !reflect.DeepEqual(got, c.params) {
				t.Errorf("read %.80q, want %.80q", got, c.params)
			}
		})
	}
}

// TestEOFWaitsForAnswers: at the end of the input the connection reads EOF
// only once every request read has its response written.
func TestEOFWaitsForAnswers(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	var out bytes.Buffer
	tr := &lineTransport{in: io.NopCloser(strings.NewReader(in)), out: nopWriteCloser{&out}}
	conn, _ := tr.Connect(context.Background())
	c := conn.(*lineConn)
	ctx := context.Background()
	for range 2 {
		if _, err := c.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	eof := make(chan error, 1)
	go func() { _, err := c.Read(ctx); eof <- err }()
	for waiting := false; !waiting; runtime.Gosched() {
		c.mu.Lock()
		waiting = c.idle != nil
		c.mu.Unlock()
		select {
		case err := <-eof:
			t.Fatalf("read %v before the request was answered", err)
		default:
		}
	}
	if err := c.Write(ctx, &jsonrpc.Response{ID: mustID(t, int64(1)), Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := <-eof; err != io.EOF {
		t.Fatalf("read %v after the answer, want EOF", err)
	}
	if out.String() != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
		t.Errorf("wrote %q", out.String())
	}
}

func mustID(t testing.TB, v any) jsonrpc.ID {
	t.Helper()
	if f, ok := v.(int64); ok {
		v = float64(f)
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestResponsesWrittenAsTheSDK: a response is written byte for byte as
// the SDK encodes it, the result copied as it is where the SDK would only
// copy it.
func TestResponsesWrittenAsTheSDK(t *testing.T) {
	for _, r := range []*jsonrpc.Response{
		{ID: mustID(t, int64(7)), Result: json.RawMessage(`{"content":[{"type":"text","text":"<a & b> \u2028"}],"structuredContent":{"x":"<&>"}}`)},
		{ID: mustID(t, int64(-3)), Result: json.RawMessage(`{}`)},
		{ID: mustID(t, int64(1)<<52), Result: json.RawMessage(`{"a":[1,2,{"b":null}]}`)},
		{ID: mustID(t, "abc<\"é"), Result: json.RawMessage(`{}`)},
		{ID: mustID(t, int64(2)), Error: &jsonrpc.Error{Code: -32602, Message: "bad <params>"}},
		{ID: mustID(t, int64(2)), Error: errors.New("plain")},
		{ID: mustID(t, int64(3)), Result: json.RawMessage("{\n\"pretty\": true\n}")},
	} {
		want, err := jsonrpc.EncodeMessage(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendResponse(nil, r)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("wrote %s (%v), the SDK %s", got, err, want)
		}
	}
}

// serveLines runs a server over pipes, writes lines and returns the
// response lines it reads, until want of them (or the session's end).
// The lines are written whole (a pipe's writes wait for its reads).
func serveLines(t *testing.T, lines []string, want int) ([]string, error) {
	t.Helper()
	s := New(Config{Log: io.Discard, WorkDir: t.TempDir(), Env: func(string) string { return "" }})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), inR, outW); outW.Close() }()
	var got []string
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	// The first line (initialize) is answered before the rest is sent,
	// as a client waits for the protocol version.
	for i, l := range lines {
		io.WriteString(inW, l+"\n")
		if i == 0 && sc.Scan() {
			got = append(got, sc.Text())
		}
	}
	for len(got) < want && sc.Scan() {
		got = append(got, sc.Text())
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	return got, <-done
}

// TestBatches: under a protocol version before 2025-06-18 a batch's
// requests are answered together, in one array, its notifications not at
// all; from 2025-06-18 on a batch is refused and the session ends.
func TestBatches(t *testing.T) {
	initialize := func(version string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	}
	batch := `[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"three","method":"ping"}]`
	got, err := serveLines(t, []string{initialize("2024-11-05"), batch}, 2)
	if err != nil || len(got) != 2 {
		t.Fatalf("2024-11-05: %q, %v", got, err)
	}
	var answers []struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(got[1]), &answers); err != nil || len(answers) != 2 || answers[0].ID != 2.0 || answers[1].ID != "three" ||
		string(answers[0].Result) != "{}" || string(answers[1].Result) != "{}" {
		t.Errorf("2024-11-05: the batch was answered %s (%v)", got[1], err)
	}

	got, err = serveLines(t, []string{initialize("2025-06-18"), batch, `{"jsonrpc":"2.0","id":4,"method":"ping"}`}, 3)
	if err == nil || !strings.Contains(err.Error(), "batching is not supported") || len(got) != 1 {
		t.Errorf("2025-06-18: a batch was not refused: %q, %v", got, err)
	}
}
