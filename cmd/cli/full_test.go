package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/internal/store"
)

// forwardRun runs args as tp does (no screens, no servers) with a Forward
// that records what it was asked to forward instead of starting tp-full.
func forwardRun(t *testing.T, tty bool, args ...string) (forwarded []string, code exitCode, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := map[string]string{"TP_STORE": t.TempDir(), "TP_ACTS": t.TempDir(), "TP_TRUST_DIR": t.TempDir(), "NO_COLOR": "1"}
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, TTY: tty, Env: func(k string) string { return env[k] },
		Forward: func(what string) error { forwarded = append(forwarded, what); return silentExit(exitOK) }}
	code = run(args, io)
	return forwarded, code, out.String(), errb.String()
}

// D26: tp forwards to tp-full exactly the commands that need it — tp mcp
// and tp a2a always, a command with a screen only when it would open it —
// and before the command runs; everything a script calls runs in tp.
func TestForwardedToFull(t *testing.T) {
	t.Parallel()
	pack, err := filepath.Abs("../../examples/handoff.taskpack")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		tty  bool
		args []string
		want string // the command forwarded, "" for none
	}{
		{"mcp", false, []string{"mcp"}, "tp mcp"},
		{"mcp offline", false, []string{"mcp", "--offline"}, "tp mcp"},
		{"a2a card", false, []string{"a2a", "card"}, "tp a2a card"},
		{"a2a export", false, []string{"a2a", "export", pack}, "tp a2a export"},
		{"a2a import", false, []string{"a2a", "import", "task.json"}, "tp a2a import"},
		{"a2a serve", false, []string{"a2a", "serve"}, "tp a2a serve"},
		{"home on a terminal", true, nil, "tp"},
		{"land on a terminal", true, []string{"land", pack}, "tp land"},
		{"list on a terminal", true, []string{"list"}, "tp list"},
		{"show on a terminal", true, []string{"show", "TP-AAAA-AAAA"}, "tp show"},
		{"asks on a terminal", true, []string{"asks", "TP-AAAA-AAAA"}, "tp asks"},
		{"checks on a terminal", true, []string{"checks", "TP-AAAA-AAAA"}, "tp checks"},
		{"the inbox on a terminal", true, []string{"acts"}, "tp acts"},
		{"version", true, []string{"--version"}, ""},
		{"conformance on a terminal", true, []string{"conformance", pack}, ""},
		{"home --plain on a terminal", true, []string{"--plain"}, ""},
		{"home --json on a terminal", true, []string{"--json"}, ""},
		{"home without a terminal", false, nil, ""},
		{"land --plain on a terminal", true, []string{"land", pack, "--plain", "--dry-run"}, ""},
		{"land without a terminal", false, []string{"land", pack, "--dry-run"}, ""},
		{"list without a terminal", false, []string{"list"}, ""},
		{"acts list on a terminal", true, []string{"acts", "list"}, ""},
		{"help of mcp", false, []string{"mcp", "--help"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fw, code, out, errs := forwardRun(t, tc.tty, tc.args...)
			if tc.want == "" {
				if len(fw) != 0 {
					t.Fatalf("forwarded %v to tp-full, which it does not need", fw)
				}
				return
			}
			if len(fw) != 1 || fw[0] != tc.want {
				t.Fatalf("forwarded %v, want [%s] (code %d)\n%s\n%s", fw, tc.want, code, out, errs)
			}
			if out != "" || errs != "" {
				t.Fatalf("printed before forwarding:\n%s\n%s", out, errs)
			}
		})
	}
}

// Every command that opens a screen is one tp forwards on a terminal: a
// screen command left unmarked would print plain text on a terminal in tp
// and its screen in tp-full. Each screen (every field of Screens) is set to
// a recorder and the command that opens it is run on a terminal; the
// commands that opened one must be exactly the marked ones.
func TestScreenCommandsForwarded(t *testing.T) {
	t.Parallel()
	pack, err := filepath.Abs("../../examples/handoff.taskpack")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TP_STORE": t.TempDir(), "TP_ACTS": t.TempDir(), "TP_TRUST_DIR": t.TempDir(), "TP_ACTOR": "me", "TP_MACHINE": "box"}
	getenv := func(k string) string { return env[k] }
	var out bytes.Buffer
	if code := run([]string{"new", "--title", "T", "--goal", "G", "--plain"}, &IO{In: strings.NewReader(""), Out: &out, Err: &out, Env: getenv}); code != exitOK {
		t.Fatalf("tp new: %s", out.String())
	}
	id := strings.Fields(out.String()[strings.Index(out.String(), "TP-"):])[0]
	var opened string
	screens := &Screens{
		Home:   func(*cobra.Command, *IO, *globalOpts) error { opened = "Home"; return nil },
		Land:   func(*cobra.Command, *IO, *globalOpts, string, landOptions) error { opened = "Land"; return nil },
		List:   func(*IO, *globalOpts, *store.Store) error { opened = "List"; return nil },
		Show:   func(*IO, *globalOpts, *store.Store, string) error { opened = "Show"; return nil },
		Asks:   func(*IO, *globalOpts, *store.Store, string) error { opened = "Asks"; return nil },
		Checks: func(*IO, *globalOpts, *store.Store, string) error { opened = "Checks"; return nil },
		Inbox:  func(*cobra.Command, *IO, *globalOpts) error { opened = "Inbox"; return nil },
	}
	byScreen := map[string][]string{
		"Home": nil, "Land": {"land", pack}, "List": {"list"}, "Show": {"show", id},
		"Asks": {"asks", id}, "Checks": {"checks", id}, "Inbox": {"acts"},
	}
	st := reflect.TypeOf(*screens)
	if st.NumField() != len(byScreen) {
		t.Fatalf("Screens has %d screens, the test knows %d: name the command that opens the new one", st.NumField(), len(byScreen))
	}
	root, _ := newRootCmd(&IO{Env: getenv})
	for i := 0; i < st.NumField(); i++ {
		name := st.Field(i).Name
		args, ok := byScreen[name]
		if !ok {
			t.Errorf("no command is known to open the %s screen", name)
			continue
		}
		opened = ""
		var out bytes.Buffer
		run(args, &IO{In: strings.NewReader(""), Out: &out, Err: &out, TTY: true, Env: getenv, Screens: screens})
		if opened != name {
			t.Errorf("tp %v opened %q, not the %s screen:\n%s", args, opened, name, out.String())
		}
		c, _, err := root.Find(args)
		if err != nil {
			t.Fatal(err)
		}
		if c.Annotations[needsFull] != needsFullScreen {
			t.Errorf("%s opens the %s screen but is not marked for tp-full (D26)", c.CommandPath(), name)
		}
	}
	marked := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Annotations[needsFull] == needsFullScreen {
			marked++
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	if marked != len(byScreen) {
		t.Errorf("%d commands are marked as opening a screen, %d do", marked, len(byScreen))
	}
}

// Without tp-full next to tp or on PATH, a command that needs it is one
// error line naming the go install command that installs both (D26).
func TestForwardWithoutFull(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	os.Unsetenv(CoreBuildEnv)
	err := forwardToFull("tp mcp", []string{"tp", "mcp"})
	if err == nil {
		t.Fatal("forwarded to a tp-full that does not exist")
	}
	msg := err.Error()
	for _, want := range []string{"tp mcp needs tp-full", "nor on PATH", "go install github.com/tp-dev/tp/cmd/..."} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error lacks %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("more than one line: %q", msg)
	}
}

// A tp started by a tp (what was found as tp-full forwarded back) is
// refused rather than forwarded again, for ever.
func TestForwardLoopRefused(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, FullName)
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv(CoreBuildEnv, "a build")
	err := forwardToFull("tp mcp", []string{"tp", "mcp"})
	if err == nil || !strings.Contains(err.Error(), "came back to a tp") {
		t.Fatalf("a second forward: %v", err)
	}
}

// tp-full refuses a tp of another build (D26), naming both builds and the
// command that installs a matched pair; the same build passes.
func TestMatchedPair(t *testing.T) {
	t.Parallel()
	if err := matchedPair(BuildID(), BuildID()); err != nil {
		t.Fatalf("the same build refused: %v", err)
	}
	err := matchedPair("0.0.9 v0.0.9", BuildID())
	if err == nil {
		t.Fatal("a mismatched pair accepted")
	}
	for _, want := range []string{`"0.0.9 v0.0.9"`, "mismatched pair", "go install github.com/tp-dev/tp/cmd/..."} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal lacks %q: %v", want, err)
		}
	}
}

// The tree built for a command line that names a command holds that
// command alone (rootAlone: none); each behaves as in the whole tree: the
// same usage, flags and help, and the same forwarding marks.
func TestLazyTreeSameCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"conformance", "x.taskpack"}, "conformance"},
		{[]string{"--store", "conformance", "list"}, "list"},
		{[]string{"--store=s", "--plain", "acts", "list"}, "acts"},
		{[]string{"--version"}, rootAlone},
		{[]string{"--plain"}, rootAlone},
		{nil, rootAlone},
		{[]string{"--help"}, ""},
		{[]string{"-h", "conformance"}, ""},
		{[]string{"help", "conformance"}, ""},
		{[]string{"completion", "bash"}, ""},
		{[]string{"__complete", "con"}, ""},
		{[]string{"conformnce"}, ""},
		{[]string{"--", "conformance"}, ""},
	} {
		if got := commandNamed(tc.args); got != tc.want {
			t.Errorf("commandNamed(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
	io := &IO{Env: func(string) string { return "" }}
	whole, _ := newRootCmd(io)
	var walk func(a, b *cobra.Command)
	walk = func(a, b *cobra.Command) {
		if a.UsageString() != b.UsageString() || a.Long != b.Long || a.Annotations[needsFull] != b.Annotations[needsFull] {
			t.Errorf("%s differs in the tree built for it alone", a.CommandPath())
		}
		if len(a.Commands()) != len(b.Commands()) {
			t.Fatalf("%s has %d commands in the whole tree, %d alone", a.CommandPath(), len(a.Commands()), len(b.Commands()))
		}
		for i := range a.Commands() {
			walk(a.Commands()[i], b.Commands()[i])
		}
	}
	for _, c := range topCommands {
		lazy, _ := newRootCmdOf(io, c.name)
		var names []string
		for _, s := range lazy.Commands() {
			if s.Name() != "completion" {
				names = append(names, s.Name())
			}
		}
		if len(names) != 1 {
			t.Fatalf("the tree for %s holds %v", c.name, names)
		}
		a, _, err := whole.Find([]string{c.name})
		b, _, err2 := lazy.Find([]string{c.name})
		if err != nil || err2 != nil || a.Name() != c.name || b.Name() != c.name {
			t.Fatalf("%s: %v %v", c.name, err, err2)
		}
		walk(a, b)
	}
	if len(whole.Commands()) < len(topCommands) {
		t.Fatalf("the whole tree lacks commands")
	}
	alone, _ := newRootCmdOf(io, rootAlone)
	if alone.Annotations[needsFull] != needsFullScreen || alone.Version != whole.Version {
		t.Fatal("the root alone is not the root")
	}
}
