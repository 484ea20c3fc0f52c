package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

// watchWhile runs tp acts watch with args until it stops (--count), doing
// write once the watch is in place.
func watchWhile(t *testing.T, env map[string]string, write func(), args ...string) (string, string) {
	t.Helper()
	ready := make(chan struct{})
	type result struct {
		code           exitCode
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Env: func(k string) string { return env[k] },
			WatchReady: func() { close(ready) }}
		c := run(append([]string{"acts", "watch", "--offline"}, args...), io)
		done <- result{c, out.String(), errb.String()}
	}()
	select {
	case <-ready:
	case r := <-done:
		t.Fatalf("watch stopped before it was ready: %d %s", r.code, r.stderr)
	}
	write()
	r := <-done
	if r.code != exitOK {
		t.Fatalf("watch: %d %s", r.code, r.stderr)
	}
	return r.stdout, r.stderr
}

func watchRecords(t *testing.T, l *recordlog.Log, project string) []acts.Record {
	key := acts.DeriveKey(project, "Renew the domain")
	base := acts.Record{PH: "0.3", Ext: "acts/0.3", Key: key, Project: project, TS: "2026-12-01T10:00:00Z"}
	raised := base
	raised.ID, raised.Type, raised.Origin, raised.By, raised.Terms, raised.TermsRev = acts.RaisedID(key), acts.TypeRaised, "requester", "registrar:"+project, &acts.Terms{Text: "Renew the domain"}, 1
	settled := base
	settled.ID, settled.Type, settled.Origin, settled.By, settled.Outcome, settled.TermsRev, settled.Authority = "s:x", acts.TypeSettled, "principal", "ps:tp", "done", 1, &acts.Authority{Kind: "principal"}
	claimed := base
	claimed.ID, claimed.Type, claimed.Origin, claimed.By, claimed.Outcome, claimed.Evidence = "c:x", acts.TypeClaimed, "agent", "agent:7", "done", &acts.Evidence{Basis: "paid \x1b[2J"}
	return []acts.Record{raised, settled, claimed}
}

// New records are reported as they appear, in a project created after the
// watch started too; settlements are not (not in the default types);
// untrusted text is sanitised.
func TestActsWatchPrints(t *testing.T) {
	t.Parallel()
	_, env := actsEnv(t)
	l := recordlog.OpenLog(env["TP_ACTS"])
	rs := watchRecords(t, l, "garden")
	stdout, stderr := watchWhile(t, env, func() {
		for _, r := range rs {
			if _, err := l.WriteRecord(r); err != nil {
				t.Error(err)
			}
		}
	}, "--count", "2")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `raised garden task-garden-`) || !strings.Contains(lines[0], `"Renew the domain"`) ||
		!strings.Contains(lines[1], `claimed garden task-garden-`) || !strings.Contains(lines[1], `done by agent:7: "paid \x1b[2J"`) {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if strings.Contains(stdout, "\x1b") || strings.Contains(stdout, "settled") {
		t.Fatalf("stdout:\n%q", stdout)
	}
}

// --exec runs the command with the record as JSON on stdin; --project
// leaves other projects out.
func TestActsWatchExec(t *testing.T) {
	t.Parallel()
	dir, env := actsEnv(t)
	l := recordlog.OpenLog(env["TP_ACTS"])
	out := filepath.Join(dir, "got")
	other := watchRecords(t, l, "other")
	rs := watchRecords(t, l, "garden")
	watchWhile(t, env, func() {
		l.WriteRecord(other[0])
		l.WriteRecord(rs[0])
	}, "--project", "garden", "--count", "1", "--exec", `cat > "`+out+`"; echo "$TP_RECORD_TYPE" >> "`+out+`"`)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := acts.EncodeRecord(rs[0])
	if string(got) != string(want)+"raised\n" {
		t.Fatalf("got:\n%s", got)
	}
}

// D19-watch: a principal who wires `--type settled --exec` to what they do
// on a settlement (deploy, pay, notify a team) must hear only settlements
// that count. An agent writes the acts folder: a settlement it forged
// (unsigned, or signed by its own key) is reported as a problem, never
// handed to --exec; the principal's signed one is.
func TestActsWatchHandsOnOnlyTrustedSettlements(t *testing.T) {
	t.Parallel()
	dir, env := actsEnv(t)
	doc := filepath.Join(dir, "STATE.md")
	os.WriteFile(doc, []byte("## Tasks\n- [ ] [owner] Renew the domain\n- [ ] [owner] Pay the invoice\n"), 0o644)
	if code, _, stderr := runWith(env, "acts", "sync", doc, "--project", "demo"); code != exitOK {
		t.Fatal(stderr)
	}
	renew, pay := acts.DeriveKey("demo", "Renew the domain"), acts.DeriveKey("demo", "Pay the invoice")
	// The principal's first settlement makes the project's principal (D19).
	if code, _, stderr := runWith(env, "acts", "settle", renew, "--outcome", "done"); code != exitOK {
		t.Fatal(stderr)
	}
	agentSigner, err := sshtest.WriteKeyFile(filepath.Join(dir, "agentkey", "id_ed25519"), "agent@box")
	if err != nil {
		t.Fatal(err)
	}
	l := recordlog.OpenLog(env["TP_ACTS"])
	pr, err := l.LoadPrincipals("demo")
	if err != nil || pr.ProjectID == "" {
		t.Fatalf("principals: %v %+v", err, pr)
	}
	forged := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "s:forged", Type: acts.TypeSettled, Origin: "principal", By: "ps:tp",
		Key: pay, Project: "demo", TS: "2026-12-01T10:00:00Z", TermsRev: 1, Outcome: "done", Authority: &acts.Authority{Kind: "principal"}}
	signedByAgent := forged
	signedByAgent.ID = "s:agent-signed"
	if err := acts.SignRecord(&signedByAgent, agentSigner, pr.ProjectID); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "got")
	stdout, stderr := watchWhile(t, env, func() {
		for _, r := range []acts.Record{forged, signedByAgent} {
			if _, err := l.WriteRecord(r); err != nil {
				t.Error(err)
			}
		}
		if code, _, stderr := runWith(env, "acts", "settle", pay, "--outcome", "done", "--note", "paid"); code != exitOK {
			t.Error(stderr)
		}
	}, "--type", "settled", "--count", "1", "--exec", `cat >> "`+out+`"`)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("%v\nstdout %s\nstderr %s", err, stdout, stderr)
	}
	r, err := acts.DecodeRecord(got)
	if err != nil || r.ID == forged.ID || r.ID == signedByAgent.ID || r.Sig == "" || r.Key != pay {
		t.Fatalf("--exec was handed %s (%v)\nstderr %s", got, err, stderr)
	}
	for _, id := range []string{forged.ID, signedByAgent.ID} {
		if !strings.Contains(stderr, id) {
			t.Errorf("stderr does not report %s:\n%s", id, stderr)
		}
	}
	// Printed, the settlement says its outcome and whose signature made it count.
	stdout, _ = watchWhile(t, env, func() {
		if code, _, stderr := runWith(env, "acts", "reopen", pay); code != exitOK {
			t.Error(stderr)
		}
	}, "--type", "reopened", "--count", "1")
	if !strings.Contains(stdout, "reopened demo "+pay) || !strings.Contains(stdout, ", signed by ") || !strings.Contains(stdout, "SHA256:") {
		t.Errorf("stdout %q", stdout)
	}
}
