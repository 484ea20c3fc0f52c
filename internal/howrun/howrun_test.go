package howrun

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name      string
		cmd       string
		opts      Options
		wantExit  int
		wantOut   string
		timedOut  bool
		truncated bool
	}{
		{name: "ok", cmd: "echo hello", wantExit: 0, wantOut: "hello\n"},
		{name: "exit status", cmd: "echo no >&2; exit 3", wantExit: 3, wantOut: "no\n"},
		{name: "runs in the folder", cmd: "pwd", wantExit: 0, wantOut: dir + "\n"},
		{name: "no stdin", cmd: "cat; echo done", wantExit: 0, wantOut: "done\n"},
		{name: "timeout", cmd: "sleep 5", opts: Options{Timeout: 100 * time.Millisecond}, wantExit: -1, timedOut: true},
		{name: "bounded output", cmd: "yes | head -c 100000", opts: Options{MaxOutput: 10}, wantExit: 0, wantOut: "y\ny\ny\ny\ny\n", truncated: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Run(context.Background(), Confirmed{Command: tt.cmd, Dir: dir}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.ExitCode != tt.wantExit || r.TimedOut != tt.timedOut || r.Truncated != tt.truncated {
				t.Fatalf("got exit %d timedOut %v truncated %v (%s)", r.ExitCode, r.TimedOut, r.Truncated, r.Output)
			}
			if tt.wantOut != "" && string(r.Output) != tt.wantOut {
				t.Fatalf("output %q, want %q", r.Output, tt.wantOut)
			}
			if r.OK() != (tt.wantExit == 0 && !tt.timedOut) {
				t.Fatalf("OK() = %v", r.OK())
			}
		})
	}
}

// childCmd starts a background child that writes its pid to the file
// "child" (whole, by rename) and then becomes a long sleep; the shell waits
// for that file before it goes on with rest.
func childCmd(rest string) string {
	return `sh -c 'echo $$ > child.tmp && mv child.tmp child; exec sleep 60' & while [ ! -e child ]; do sleep 0.01; done; ` + rest
}

// childGone reads the child's pid and waits, up to a deadline, for that
// process to be gone (a zombie no parent reaped counts as gone).
func childGone(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "child"))
	if err != nil {
		t.Fatalf("the background child never started: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		t.Fatalf("child pid %q", b)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if syscall.Kill(pid, 0) != nil || (err == nil && strings.Contains(string(st), ") Z ")) {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("background child %d outlived the check", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A timeout kills the whole process group: a background child must not
// outlive the check. The timeout must fire after the child started, which
// on a loaded machine can take longer than the first timeout tried: then
// the check is run again with a longer one (nothing is measured; a run
// whose child never started checks nothing and does not count).
func TestTimeoutKillsGroup(t *testing.T) {
	for timeout := time.Second; ; timeout *= 4 {
		dir := t.TempDir()
		r, err := Run(context.Background(), Confirmed{Command: childCmd("sleep 60"), Dir: dir}, Options{Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		if !r.TimedOut {
			t.Fatalf("not timed out: %+v", r)
		}
		if _, err := os.Stat(filepath.Join(dir, "child")); err != nil && timeout < time.Minute {
			t.Logf("the background child had not started when the %v timeout fired; again with a longer one", timeout)
			continue
		}
		childGone(t, dir)
		return
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	r, err := Run(ctx, Confirmed{Command: "sleep 5", Dir: t.TempDir()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Canceled || r.OK() || !strings.HasPrefix(r.Summary(), "cancelled") {
		t.Fatalf("%+v %s", r, r.Summary())
	}
}

func TestRefusesBadInput(t *testing.T) {
	if _, err := Run(context.Background(), Confirmed{Command: "", Dir: t.TempDir()}, Options{}); err != ErrEmpty {
		t.Fatalf("empty: %v", err)
	}
	if _, err := Run(context.Background(), Confirmed{Command: "true", Dir: filepath.Join(t.TempDir(), "missing")}, Options{}); err == nil {
		t.Fatal("missing folder accepted")
	}
	if _, err := Run(context.Background(), Confirmed{Command: "true"}, Options{}); err == nil {
		t.Fatal("no folder accepted")
	}
}

// A command that leaves something running in the background reports the
// shell's own exit status (not -1), and what it left is ended with it.
func TestBackgroundChildEndsWithTheCheck(t *testing.T) {
	dir := t.TempDir()
	r, err := Run(context.Background(), Confirmed{Command: childCmd("echo hi"), Dir: dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExitCode != 0 || !r.OK() || string(r.Output) != "hi\n" {
		t.Fatalf("result %+v", r)
	}
	childGone(t, dir)
}
