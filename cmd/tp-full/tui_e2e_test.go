package main

// End-to-end in a real terminal: tmux runs the built tp at 80×24, the test
// types keys (send-keys) and reads the screen (capture-pane). It lands a
// pack — declining one check's `how`, running another that needs the
// pack's luggage (r, then y) — answers an ask on the way, and settles an
// act in the principal's inbox. It skips cleanly where tmux is missing
// (apt-get install tmux) and under -short.

import (
	"bytes"
	"fmt"
	"github.com/tp-dev/tp/cmd/cli"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"github.com/tp-dev/tp/internal/store"
)

type tmuxTerm struct {
	t       *testing.T
	session string
}

func newTmux(t *testing.T, dir string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	session := fmt.Sprintf("tp-e2e-%d-%d", os.Getpid(), time.Now().UnixNano())
	var cmd strings.Builder
	cmd.WriteString("cd " + shellQuote(dir) + " && env")
	for _, e := range env {
		cmd.WriteString(" " + shellQuote(e))
	}
	for _, a := range args {
		cmd.WriteString(" " + shellQuote(a))
	}
	// Keep the pane after tp exits so its last words can be read.
	cmd.WriteString("; echo '[tp exited]'; sleep 600")
	out, err := exec.Command("tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", cmd.String()).CombinedOutput()
	if err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	tm := &tmuxTerm{t: t, session: session}
	t.Cleanup(func() { exec.Command("tmux", "kill-session", "-t", session).Run() })
	return tm
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (tm *tmuxTerm) keys(keys ...string) {
	tm.t.Helper()
	args := append([]string{"send-keys", "-t", tm.session}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		tm.t.Fatalf("send-keys %v: %v %s", keys, err, out)
	}
}

func (tm *tmuxTerm) typeText(s string) {
	tm.t.Helper()
	if out, err := exec.Command("tmux", "send-keys", "-t", tm.session, "-l", s).CombinedOutput(); err != nil {
		tm.t.Fatalf("send-keys -l: %v %s", err, out)
	}
}

func (tm *tmuxTerm) screen() string {
	out, err := exec.Command("tmux", "capture-pane", "-p", "-t", tm.session).Output()
	if err != nil {
		tm.t.Fatalf("capture-pane: %v", err)
	}
	return string(out)
}

// waitFor polls the screen until it shows want (a readiness wait, not a
// timing assertion: the generous limit only stops a hung test).
func (tm *tmuxTerm) waitFor(want string) string {
	tm.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := tm.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("screen never showed %q:\n%s", want, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func runTP(t *testing.T, bin, dir string, env []string, args ...string) string {
	t.Helper()
	c := exec.Command(bin, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), env...)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("tp %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestTUIEndToEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: no terminal end-to-end")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed (apt-get install tmux)")
	}
	bin := tpBinary(t)
	dir := t.TempDir()
	storeA, storeB, actsDir := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "acts")
	alice := []string{"TP_STORE=" + storeA, "TP_MACHINE=alpha", "TP_ACTOR=alice", "NO_COLOR=1"}
	bobKey := filepath.Join(dir, "bob", "id_ed25519")
	if _, err := sshtest.WriteKeyFile(bobKey, "bob@beta"); err != nil {
		t.Fatal(err)
	}
	bob := []string{"TP_STORE=" + storeB, "TP_MACHINE=beta", "TP_ACTOR=bob", "NO_COLOR=1", "TP_ACTS=" + actsDir, "TERM=xterm-256color", "TP_SIGNING_KEY=" + bobKey}

	runTP(t, bin, dir, alice, "new", "--title", "Image pipeline", "--goal", "Generate product images", "--plain")
	st, _ := store.Open(storeA)
	es, _, _ := st.List()
	if len(es) != 1 {
		t.Fatalf("%d passports", len(es))
	}
	// The second check needs the luggage: data.txt travels in the pack and
	// is gone from the folder tp land runs in, so the check passes only
	// where the luggage was unpacked (issue 10: checks run where the work is).
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte("x marks the spot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runTP(t, bin, dir, alice, "pack", es[0].ID, "--out", "h.taskpack", "--file", "data.txt",
		"--ask", "Which bucket should outputs go to?|a bucket name that exists|the old one is full",
		"--check", "files can be created here|touch created-by-how",
		"--check", "the data came along|grep -q x data.txt", "--plain")
	if err := os.Remove(filepath.Join(dir, "data.txt")); err != nil {
		t.Fatal(err)
	}

	t.Run("land", func(t *testing.T) {
		tm := newTmux(t, dir, bob, bin, "land", "h.taskpack")
		tm.waitFor("1 Summary")
		tm.waitFor("Conformance")
		tm.keys("Tab")
		tm.waitFor("suggested by alice@alpha")
		tm.keys("r")
		tm.waitFor("Run this command on your machine?")
		tm.keys("n") // declined: nothing runs
		tm.waitFor("r run…")
		tm.keys("p") // attested passed without running it; the cursor moves to c2
		tm.waitFor("grep -q x data.txt")
		tm.keys("r")
		s := tm.waitFor("Run this command on your machine?")
		if !strings.Contains(s, "staged") {
			t.Fatalf("the confirmation does not name the staging folder:\n%s", s)
		}
		if strings.Contains(s, "to the end, then y runs it") {
			tm.keys("G") // a command taller than the screen is read to its end first
		}
		tm.keys("y")
		tm.waitFor("Ran the sender's command: ✓ exit 0")
		tm.keys("p")
		tm.waitFor("Checks ›") // no required check pending: the step bar shows no count
		tm.keys("Tab", "Tab")
		tm.waitFor("Which bucket should outputs go to?")
		tm.keys("Enter")
		tm.waitFor("Your answer")
		tm.typeText("gs://new-bucket")
		tm.keys("C-s")
		tm.waitFor("answer  gs://new-bucket")
		tm.keys("Tab", "Tab", "Tab")
		tm.waitFor("Land this pack as a new passport")
		tm.keys("Enter")
		tm.waitFor("Landed as TP-")
		tm.keys("Enter")
		out := tm.waitFor("[tp exited]")
		if !strings.Contains(out, "landed h.taskpack as TP-") {
			t.Fatalf("no summary line after the UI:\n%s", out)
		}
		if _, err := os.Stat(filepath.Join(dir, "created-by-how")); err == nil {
			t.Fatal("the sender's how ran although it was declined")
		}
		sb, _ := store.Open(storeB)
		es, _, _ := sb.List()
		if len(es) != 1 {
			t.Fatalf("%d passports in B", len(es))
		}
		asks := store.Asks(es[0].V)
		if len(asks) != 1 || asks[0].Answer() != "gs://new-bucket" || asks[0].AnsweredBy() != "bob@beta" {
			t.Fatalf("ask not answered: %+v", asks)
		}
		checks := store.Checks(es[0].V)
		if len(checks) != 2 || store.CheckStatus(checks[0]) != "passed" || store.CheckStatus(checks[1]) != "passed" {
			t.Fatal("checks not attested")
		}
		if run := checks[0].V.Get("run"); run.Obj() != nil {
			t.Fatalf("a declined command was recorded as run: %s", run.Get("command").Text())
		}
		// The run is recorded with its check (D12): the command, not edited,
		// exit 0, who ran it, and when.
		run := checks[1].V.Get("run")
		exit, ok := run.Get("exit_code").Int()
		edited, _ := run.Get("edited").Bool()
		if run.Get("command").Text() != "grep -q x data.txt" || !ok || exit != 0 || edited ||
			run.Get("ran_by").Text() != "bob@beta" || run.Get("ran_at").Text() == "" {
			t.Fatalf("run not recorded: %s", checks[1].V.Get("run").Get("command").Text())
		}
		if _, err := os.Stat(filepath.Join(storeB, es[0].ID+".files", "data.txt")); err != nil {
			t.Fatalf("the staged luggage did not move into place: %v", err)
		}
	})

	t.Run("settle an act", func(t *testing.T) {
		if out, err := exec.Command(bin, "acts", "--help").CombinedOutput(); err != nil || !strings.Contains(string(out), "inbox") {
			t.Skip("tp acts has no inbox in this build yet")
		}
		text := "Pay the ACME invoice"
		key := acts.DeriveKey("shop", text)
		log := recordlog.OpenLog(actsDir)
		if _, err := log.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(key), Type: acts.TypeRaised,
			Origin: "requester", By: "registrar", Key: key, Project: "shop", TS: "2026-11-01T10:00:00Z",
			Terms: &acts.Terms{Text: text}, TermsRev: 1}); err != nil {
			t.Fatal(err)
		}
		tm := newTmux(t, dir, bob, bin, "acts")
		tm.waitFor(text)
		tm.keys("d")
		tm.waitFor("Write this?")
		tm.waitFor("Nothing is registered yet") // trust on first use, said before anything is written
		tm.keys("y")
		tm.waitFor("written: settled")
		tm.keys("q")
		tm.waitFor("[tp exited]")
		ld, err := log.Load("shop")
		if err != nil {
			t.Fatal(err)
		}
		states, _ := acts.States(ld.Records)
		st := states[acts.ProjectKey{Project: "shop", Key: key}]
		if st == nil || st.Status != acts.StatusSettled || st.Outcome != "done" {
			t.Fatalf("act not settled: %+v", st)
		}
		// The inbox signed it, and registered bob as the principal (D19).
		if ld.Unauthenticated() || len(ld.Rejected) != 0 {
			t.Fatalf("inbox settlement not signed: %v", ld.Rejected)
		}
		for _, r := range ld.Records {
			if r.Type == acts.TypeSettled && (r.SignedBy == nil || r.SignedBy.Principal != "bob") {
				t.Fatalf("settled by %+v", r.SignedBy)
			}
		}
	})
}

// The process's IO carries every screen, and without a terminal every
// command stays headless: plain `tp` prints the home summary instead of
// opening the home screen.
func TestTUIHooksAndHeadlessFallback(t *testing.T) {
	t.Parallel()
	s := full().Screens
	if s == nil || s.Home == nil || s.Land == nil || s.List == nil || s.Show == nil || s.Asks == nil || s.Checks == nil || s.Inbox == nil {
		t.Fatalf("tp-full's screens are not all set: %+v", s)
	}
	env := map[string]string{"TP_STORE": t.TempDir(), "TP_ACTS": t.TempDir()}
	var outb, errb bytes.Buffer
	code := cli.Run(nil, &cli.IO{In: strings.NewReader(""), Out: &outb, Err: &errb, Env: func(k string) string { return env[k] }, Screens: s})
	out := outb.String()
	if code != 0 || !strings.Contains(out, "passports  none") || strings.Contains(out, "tp carries unfinished work") {
		t.Fatalf("plain tp without a terminal: code %d\n%s", code, out)
	}
}

// The home screen's first frame in a real terminal says nothing false
// (issue 20): with 300 passports in the store, whatever frame tmux shows
// first with the passports' heading is either the unread listing (which
// names the files by number and says it is reading them, and claims no
// "none") or the loaded lists, with the right count.
func TestTUIFirstFrameSaysNothingFalse(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: no terminal end-to-end")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed (apt-get install tmux)")
	}
	bin := tpBinary(t)
	dir := t.TempDir()
	storeDir := filepath.Join(dir, "store")
	if err := os.MkdirAll(storeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 300
	const abc = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("TP-FRAM-E%c%c%c", abc[(i/900)%30], abc[(i/30)%30], abc[i%30])
		p := fmt.Sprintf(`{"spec":"2origin/0.1","kind":"task.origin","id":%q,"title":"Passport %d","goal":"Goal","version":1,"created_at":"2026-09-01T07:30:00Z","updated_at":"2026-09-01T07:30:00Z","current_state":"","facts":[],"decisions":[],"actions":[],"artifacts":[],"verification":"","next_steps":[],"learnings":[]}`+"\n", id, i)
		if err := os.WriteFile(filepath.Join(storeDir, id+".json"), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"TP_STORE=" + storeDir, "TP_ACTS=" + filepath.Join(dir, "acts"), "TP_TRUST_DIR=" + filepath.Join(dir, "trust"),
		"TP_MACHINE=alpha", "TP_ACTOR=alice", "NO_COLOR=1", "TERM=xterm-256color", "HOME=" + dir}
	tm := newTmux(t, dir, env, bin)
	s := tm.waitFor("Passports (")
	want := fmt.Sprintf("Passports (%d)", n)
	if !strings.Contains(s, want) {
		t.Fatalf("the first frame counts other than %d passport files:\n%s", n, s)
	}
	if strings.Contains(s, "reading") {
		for _, claim := range []string{"none yet", "nothing waiting", "Passport 0"} {
			if strings.Contains(s, claim) {
				t.Fatalf("the unread first frame claims %q:\n%s", claim, s)
			}
		}
		for _, still := range []string{"reading the acts log", "looking"} {
			if !strings.Contains(s, still) {
				t.Fatalf("the unread first frame does not say it is %q:\n%s", still, s)
			}
		}
	}
	tm.waitFor("Passport 0") // and the lists come
	tm.keys("q")
}
