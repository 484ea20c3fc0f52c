package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

// envValue is name's value in an environment list.
func envValue(environ []string, name string) string {
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// writeKey writes an unencrypted ed25519 key in OpenSSH's format, as
// ssh-keygen -t ed25519 -N "" would: the principal's key for `tp acts settle`.
func writeKey(t *testing.T, path string) {
	t.Helper()
	sshtest.KeyFile(t, path, "principal@test")
}

// tp runs the tp command line with environ (the principal's side of the
// test: what only a person does, outside the MCP server).
func tp(t *testing.T, environ []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tpBin, args...)
	cmd.Env = environ
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tp %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// recordTypes lists every record in a project's log as "type origin".
func recordTypes(t *testing.T, actsDir, project string) []string {
	t.Helper()
	ld, err := recordlog.OpenLog(actsDir).Load(project)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range ld.Records {
		out = append(out, r.Type+" "+r.Origin)
	}
	return out
}

// TestActsTools: sync a state document, list, claim, note, withdraw, and
// wait — once until the timeout passes, once until the principal settles
// (with `tp acts settle`, signed). No tool writes a settled, reopened or
// principal record (Acts 0.3 §10), and a forged settlement never ends a wait.
func TestActsTools(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	environ := env(t, filepath.Join(work, "store"), "m1")
	actsDir := envValue(environ, "TP_ACTS")
	doc := filepath.Join(work, "STATE.md")
	if err := os.WriteFile(doc, []byte("# Demo\n\n## Tasks\n\n- [ ] [owner] Renew the domain\n- [ ] [owner] Sign the lease\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	progressed := make(chan string, 16)
	cs := connectWith(t, environ, "2025-06-18", &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			progressed <- req.Params.Message
		},
	})

	// A dry run writes nothing; a sync raises both lines as records.
	dry, _ := call(t, cs, "tp_acts_sync", map[string]any{"document": doc, "project": "demo", "dry_run": true}, false)
	if dry["dry_run"] != true || len(dry["sent"].([]any)) != 2 || dry["written"] != false {
		t.Fatalf("dry run: %v", dry)
	}
	if got := recordTypes(t, actsDir, "demo"); len(got) != 0 {
		t.Fatalf("a dry run wrote records: %v", got)
	}
	synced, _ := call(t, cs, "tp_acts_sync", map[string]any{"document": doc, "project": "demo"}, false)
	if len(synced["sent"].([]any)) != 2 || synced["written"] != true || synced["stamped"].(float64) != 2 {
		t.Fatalf("sync: %v", synced)
	}
	stamped, _ := os.ReadFile(doc)
	keys := regexp.MustCompile(`\(waiting on owner: (\S+)\)`).FindAllStringSubmatch(string(stamped), -1)
	if len(keys) != 2 {
		t.Fatalf("the document was not stamped with keys:\n%s", stamped)
	}
	_, msg := call(t, cs, "tp_acts_sync", map[string]any{"document": doc, "project": "demo", "profile": "en", "principal_tag": "Owner"}, true)
	if !strings.Contains(msg, "does not apply to the en profile") {
		t.Errorf("a principal tag for en: %q", msg)
	}

	listed, _ := call(t, cs, "tp_acts_list", map[string]any{"project": "demo"}, false)
	list := listed["acts"].([]any)
	if len(list) != 2 || listed["data_notice"] == nil {
		t.Fatalf("list: %v", listed)
	}
	byText := map[string]map[string]any{}
	for _, a := range list {
		m := a.(map[string]any)
		if m["status"] != "open" || m["need"] != "active" {
			t.Errorf("a new act: %v", m)
		}
		byText[m["text"].(string)] = m
	}
	renew, lease := byText["Renew the domain"]["key"].(string), byText["Sign the lease"]["key"].(string)
	if renew == "" || lease == "" {
		t.Fatalf("acts by text: %v", byText)
	}

	// Claim, note and withdraw are the agent's records; none settles.
	claimed, _ := call(t, cs, "tp_acts_claim", map[string]any{"key": renew, "outcome": "done", "basis": "the registrar's receipt is in the inbox"}, false)
	if claimed["type"] != "claimed" || claimed["act"].(map[string]any)["status"] != "open" || claimed["act"].(map[string]any)["claims"].(float64) != 1 {
		t.Errorf("claim: %v", claimed)
	}
	noted, _ := call(t, cs, "tp_acts_note", map[string]any{"key": renew, "project": "demo", "text": "renewal is due on the 3rd"}, false)
	if noted["type"] != "note" || noted["act"].(map[string]any)["notes"].(float64) != 1 || noted["act"].(map[string]any)["status"] != "open" {
		t.Errorf("note: %v", noted)
	}
	withdrawn, _ := call(t, cs, "tp_acts_withdraw", map[string]any{"key": lease}, false)
	if withdrawn["type"] != "withdrawn" || withdrawn["act"].(map[string]any)["need"] != "withdrawn" || withdrawn["act"].(map[string]any)["status"] != "open" {
		t.Errorf("withdraw: %v", withdrawn)
	}
	for _, bad := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"tp_acts_withdraw", map[string]any{"key": lease}, "already withdrawn"},
		{"tp_acts_claim", map[string]any{"key": renew, "outcome": "already_done", "basis": "b"}, `"already_done" is not one of done, dropped`},
		{"tp_acts_claim", map[string]any{"key": renew, "outcome": "done", "basis": " "}, "needs --basis"},
		{"tp_acts_claim", map[string]any{"key": renew, "outcome": "done", "basis": "b", "origin": "principal"}, `unknown member "origin"`},
		{"tp_acts_note", map[string]any{"key": renew, "text": "x", "authority": map[string]any{"kind": "principal"}}, `unknown member "authority"`},
		{"tp_acts_note", map[string]any{"key": "../escape", "text": "x"}, "is not a key"},
		{"tp_acts_claim", map[string]any{"key": "task-demo-0000000000", "outcome": "done", "basis": "b"}, "no act with key"},
		{"tp_acts_wait", map[string]any{"key": renew, "timeout_seconds": 7200}, "timeout_seconds: must be at most 3600"},
	} {
		_, msg := call(t, cs, bad.tool, bad.args, true)
		if !strings.Contains(msg, bad.want) {
			t.Errorf("%s %v: %q does not say %q", bad.tool, bad.args, msg, bad.want)
		}
	}
	// A secret never goes into a record (D5), whichever field carries it;
	// nothing is written.
	before := recordTypes(t, actsDir, "demo")
	for _, bad := range []struct {
		tool string
		args map[string]any
	}{
		{"tp_acts_note", map[string]any{"key": renew, "text": "push with ghp_0123456789abcdefghijklmnopqrstuvwxyz"}},
		{"tp_acts_claim", map[string]any{"key": renew, "outcome": "done", "basis": "paid with sk_live_0123456789abcdefghijklmn"}},
	} {
		_, msg := call(t, cs, bad.tool, bad.args, true)
		if !strings.Contains(msg, "credential") {
			t.Errorf("%s: %q does not say credential", bad.tool, msg)
		}
	}
	if after := recordTypes(t, actsDir, "demo"); len(after) != len(before) {
		t.Errorf("a refused note or claim wrote a record: %v → %v", before, after)
	}
	// Tools that would settle do not exist.
	for _, name := range []string{"tp_acts_settle", "tp_acts_reopen", "tp_acts_principal"} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: map[string]any{"key": renew, "outcome": "done"}})
		if err == nil && !res.IsError {
			t.Errorf("%s answered", name)
		}
	}
	for _, rt := range recordTypes(t, actsDir, "demo") {
		if strings.HasPrefix(rt, "settled") || strings.HasPrefix(rt, "reopened") || strings.HasSuffix(rt, " principal") {
			t.Errorf("a tool wrote a principal-side record: %s", rt)
		}
	}

	// A wait whose timeout passes: not settled, timed out, the act as read.
	waited, _ := call(t, cs, "tp_acts_wait", map[string]any{"key": renew, "timeout_seconds": 0.3}, false)
	if waited["settled"] != false || waited["timed_out"] != true || waited["act"].(map[string]any)["status"] != "open" {
		t.Errorf("an expired wait: %v", waited)
	}

	// The principal settles the lease (signed; trust on first use makes the
	// key the project's principal), so forged settlements fail from now on.
	key := filepath.Join(work, "principal_key")
	writeKey(t, key)
	out := tp(t, environ, "acts", "settle", lease, "--project", "demo", "--outcome", "dropped", "--signing-key", key)
	if !strings.Contains(out, "trust on first use") {
		t.Fatalf("settle: %s", out)
	}

	// A wait in flight returns when the principal settles; a forged
	// (unsigned) settlement written meanwhile does not end it.
	type waitResult struct {
		res *sdk.CallToolResult
		err error
	}
	done := make(chan waitResult, 1)
	go func() {
		p := &sdk.CallToolParams{Name: "tp_acts_wait", Arguments: map[string]any{"key": renew, "project": "demo", "timeout_seconds": 120}}
		p.SetProgressToken("wait-1")
		res, err := cs.CallTool(context.Background(), p)
		done <- waitResult{res, err}
	}()
	select {
	case m := <-progressed: // the wait read the act unsettled and is waiting
		if !strings.Contains(m, "waiting for the principal to settle "+renew) {
			t.Errorf("progress message %q", m)
		}
	case r := <-done:
		t.Fatalf("the wait returned before the act was settled: %+v %v", r.res, r.err)
	}
	f, err := actsession.New(recordlog.OpenLog(actsDir), actsession.Options{Offline: true}).Find(context.Background(), "demo", renew)
	if err != nil {
		t.Fatal(err)
	}
	st := f.State
	forged, err := acts.BuildSettle(st, acts.Sender{By: "agent:m1", Decider: "p:someone", Now: time.Now().UTC().Format(time.RFC3339)}, "done", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recordlog.OpenLog(actsDir).WriteAll(forged); err != nil {
		t.Fatal(err)
	}
	short, _ := call(t, cs, "tp_acts_wait", map[string]any{"key": renew, "timeout_seconds": 0}, false)
	if short["settled"] != false {
		t.Fatalf("a forged settlement counts as settled: %v", short)
	}
	out = tp(t, environ, "acts", "settle", renew, "--project", "demo", "--outcome", "done", "--signing-key", key, "--note", "renewed for two years")
	real := regexp.MustCompile(`written settled (s:\S+)`).FindStringSubmatch(out)
	if real == nil {
		t.Fatalf("settle: %s", out)
	}
	r := <-done
	if r.err != nil || r.res.IsError {
		t.Fatalf("wait: %v %+v", r.err, r.res)
	}
	var got struct {
		Settled bool `json:"settled"`
		Act     struct {
			Status, Outcome, Settlement string
			SettlementNote              string                          `json:"settlement_note"`
			Notes                       int                             `json:"notes"`
			NoteList                    []struct{ Origin, Text string } `json:"note_list"`
		} `json:"act"`
	}
	b, _ := json.Marshal(r.res.StructuredContent)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !got.Settled || got.Act.Status != "settled" || got.Act.Outcome != "done" || got.Act.Settlement != real[1] {
		t.Errorf("the wait after the principal settled (%s): %s", real[1], b)
	}
	if got.Act.Settlement == forged[0].ID {
		t.Error("the wait took the forged settlement")
	}
	// The principal's note on the settlement and the notes about the act
	// reach the agent.
	if got.Act.SettlementNote != "renewed for two years" {
		t.Errorf("the settlement's note did not reach the agent: %s", b)
	}
	if got.Act.Notes == 0 || len(got.Act.NoteList) != got.Act.Notes || got.Act.NoteList[0].Text != "renewal is due on the 3rd" {
		t.Errorf("the notes did not reach the agent: %s", b)
	}
	// A settled act takes no claim and no withdrawal: only the principal
	// reopens it (Acts 0.3 §10).
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"tp_acts_claim", map[string]any{"key": renew, "outcome": "done", "basis": "b"}},
		{"tp_acts_withdraw", map[string]any{"key": renew}},
	} {
		_, msg := call(t, cs, c.tool, c.args, true)
		if !strings.Contains(msg, "is settled") {
			t.Errorf("%s on a settled act: %q", c.tool, msg)
		}
	}
}
