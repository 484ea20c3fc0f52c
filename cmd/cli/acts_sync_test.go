package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
)

func actsEnv(t *testing.T) (dir string, env map[string]string) {
	dir = t.TempDir()
	key := filepath.Join(dir, "key", "id_ed25519")
	if err := writeTestKey(key, "tester@box"); err != nil {
		t.Fatal(err)
	}
	return dir, map[string]string{"TP_ACTS": filepath.Join(dir, "acts"), "XDG_CACHE_HOME": filepath.Join(dir, "cache"), "TP_ACTOR": "tester", "TP_MACHINE": "box",
		"TP_SIGNING_KEY": key, "HOME": filepath.Join(dir, "home")}
}

// CRLF line ends, the file mode and a symbolic link to the document all
// survive a sync that stamps, strikes and re-adds lines.
func TestActsSyncKeepsLineEndsModeAndLink(t *testing.T) {
	t.Parallel()
	dir, env := actsEnv(t)
	real := filepath.Join(dir, "real.md")
	doc := "# Demo\r\n\r\n## Tasks\r\n\r\n- [ ] [owner] Renew the domain\r\n- [ ] [agent] Add retries\r\n\r\nTrailing prose\r\n"
	if err := os.WriteFile(real, []byte(doc), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(real, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "STATE.md")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks here")
	}
	code, _, stderr := runWith(env, "acts", "sync", link, "--project", "demo")
	if code != exitOK {
		t.Fatal(stderr)
	}
	got, _ := os.ReadFile(real)
	want := strings.Replace(doc, "Renew the domain\r\n", "Renew the domain (waiting on owner: task-demo-c3d8af57d4)\r\n", 1)
	if string(got) != want {
		t.Fatalf("document:\n%q\nwant\n%q", got, want)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	// Settle, strike: the placeholder is written with CRLF too.
	if code, _, stderr := runWith(env, "acts", "settle", "task-demo-c3d8af57d4", "--outcome", "done"); code != exitOK {
		t.Fatal(stderr)
	}
	if code, _, stderr := runWith(env, "acts", "sync", link, "--project", "demo"); code != exitOK {
		t.Fatal(stderr)
	}
	got, _ = os.ReadFile(real)
	if strings.Contains(strings.ReplaceAll(string(got), "\r\n", ""), "\n") {
		t.Fatalf("a bare LF crept in: %q", got)
	}
	if strings.Contains(string(got), "Renew the domain") {
		t.Fatalf("not struck: %q", got)
	}
}

// A send that fails leaves the document unwritten and acknowledges nothing
// (§4: never stamp before the send succeeded); the next run repairs it.
func TestActsSyncSendFailureWritesNothing(t *testing.T) {
	t.Parallel()
	dir, env := actsEnv(t)
	doc := filepath.Join(dir, "STATE.md")
	orig := "## Tasks\n- [ ] [owner] Renew the domain\n"
	os.WriteFile(doc, []byte(orig), 0o644)
	// A folder where the record's file belongs makes the send fail.
	blocker := filepath.Join(dir, "acts", "demo", "records", "r~3atask-demo-c3d8af57d4.json")
	os.MkdirAll(blocker, 0o755)
	code, _, stderr := runWith(env, "acts", "sync", doc, "--project", "demo")
	if code != exitError || !strings.Contains(stderr, "sending r:task-demo-c3d8af57d4") || !strings.Contains(stderr, "the document was not written") {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
	if got, _ := os.ReadFile(doc); string(got) != orig {
		t.Fatalf("document written after a failed send: %q", got)
	}
	os.Remove(blocker)
	if code, _, stderr := runWith(env, "acts", "sync", doc, "--project", "demo"); code != exitOK {
		t.Fatal(stderr)
	}
	if got, _ := os.ReadFile(doc); !strings.Contains(string(got), "(waiting on owner: task-demo-c3d8af57d4)") {
		t.Fatalf("not stamped on the repair run: %q", got)
	}
}

// A crash after the send and before the document write: the next run
// re-sends the same id (a duplicate, not an error) and stamps.
func TestActsSyncResendAfterCrash(t *testing.T) {
	t.Parallel()
	dir, env := actsEnv(t)
	doc := filepath.Join(dir, "STATE.md")
	os.WriteFile(doc, []byte("## Tasks\n- [ ] [owner] Renew the domain\n"), 0o644)
	l := recordlog.OpenLog(env["TP_ACTS"])
	r := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "r:task-demo-c3d8af57d4", Type: acts.TypeRaised, Origin: "requester", By: "registrar:demo",
		Key: "task-demo-c3d8af57d4", Project: "demo", TS: "2026-11-02T09:00:00Z", Terms: &acts.Terms{Text: "Renew the domain"}, TermsRev: 1}
	if _, err := l.WriteRecord(r); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runWith(env, "--json", "acts", "sync", doc, "--project", "demo")
	if code != exitOK {
		t.Fatal(stderr)
	}
	if !strings.Contains(stdout, `"stamped": 1`) {
		t.Fatalf("%s", stdout)
	}
	if got, _ := os.ReadFile(doc); !strings.Contains(string(got), "(waiting on owner: task-demo-c3d8af57d4)") {
		t.Fatalf("not stamped: %q", got)
	}
}

// Untrusted text from records reaches the terminal sanitised (D11).
func TestActsListSanitises(t *testing.T) {
	t.Parallel()
	_, env := actsEnv(t)
	l := recordlog.OpenLog(env["TP_ACTS"])
	r := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "r:k1", Type: acts.TypeRaised, Origin: "requester", By: "registrar:demo",
		Key: "k1", Project: "demo", TS: "2026-11-02T09:00:00Z", Terms: &acts.Terms{Text: "Pay \x1b[31mnow\u202e"}, TermsRev: 1}
	if _, err := l.WriteRecord(r); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"acts", "list"}, {"acts", "list", "--json"}, {"acts", "settle", "k1", "--outcome", "done"}} {
		code, stdout, stderr := runWith(env, args...)
		if code != exitOK {
			t.Fatal(args, stderr)
		}
		if strings.ContainsAny(stdout, "\x1b\u202e") {
			t.Fatalf("%v printed raw control text: %q", args, stdout)
		}
	}
}

func TestActsWithoutTerminalPrintsList(t *testing.T) {
	t.Parallel()
	_, env := actsEnv(t)
	code, stdout, _ := runWith(env, "acts")
	if code != exitOK || stdout != "no acts\n" {
		t.Fatalf("%d %q", code, stdout)
	}
}
