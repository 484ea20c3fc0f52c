package server

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	sdk "github.com/a2aproject/a2a-go/a2a"

	tpa2a "github.com/tp-dev/tp/a2a"
	"github.com/tp-dev/tp/internal/incoming"
)

// A web page the person has open can make their browser send requests to
// a server on loopback: a cross-origin POST whose Content-Type is
// text/plain (no CORS preflight), or, after DNS rebinding a name of the
// page's own to 127.0.0.1, a same-origin one under that name, whose
// answers the page can read. Neither is an agent sending a pack (D23):
// each is refused before the body is read, and nothing is kept.
func TestBrowserRequestsAreRefused(t *testing.T) {
	t.Parallel()
	obj := sendBody(t)
	cases := []struct {
		name    string
		headers map[string]string
		host    string
	}{
		{"a cross-origin form-like POST", map[string]string{"Content-Type": "text/plain", "Origin": "https://evil.example"}, ""},
		{"a cross-origin POST with no Content-Type", map[string]string{"Origin": "https://evil.example"}, ""},
		{"the browser's fetch metadata", map[string]string{"Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"}, ""},
		{"a JSON POST from a page", map[string]string{"Content-Type": "application/json", "Origin": "https://evil.example"}, ""},
		{"DNS rebinding: a name that is not this server's", map[string]string{"Content-Type": "application/json"}, "evil.example:8421"},
		{"text/plain without an Origin", map[string]string{"Content-Type": "text/plain"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			store := t.TempDir()
			ts := httptest.NewServer(New(Config{StoreDir: store}).Handler())
			defer ts.Close()
			req, err := http.NewRequest(http.MethodPost, ts.URL+"/", strings.NewReader(obj))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.headers {
				req.Header.Set(k, v)
			}
			if c.host != "" {
				req.Host = c.host
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode < 400 {
				t.Errorf("status %d: a browser's request was served", res.StatusCode)
			}
			if es, _ := os.ReadDir(incoming.Dir(store)); len(es) > 0 {
				t.Errorf("a pack from a web page was kept: %d entries in incoming", len(es))
			}
		})
	}

	// An agent's request, as a2a-go's client and curl make it, still works:
	// a loopback name, JSON, no Origin.
	for _, host := range []string{"", "localhost", "[::1]"} {
		store := t.TempDir()
		ts := httptest.NewServer(New(Config{StoreDir: store}).Handler())
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/", strings.NewReader(obj))
		req.Header.Set("Content-Type", "application/json")
		if host != "" {
			req.Host = host + ":" + ts.URL[strings.LastIndexByte(ts.URL, ':')+1:]
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Result *sdk.Task `json:"result"`
		}
		json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		ts.Close()
		if res.StatusCode != 200 || out.Result == nil || out.Result.Status.State != sdk.TaskStateInputRequired {
			t.Errorf("host %q: an agent's message/send was not served (status %d)", host, res.StatusCode)
		}
	}
}

func sendBody(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(exampleFile(t))
	if err != nil {
		t.Fatal(err)
	}
	part := sdk.FilePart{File: sdk.FileBytes{FileMeta: sdk.FileMeta{MimeType: tpa2a.MediaBag, Name: "p.taskpack"}, Bytes: base64.StdEncoding.EncodeToString(raw)}}
	params := sdk.MessageSendParams{Message: sdk.NewMessage(sdk.MessageRoleUser, part)}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": params})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exampleFile(t *testing.T) string {
	t.Helper()
	return "../../examples/handoff.taskpack"
}
