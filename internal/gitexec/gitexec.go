// Package gitexec is the one way tp runs the system git.
//
// A folder tp runs git in may have come out of a pack: luggage can carry a
// .git/ whose config names programs (core.fsmonitor, hooks, filter drivers,
// gpg.program, …) that plain `git status` or `git commit` would run. Every
// git process started here therefore:
//
//   - has hooks off (core.hooksPath is the null device) and fsmonitor off;
//   - sees the repository's own config (local and worktree scope) unable to
//     name a program: each key that makes git run something and that the
//     repository sets is overridden on the command line with the value the
//     user's global config gives it, or with the empty value (which turns a
//     filter off and makes any other program fail instead of run);
//   - never discovers a bare repository on its own (safe.bareRepository),
//     never uses the ext:: transport, reads no system config
//     (GIT_CONFIG_NOSYSTEM) and inherits no GIT_DIR, GIT_WORK_TREE or
//     config from the environment;
//   - when it only reads, takes no optional locks.
//
// The overrides are passed as GIT_CONFIG_COUNT/KEY/VALUE (command scope, the
// highest), which child git processes (submodules) inherit as well, and which
// carry any subsection name, even one holding '='.
package gitexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/tp-dev/tp/internal/sanitize"
)

// fixed is the configuration every git process gets, whatever the scopes say.
var fixed = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", os.DevNull},
	{"protocol.ext.allow", "never"},
	{"safe.bareRepository", "explicit"},
	{"commit.verbose", "false"},
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
}

// programKey matches the configuration keys whose value git runs (as a
// command or a program path) somewhere in its commands. Keys are matched as
// git prints them: section and name lower-cased, subsection as written.
var programKey = regexp.MustCompile(`(?s)^(?:` +
	`core\.(?:fsmonitor|hookspath|sshcommand|gitproxy|askpass|editor|pager|alternaterefscommand)` +
	`|sequence\.editor|diff\.external|interactive\.difffilter|commit\.gpgsign|tag\.gpgsign` +
	`|gpg\.program|gpg\..*\.program` +
	`|credential\.helper|credential\..*\.helper` +
	`|filter\..*\.(?:clean|smudge|process)` +
	`|diff\..*\.(?:textconv|command)` +
	`|merge\..*\.driver` +
	`|remote\..*\.(?:uploadpack|receivepack|vcs)` +
	`|pager\..*|uploadpack\.packobjectshook` +
	`)$`)

// passThrough names the GIT_ variables of the user's environment a git
// process keeps: who commits, and how the user reaches remotes. Every other
// GIT_ variable (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_CONFIG_*, …)
// is dropped so git finds the repository from the folder alone.
var passThrough = map[string]bool{
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
	"GIT_SSH": true, "GIT_SSH_COMMAND": true, "GIT_SSH_VARIANT": true,
	"GIT_ASKPASS": true, "GIT_TERMINAL_PROMPT": true, "GIT_CONFIG_GLOBAL": true,
}

// Git runs git in one folder.
type Git struct {
	Dir string
	env []string
}

// ErrNoGit is returned when git is not on PATH.
var ErrNoGit = errors.New("git is not installed (not found on PATH)")

// Open prepares git for dir: it reads which program-naming keys the
// repository's own config sets (a read that runs nothing) and fixes them.
// A dir outside any repository is fine; commands then fail as git says.
func Open(ctx context.Context, dir string) (*Git, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, ErrNoGit
	}
	g := &Git{Dir: dir}
	base := baseEnv(os.Environ())
	// The probe itself runs with the fixed overrides: reading config runs
	// nothing, but keep one way in.
	probe := exec.CommandContext(ctx, "git", "--no-optional-locks", "config", "--null", "--show-scope", "--list")
	probe.Dir = dir
	probe.Env = withConfig(base, fixed)
	var out, errb bytes.Buffer
	probe.Stdout, probe.Stderr = &out, &errb
	pairs := append([][2]string(nil), fixed...)
	if err := probe.Run(); err == nil {
		pairs = append(pairs, neutralise(out.Bytes())...)
	} else if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// A probe that fails (no repository, unreadable config) leaves only
	// the fixed overrides; the command that follows fails the same way.
	g.env = withConfig(base, pairs)
	return g, nil
}

// neutralise turns `git config --null --show-scope --list` output into the
// overrides that take away the repository's say over programs: for every
// program key set in local or worktree scope, the key is first reset to
// empty and then given each value the user's global or command-line config
// has for it, in order (multi-valued keys such as credential.helper keep
// the user's list).
func neutralise(list []byte) [][2]string {
	type entry struct{ scope, key, value string }
	var es []entry
	fields := bytes.Split(list, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		scope := string(fields[i])
		kv := string(fields[i+1])
		key, value, _ := strings.Cut(kv, "\n")
		es = append(es, entry{scope, key, value})
	}
	var order []string
	seen := map[string]bool{}
	for _, e := range es {
		if (e.scope == "local" || e.scope == "worktree") && programKey.MatchString(e.key) && !seen[e.key] {
			seen[e.key] = true
			order = append(order, e.key)
		}
	}
	var pairs [][2]string
	for _, k := range order {
		if isFixed(k) {
			continue
		}
		pairs = append(pairs, [2]string{k, ""})
		for _, e := range es {
			if e.key == k && (e.scope == "global" || e.scope == "command") {
				pairs = append(pairs, [2]string{k, e.value})
			}
		}
	}
	return pairs
}

func isFixed(key string) bool {
	for _, f := range fixed {
		if strings.EqualFold(f[0], key) {
			return true
		}
	}
	return false
}

// baseEnv is env without the GIT_ variables a repository-bound command
// must not inherit, with system config and terminal prompts for editors off.
func baseEnv(env []string) []string {
	out := make([]string, 0, len(env)+4)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") && !passThrough[k] {
			continue
		}
		out = append(out, kv)
	}
	return append(out,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_PAGER=cat",
		"GIT_EDITOR=:",
		"GIT_SEQUENCE_EDITOR=:",
	)
}

// withConfig appends pairs as command-scope configuration.
func withConfig(env []string, pairs [][2]string) []string {
	out := append([]string(nil), env...)
	out = append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(len(pairs)))
	for i, p := range pairs {
		n := strconv.Itoa(i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+p[0], "GIT_CONFIG_VALUE_"+n+"="+p[1])
	}
	return out
}

// Command is an *exec.Cmd running `git args…` in the folder with the
// protections above; the caller sets Stdin/Stdout/Stderr and runs it.
func (g *Git) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-pager"}, args...)...)
	cmd.Dir = g.Dir
	cmd.Env = append([]string(nil), g.env...)
	return cmd
}

// Run runs a git command that changes something and returns its standard
// output. A failure is an error naming the command, with git's own message
// sanitised (it may quote file names from the folder).
func (g *Git) Run(ctx context.Context, args ...string) ([]byte, error) {
	return g.run(g.Command(ctx, args...), args)
}

// Read runs a git command that only reads: it takes no optional locks, so
// it never rewrites the index behind a concurrent writer.
func (g *Git) Read(ctx context.Context, args ...string) ([]byte, error) {
	cmd := g.Command(ctx, append([]string{"--no-optional-locks"}, args...)...)
	cmd.Env = append(cmd.Env, "GIT_OPTIONAL_LOCKS=0")
	return g.run(cmd, args)
}

func (g *Git) run(cmd *exec.Cmd, args []string) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		name := "git"
		if len(args) > 0 {
			name += " " + args[0]
		}
		msg := gitMessage(errb.String())
		if msg == "" {
			msg = gitMessage(out.String())
		}
		if msg != "" {
			return out.Bytes(), fmt.Errorf("%s: %v: %s", name, err, msg)
		}
		return out.Bytes(), fmt.Errorf("%s: %v", name, err)
	}
	return out.Bytes(), nil
}

// gitMessage is git's own message as one readable line: its lines joined
// with "; " (a line break would otherwise be shown escaped as \n), blank
// lines and git's "hint:" advice about its own commands left out, and the
// rest sanitised (it may quote file names from the folder).
func gitMessage(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "hint:") {
			continue
		}
		keep = append(keep, sanitize.Line(l))
	}
	return strings.Join(keep, "; ")
}
