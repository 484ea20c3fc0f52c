package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tp-dev/tp/mcp"
)

// withActs is environ with TP_ACTS replaced.
func withActs(environ []string, dir string) []string {
	out := []string{}
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "TP_ACTS=") {
			out = append(out, kv)
		}
	}
	return append(out, "TP_ACTS="+dir)
}

// TestActsToolsOverGit: with the acts folder in git (D20), the acts tools
// pull before they read and commit and push what they write, as tp acts
// does: the agent's server syncs and claims, the principal settles on a
// laptop (another clone), and the agent's wait sees the settlement through
// a pull. With --offline nothing is pulled or pushed.
func TestActsToolsOverGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	work := t.TempDir()
	base := env(t, filepath.Join(work, "store"), "server")
	remote := filepath.Join(work, "remote.git")
	server, laptop := filepath.Join(work, "server"), filepath.Join(work, "laptop")
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("init", "--quiet", "--bare", remote)
	tp(t, withActs(base, server), "acts", "init", "--git", remote)
	tp(t, withActs(base, laptop), "acts", "init", "--git", remote)
	doc := filepath.Join(work, "STATE.md")
	if err := os.WriteFile(doc, []byte("## Tasks\n\n- [ ] [owner] Renew the domain\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	progressed := make(chan string, 16)
	// The wait pulls every 300 ms, not every 10 s: the test waits for the
	// settlement to be seen, not for the interval to pass.
	cs := connectConfig(t, withActs(base, server), "2025-06-18", &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			select {
			case progressed <- req.Params.Message:
			default: // only the first is waited for
			}
		},
	}, func(c *mcp.Config) { c.PullEvery = 300 * time.Millisecond })
	synced, _ := call(t, cs, "tp_acts_sync", map[string]any{"document": doc, "project": "demo"}, false)
	key := synced["sent"].([]any)[0].(map[string]any)["key"].(string)
	if got := git("-C", remote, "log", "--format=%s", "-1"); !strings.HasPrefix(got, "tp mcp: acts sync: demo: 1 sent") {
		t.Errorf("the sync was not committed and pushed: %q", got)
	}
	call(t, cs, "tp_acts_claim", map[string]any{"key": key, "outcome": "done", "basis": "the receipt is in the inbox"}, false)
	if got := git("-C", remote, "log", "--format=%s%n%b", "-1"); !strings.Contains(got, "tp mcp: acts: demo: claimed c:"+key) || !strings.Contains(got, "record c:"+key) {
		t.Errorf("the claim was not committed and pushed: %q", got)
	}

	// The wait starts; the principal settles on the laptop and pushes; the
	// server's wait pulls and returns settled.
	done := make(chan map[string]any, 1)
	go func() {
		p := &sdk.CallToolParams{Name: "tp_acts_wait", Arguments: map[string]any{"key": key, "timeout_seconds": 120}}
		p.SetProgressToken("w")
		res, err := cs.CallTool(context.Background(), p)
		if err != nil || res.IsError {
			t.Errorf("wait: %v %+v", err, res)
			done <- nil
			return
		}
		done <- res.StructuredContent.(map[string]any)
	}()
	// The wait has started when it reports progress; neither wait below
	// blocks past a deadline (the tool's own timeout is 120 s).
	select {
	case <-progressed:
	case got := <-done:
		t.Fatalf("the wait returned before it started waiting: %v", got)
	case <-time.After(60 * time.Second):
		t.Fatal("the wait reported no progress in 60 s")
	}
	keyFile := filepath.Join(work, "principal_key")
	writeKey(t, keyFile)
	out := tp(t, withActs(base, laptop), "acts", "settle", key, "--outcome", "done", "--signing-key", keyFile)
	settled := regexp.MustCompile(`written settled (s:\S+)`).FindStringSubmatch(out)
	if settled == nil {
		t.Fatalf("settle: %s", out)
	}
	var got map[string]any
	select {
	case got = <-done:
	case <-time.After(150 * time.Second):
		t.Fatal("the wait did not return after the settlement was pushed")
	}
	if got == nil {
		t.FailNow()
	}
	if act := got["act"].(map[string]any); got["settled"] != true || act["settlement"] != settled[1] {
		t.Errorf("the wait did not see the laptop's settlement: %v", got)
	}

	// --offline: a write stays in the server's clone, not pushed.
	before := git("-C", remote, "rev-parse", "HEAD")
	cmd := exec.Command(tpBin, "mcp", "--offline")
	cmd.Env = withActs(base, server)
	off, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	call(t, off, "tp_acts_note", map[string]any{"key": key, "text": "noted offline"}, false)
	if after := git("-C", remote, "rev-parse", "HEAD"); after != before {
		t.Error("--offline pushed")
	}
	if st := git("-C", server, "status", "--porcelain"); !strings.Contains(st, "records/") {
		t.Errorf("--offline: the note is not in the clone's working tree: %q", st)
	}
}
