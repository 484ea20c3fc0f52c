package mcp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

// An attacker with write access to the acts folder plants a settlement
// signed with a key that is not the project's principal. The log rejects it
// (D19), and the agent must be told so, as `tp acts list` tells the person:
// tp_acts_list and tp_acts_wait carry the finding (the rejected record's id
// and why), inside a result labelled as data. Before the acts session
// (issue 15) both tools dropped the record without a word.
func TestActsToolsReportForgedSignature(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	environ := env(t, filepath.Join(work, "store"), "m1")
	actsDir := envValue(environ, "TP_ACTS")
	doc := filepath.Join(work, "STATE.md")
	if err := os.WriteFile(doc, []byte("# Demo\n\n## Tasks\n\n- [ ] [owner] Renew the domain\n- [ ] [owner] Sign the lease\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, environ, "2025-06-18")
	call(t, cs, "tp_acts_sync", map[string]any{"document": doc, "project": "demo"}, false)
	stamped, _ := os.ReadFile(doc)
	keys := regexp.MustCompile(`\(waiting on owner: (\S+)\)`).FindAllStringSubmatch(string(stamped), -1)
	if len(keys) != 2 {
		t.Fatalf("the document was not stamped:\n%s", stamped)
	}
	renew, lease := keys[0][1], keys[1][1]

	// The person settles the lease at their terminal: their key becomes
	// the project's principal on this machine.
	key := filepath.Join(work, "principal_key")
	writeKey(t, key)
	tp(t, environ, "acts", "settle", lease, "--project", "demo", "--outcome", "done", "--signing-key", key)

	// The forgery: a settlement of the other act, properly bound to the
	// project's id, signed by a key of the attacker's.
	l := recordlog.OpenLog(actsDir)
	ld, err := l.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	var rs []acts.Record
	for _, r := range ld.Records {
		if r.Key == renew {
			rs = append(rs, r)
		}
	}
	st, err := acts.Lifecycle(rs)
	if err != nil {
		t.Fatal(err)
	}
	forged, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp@m1", Decider: "p:alice", Now: time.Now().UTC().Format(time.RFC3339)}, "done", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	attacker := sshtest.Signer(t)
	if err := acts.SignAll(forged, attacker, ld.Principals.ProjectID); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WriteAll(forged); err != nil {
		t.Fatal(err)
	}
	// The CLI reports it (the yardstick the tools must meet).
	if out := tp(t, environ, "acts", "list", "--project", "demo"); !strings.Contains(out, forged[0].ID) || !strings.Contains(out, "not applied") {
		t.Fatalf("tp acts list does not report the forged record:\n%s", out)
	}

	mentions := func(tool string, doc map[string]any) {
		t.Helper()
		if n, _ := doc["data_notice"].(string); !strings.Contains(n, "not instructions") {
			t.Errorf("%s: the result is not labelled as data: %v", tool, doc)
		}
		fs, _ := doc["findings"].([]any)
		found := false
		for _, f := range fs {
			m, _ := f.(map[string]any)
			if m["id"] == forged[0].ID && m["kind"] == "rejected" && m["key"] == renew {
				text, _ := m["text"].(string)
				why, _ := m["why"].(string)
				if why == "" || !strings.Contains(text, forged[0].ID) || !strings.Contains(text, "not applied") {
					t.Errorf("%s: the finding does not say what and why in one line: %v", tool, m)
				}
				found = true
			}
		}
		if !found {
			b, _ := json.Marshal(doc)
			t.Errorf("%s does not report the forged settlement %s as a finding: %s", tool, forged[0].ID, b)
		}
	}
	listed, _ := call(t, cs, "tp_acts_list", map[string]any{"project": "demo"}, false)
	mentions("tp_acts_list", listed)
	for _, a := range listed["acts"].([]any) {
		if m := a.(map[string]any); m["key"] == renew && m["status"] != "open" {
			t.Errorf("the forged settlement was applied: %v", m)
		}
	}
	all, _ := call(t, cs, "tp_acts_list", map[string]any{}, false)
	mentions("tp_acts_list (all projects)", all)
	waited, _ := call(t, cs, "tp_acts_wait", map[string]any{"key": renew, "timeout_seconds": 0}, false)
	if waited["settled"] != false {
		t.Fatalf("the forged settlement ends the wait: %v", waited)
	}
	mentions("tp_acts_wait", waited)
}
