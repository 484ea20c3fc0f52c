package cli

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tp-dev/tp/internal/scripttest"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

// TestMain lets the test binary stand in for `tp` inside testscript files,
// so every cmd/cli/testdata/*.txtar drives the real command line end to end.
func TestMain(m *testing.M) {
	if os.Getenv(scriptServerEnv) == "1" {
		os.Exit(serveScript())
	}
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
			if err := writeTestKey(filepath.Join(home, ".ssh", "id_ed25519"), "tester@testbox"); err != nil {
				return err
			}
			keys := make([]string, 0, len(env.Vars))
			for _, kv := range env.Vars {
				if k, _, ok := strings.Cut(kv, "="); ok && !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
			env.Values[setupKeys{}] = keys
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"capture": scripttest.Capture, "replace": replaceIn, "tp-in": scriptTP,
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

// A script's `tp-in ARGS` line runs the command line in one tp
// process per script, started on its first such line and given each
// line's arguments, environment and folder in turn, as a shell hands a
// program its own: the ~25 ms of CPU a tp process costs to start is paid
// once a script, not once a line (docs: BENCHMARKS.md, the test suite).
// The tree reads its folder and environment from the process (relative
// paths, git's environment), which is why each script has a process of
// its own and its lines run in it one after another. `exec tp` is still
// the real process, kept where a script is about the process (exit
// status, stdin, a background run, git's view of the environment) and in
// at least one script per command. Anything the tree writes to the
// process's own stdout or stderr, which a command must never do (IO is
// its only way out), fails the line.
func scriptTP(ts *testscript.TestScript, neg bool, args []string) {
	if runtime.GOOS == "windows" {
		err := ts.Exec("tp", args...)
		if err != nil && !neg {
			ts.Fatalf("tp: %v", err)
		}
		if err == nil && neg {
			ts.Fatalf("unexpected tp success")
		}
		return
	}
	srv := scriptServerFor(ts)
	dir := ts.MkAbs(".")
	req := scriptRequest{Args: args, Env: append(scriptEnv(ts), "PWD="+dir), Dir: dir}
	var rep scriptReply
	if err := srv.enc.Encode(req); err != nil {
		ts.Fatalf("tp: the script's tp process: %v%s", err, srv.strayText())
	}
	if err := srv.dec.Decode(&rep); err != nil {
		ts.Fatalf("tp: the script's tp process ended: %v%s", err, srv.strayText())
	}
	ts.Stdout().Write(rep.Stdout)
	ts.Stderr().Write(rep.Stderr)
	if st := srv.strayText(); st != "" {
		ts.Fatalf("tp wrote to the process's own stdout or stderr, not to its IO:%s", st)
	}
	switch {
	case rep.Code != 0 && !neg:
		ts.Fatalf("tp: exit status %d", rep.Code)
	case rep.Code == 0 && neg:
		ts.Fatalf("unexpected tp success")
	}
}

// scriptServerEnv makes the test binary serve a script's tp lines
// (serveScript) instead of running the tests.
const scriptServerEnv = "TP_TEST_SCRIPT_SERVER"

// setupKeys is the env.Values key of the variables Setup left set.
type setupKeys struct{}

type scriptRequest struct {
	Args, Env []string
	Dir       string
}

type scriptReply struct {
	Stdout, Stderr []byte
	Code           int
}

// serveScript reads requests on fd 3 and answers on fd 4 until fd 3 ends:
// each runs the command line as TestMain's tp process would (sealingIO), with
// the request's environment and folder and no stdin.
func serveScript() int {
	dec := gob.NewDecoder(os.NewFile(3, "requests"))
	enc := gob.NewEncoder(os.NewFile(4, "replies"))
	for {
		var req scriptRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintln(os.Stderr, "script server:", err)
			return 1
		}
		os.Clearenv()
		for _, kv := range req.Env {
			k, v, _ := strings.Cut(kv, "=")
			os.Setenv(k, v)
		}
		if err := os.Chdir(req.Dir); err != nil {
			fmt.Fprintln(os.Stderr, "script server:", err)
			return 1
		}
		var out, errb bytes.Buffer
		tio := sealingIO()
		tio.In, tio.Out, tio.Err = strings.NewReader(""), &out, &errb
		code := run(req.Args, tio)
		if err := enc.Encode(scriptReply{Stdout: out.Bytes(), Stderr: errb.Bytes(), Code: int(code)}); err != nil {
			fmt.Fprintln(os.Stderr, "script server:", err)
			return 1
		}
	}
}

type scriptServer struct {
	cmd   *exec.Cmd
	enc   *gob.Encoder
	dec   *gob.Decoder
	stray *os.File // the process's own stdout and stderr
}

// strayText is what the process wrote to its own stdout or stderr, as a
// line to append to a failure; "" when nothing.
func (s *scriptServer) strayText() string {
	b, _ := os.ReadFile(s.stray.Name())
	if len(b) == 0 {
		return ""
	}
	return "\n" + string(b)
}

var scriptServers sync.Map // *testscript.TestScript → *scriptServer

func scriptServerFor(ts *testscript.TestScript) *scriptServer {
	if s, ok := scriptServers.Load(ts); ok {
		return s.(*scriptServer)
	}
	exe, err := os.Executable()
	ts.Check(err)
	stray, err := os.CreateTemp("", "tp-script-stray-")
	ts.Check(err)
	reqR, reqW, err := os.Pipe()
	ts.Check(err)
	repR, repW, err := os.Pipe()
	ts.Check(err)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), scriptServerEnv+"=1")
	cmd.Dir = ts.MkAbs(".")
	cmd.Stdout, cmd.Stderr = stray, stray
	cmd.ExtraFiles = []*os.File{reqR, repW}
	ts.Check(cmd.Start())
	reqR.Close()
	repW.Close()
	s := &scriptServer{cmd: cmd, enc: gob.NewEncoder(reqW), dec: gob.NewDecoder(repR), stray: stray}
	scriptServers.Store(ts, s)
	ts.Defer(func() {
		scriptServers.Delete(ts)
		reqW.Close()
		cmd.Wait()
		repR.Close()
		stray.Close()
		os.Remove(stray.Name())
	})
	return s
}

// scriptEnv is the script's environment as exec would pass it: every
// variable Setup set (empty ones too), and every variable a script sets
// with env that is not empty here (an empty one is passed as unset).
func scriptEnv(ts *testscript.TestScript) []string {
	keys, _ := ts.Value(setupKeys{}).([]string)
	env := make([]string, 0, len(keys)+8)
	for _, k := range keys {
		env = append(env, k+"="+ts.Getenv(k))
	}
	for _, k := range scriptEnvKeys() {
		if v := ts.Getenv(k); v != "" && !slices.Contains(keys, k) {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// scriptEnvKeys are the variables any script in testdata sets with env.
var scriptEnvKeys = sync.OnceValue(func() []string {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	var keys []string
	line := regexp.MustCompile(`(?m)^\s*(?:\[[^\]]*\]\s*)*env\s+(.*)$`)
	key := regexp.MustCompile(`(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range line.FindAllStringSubmatch(string(b), -1) {
			for _, k := range key.FindAllStringSubmatch(m[1], -1) {
				if !slices.Contains(keys, k[1]) {
					keys = append(keys, k[1])
				}
			}
		}
	}
	return keys
})
