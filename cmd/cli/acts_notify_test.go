package cli

import (
	"bytes"
	goio "io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/incoming"
)

// lockedBuffer is a terminal for the watch to write to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) Close() error   { return nil }
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// fakeNotifySend puts a notify-send on a PATH of its own that writes its
// arguments, one a line, to the returned file.
func fakeNotifySend(t *testing.T) (pathDir, log string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for notify-send")
	}
	pathDir = t.TempDir()
	log = filepath.Join(pathDir, "calls")
	script := "#!/bin/sh\n{ for a in \"$@\"; do printf '%s\\n' \"$a\"; done; echo ---; } >> " + log + "\n"
	if err := os.WriteFile(filepath.Join(pathDir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return pathDir, log
}

// tp acts watch --notify: one notification per new record, on the
// terminal (OSC 9 here; OSC 777 on a terminal known to show it) and
// through notify-send from PATH; none for the records already in the log;
// the agent's text sanitised (no ESC or BEL of its own reaches the
// terminal), redacted and bounded; a receipt arriving in the store's
// incoming folder is announced too.
func TestActsWatchNotify(t *testing.T) {
	t.Parallel()
	dir, env := actsEnv(t)
	pathDir, calls := fakeNotifySend(t)
	env["PATH"] = pathDir
	env["TP_STORE"] = filepath.Join(dir, "store")
	if err := os.MkdirAll(env["TP_STORE"], 0o700); err != nil {
		t.Fatal(err)
	}
	l := recordlog.OpenLog(env["TP_ACTS"])
	rs := watchRecords(t, l, "garden")
	old := rs[0]
	old.ID, old.Key, old.Terms = acts.RaisedID(acts.DeriveKey("garden", "Old act")), acts.DeriveKey("garden", "Old act"), &acts.Terms{Text: "Old act"}
	if _, err := l.WriteRecord(old); err != nil { // in the log before the watch: not new
		t.Fatal(err)
	}
	rs[2].Evidence.Basis = "paid \x1b]0;owned\a with sk-ant-api03-" + strings.Repeat("A", 40) + " " + strings.Repeat("long ", 200)
	term := &lockedBuffer{}
	ready := make(chan struct{})
	done := make(chan exitCode, 1)
	var stderr bytes.Buffer
	go func() {
		io := &IO{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &stderr, Env: func(k string) string { return env[k] },
			WatchReady: func() { close(ready) }, Terminal: func() (goio.WriteCloser, error) { return term, nil }}
		done <- run([]string{"acts", "watch", "--offline", "--notify", "--count", "2"}, io)
	}()
	select {
	case <-ready:
	case c := <-done:
		t.Fatalf("watch stopped before it was ready: %d %s", c, stderr.String())
	}
	// a receipt arrives over A2A (a handoff beside it is not announced)
	for _, e := range []incoming.Entry{{Kind: "handoff", Title: "Not announced", Pack: "pack.taskpack"}, {Kind: "receipt", Title: "Answers \x1b[31m", RootID: "TP-1", Pack: "pack.taskpack"}} {
		edir := filepath.Join(incoming.Dir(env["TP_STORE"]), e.Kind)
		if err := os.MkdirAll(edir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := incoming.Save(edir, e); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(term.String(), "receipt arrived"); {
		if time.Now().After(deadline) {
			t.Fatalf("no notification for the receipt: %q\n%s", term.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, r := range rs {
		if _, err := l.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	if c := <-done; c != exitOK {
		t.Fatalf("watch: %d %s", c, stderr.String())
	}
	if !strings.Contains(stderr.String(), "tp: notifying through this terminal (OSC 9) and notify-send ("+filepath.Join(pathDir, "notify-send")+")") {
		t.Fatalf("stderr does not say how it notifies:\n%s", stderr.String())
	}
	out := term.String()
	seqs := strings.Split(strings.TrimSuffix(out, "\a"), "\a")
	if len(seqs) != 3 {
		t.Fatalf("%d sequences, want 3 (receipt, raised, claimed):\n%q", len(seqs), out)
	}
	for i, want := range []string{"tp: a receipt arrived: Answers", "tp acts: raised in garden: Renew the domain", "tp acts: claimed in garden: done by agent:7: paid"} {
		s := seqs[i]
		if !strings.HasPrefix(s, "\x1b]9;tp: ") || strings.ContainsAny(s[1:], "\x1b\a\r\n") || !strings.Contains(s, want) {
			t.Fatalf("sequence %d: %q, want OSC 9 with %q and no control of its own", i, s, want)
		}
		if len([]rune(s)) > 320 {
			t.Fatalf("sequence %d is not bounded: %d characters", i, len([]rune(s)))
		}
	}
	if strings.Contains(out, "Old act") || strings.Contains(out, "Not announced") || strings.Contains(out, "settled") {
		t.Fatalf("notified for what is not new or not announced:\n%q", out)
	}
	if strings.Contains(out, strings.Repeat("A", 40)) {
		t.Fatalf("a credential reached the notification:\n%q", out)
	}
	got, _ := os.ReadFile(calls)
	sent := strings.Split(strings.TrimSuffix(string(got), "---\n"), "---\n")
	if len(sent) != 3 || !strings.HasPrefix(sent[1], "--app-name=tp\n--\ntp acts: raised in garden\nRenew the domain\n") ||
		strings.ContainsAny(strings.ReplaceAll(string(got), "\n", ""), "\x1b\a") || strings.Contains(string(got), strings.Repeat("A", 40)) {
		t.Fatalf("notify-send calls:\n%q", got)
	}
}
