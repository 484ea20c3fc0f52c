// Package howrun runs a landing check's command once the person has
// confirmed it (TaskPack 0.1 §4.4, §4.5; D12).
//
// A landing check's `how` is the sender's suggestion and data like every other
// byte of a pack: nothing in tp runs it on its own. The terminal UI shows the
// exact command, the folder it will run in and that it comes from the sender,
// lets the person edit it (then it is theirs), and only after an explicit
// confirmation calls Run. --plain never calls this package.
//
// Run executes the command with `sh -c` in the given folder, with a timeout,
// no stdin, and a bound on the output it keeps; the process group is killed on
// timeout or cancel so a runaway child cannot outlive the check.
//
// The package has no UI imports and makes no decision: it only runs what it
// is given.
package howrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Defaults used when Options leaves a field zero.
const (
	DefaultTimeout   = 2 * time.Minute
	DefaultMaxOutput = 256 << 10
)

// Confirmed is a command the person has seen and confirmed, in the folder
// they saw. FromSender is false once they edited it: then it is theirs.
type Confirmed struct {
	Command    string
	Dir        string
	FromSender bool
}

// Options bound a run.
type Options struct {
	Timeout   time.Duration // 0 means DefaultTimeout
	MaxOutput int           // bytes of combined stdout+stderr kept; 0 means DefaultMaxOutput
	Env       []string      // nil means the current environment
	Shell     string        // "" means /bin/sh
}

// Result is what happened. ExitCode is -1 when the command did not exit on
// its own (timeout, cancel, signal) or could not start.
type Result struct {
	Command   string        `json:"command"`
	Dir       string        `json:"dir"`
	ExitCode  int           `json:"exit_code"`
	Output    []byte        `json:"-"` // combined stdout and stderr, at most MaxOutput bytes
	Truncated bool          `json:"truncated"`
	TimedOut  bool          `json:"timed_out"`
	Canceled  bool          `json:"canceled"`
	Duration  time.Duration `json:"duration"`
}

// OK reports whether the command exited 0 on its own.
func (r Result) OK() bool { return r.ExitCode == 0 && !r.TimedOut && !r.Canceled }

// Summary is one line for a person: "exit 0 in 1.2s", "timed out after 2m0s".
func (r Result) Summary() string {
	d := r.Duration.Round(100 * time.Millisecond)
	switch {
	case r.TimedOut:
		return fmt.Sprintf("timed out after %s", d)
	case r.Canceled:
		return fmt.Sprintf("cancelled after %s", d)
	case r.ExitCode < 0:
		return fmt.Sprintf("killed after %s", d)
	}
	return fmt.Sprintf("exit %d in %s", r.ExitCode, d)
}

// ErrEmpty is returned for an empty command.
var ErrEmpty = errors.New("howrun: empty command")

// Run runs c.Command with `sh -c` in c.Dir. The error is non-nil only when the
// command could not be started (missing folder, no shell) or is empty; a
// command that ran and failed is a Result with a non-zero ExitCode.
func Run(ctx context.Context, c Confirmed, o Options) (Result, error) {
	res := Result{Command: c.Command, Dir: c.Dir, ExitCode: -1}
	if c.Command == "" {
		return res, ErrEmpty
	}
	if c.Dir == "" {
		return res, errors.New("howrun: no folder given")
	}
	if st, err := os.Stat(c.Dir); err != nil {
		return res, fmt.Errorf("howrun: folder %s: %w", c.Dir, err)
	} else if !st.IsDir() {
		return res, fmt.Errorf("howrun: %s is not a folder", c.Dir)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = DefaultMaxOutput
	}
	if o.Shell == "" {
		o.Shell = "/bin/sh"
	}

	cmd := exec.Command(o.Shell, "-c", c.Command)
	cmd.Dir = c.Dir
	cmd.Env = o.Env
	cmd.Stdin = nil // /dev/null: a check never waits on the person's keyboard
	buf := &capped{max: o.MaxOutput}
	cmd.Stdout = buf
	cmd.Stderr = buf
	// Its own process group, so a timeout kills everything it started.
	ownGroup(cmd)
	cmd.WaitDelay = 2 * time.Second

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return res, fmt.Errorf("howrun: start: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	timer := time.NewTimer(o.Timeout)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		res.TimedOut = true
		kill(cmd)
		err = <-done
	case <-ctx.Done():
		res.Canceled = true
		kill(cmd)
		err = <-done
	}
	res.Duration = time.Since(start)
	// Whatever the shell left running in the background ends with it:
	// nothing a check started outlives the check (its group is its own).
	kill(cmd)
	res.Output, res.Truncated = buf.bytes()
	if res.TimedOut || res.Canceled {
		res.ExitCode = -1
		return res, nil
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		res.ExitCode = 0
	case errors.Is(err, exec.ErrWaitDelay):
		// The shell exited 0; a background child held the output open
		// until WaitDelay closed it.
		res.ExitCode = 0
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode() // -1 when killed by a signal
	default:
		res.ExitCode = -1
	}
	return res, nil
}

// capped keeps the first max bytes written and counts the rest.
type capped struct {
	mu        sync.Mutex
	max       int
	b         bytes.Buffer
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.b.Len(); room > 0 {
		if len(p) > room {
			c.b.Write(p[:room])
			c.truncated = true
		} else {
			c.b.Write(p)
		}
	} else if len(p) > 0 {
		c.truncated = true
	}
	return len(p), nil
}

func (c *capped) bytes() ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.b.Bytes()...), c.truncated
}
