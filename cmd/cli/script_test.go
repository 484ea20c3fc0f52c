package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tp-dev/tp/internal/scripttest"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

// TestMain lets the test binary stand in for `tp` inside testscript files,
// so every cmd/cli/testdata/*.txtar drives the real command line end to end.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tp":            func() { os.Exit(int(run(os.Args[1:], sealingIO()))) },
		"task-passport": func() { os.Exit(int(runDropIn("task-passport", os.Args[1:], sealingIO()))) },
	})
}

// tpBinary is this test binary under the name "tp" (TestMain runs the
// command line when invoked so), for tests that must run a real process:
// kill it, or drive it in a terminal. Linking it costs nothing; building
// tp again would cost a link of the whole program per test.
func tpBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot find the test binary:", err)
	}
	bin := filepath.Join(t.TempDir(), "tp")
	if err := os.Symlink(exe, bin); err != nil {
		t.Skip("cannot link the test binary:", err)
	}
	return bin
}

// TestScripts runs every cmd/cli/testdata/*.txtar. Each script gets its own
// $WORK; the store and acts locations point inside it so no script touches
// the real home directory, and identity is fixed so output is stable.
func TestScripts(t *testing.T) {
	t.Parallel()
	readme, err := filepath.Abs(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			work := env.Getenv("WORK")
			home := scripttest.Isolate(env)
			// The person's SSH key, where tp looks by default (D19): the
			// principal side signs with it; a script about having no key
			// removes it. $WORK/keys/other is somebody else's key.
			if err := writeTestKey(work+"/keys/other", "other@testbox"); err != nil {
				return err
			}
			return writeTestKey(filepath.Join(home, ".ssh", "id_ed25519"), "tester@testbox")
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"capture": scripttest.Capture, "replace": replaceIn,
			"readme": func(ts *testscript.TestScript, neg bool, args []string) { readmeBlock(ts, neg, args, readme) }},
	})
}

// writeTestKey writes a new unencrypted ed25519 key in OpenSSH's format,
// and its .pub beside it, as ssh-keygen -t ed25519 -N "" would.
func writeTestKey(path, comment string) error {
	_, err := sshtest.WriteKeyFile(path, comment)
	return err
}

// replace FILE OLD NEW rewrites FILE with its first OLD replaced by NEW:
// a pack changed on the way (D22's tampering scripts). OLD must be there.
func replaceIn(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	if !strings.Contains(string(b), args[1]) {
		ts.Fatalf("replace: %q is not in %s", args[1], args[0])
	}
	ts.Check(os.WriteFile(path, []byte(strings.Replace(string(b), args[1], args[2], 1)), 0o644))
}

// readme HEADING FILE writes the first ```sh block under the README's
// "## HEADING" to FILE, so a script runs what a newcomer would paste
// (readme_tour.txtar) and the README cannot drift from what works.
func readmeBlock(ts *testscript.TestScript, neg bool, args []string, readme string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: readme HEADING FILE")
	}
	b, err := os.ReadFile(readme)
	ts.Check(err)
	text := string(b)
	at := strings.Index(text, "\n## "+args[0]+"\n")
	if at < 0 {
		ts.Fatalf("readme: no heading %q in %s", "## "+args[0], readme)
	}
	text = text[at+1:]
	if next := strings.Index(text[3:], "\n## "); next >= 0 {
		text = text[:next+3]
	}
	const fence = "```sh\n"
	start := strings.Index(text, fence)
	if start < 0 {
		ts.Fatalf("readme: no sh block under %q", "## "+args[0])
	}
	body := text[start+len(fence):]
	end := strings.Index(body, "\n```")
	if end < 0 {
		ts.Fatalf("readme: the sh block under %q is not closed", "## "+args[0])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(body[:end+1]), 0o644))
}
