package howrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// A timeout kills the whole process group: a background child must not
// outlive the check and create its file later.
func TestTimeoutKillsGroup(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "late")
	r, err := Run(context.Background(), Confirmed{Command: "(sleep 1; touch late) & sleep 5", Dir: dir}, Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !r.TimedOut {
		t.Fatalf("not timed out: %+v", r)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("child outlived the timeout")
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
	marker := filepath.Join(dir, "late")
	r, err := Run(context.Background(), Confirmed{Command: "(sleep 3; touch late) & echo hi", Dir: dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExitCode != 0 || !r.OK() || string(r.Output) != "hi\n" {
		t.Fatalf("result %+v", r)
	}
	time.Sleep(3500 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a background child outlived the check")
	}
}
