package cli

// tp is two executables (D26): tp, the core every script calls, and
// tp-full, which links what is slow to start (the terminal UI's libraries,
// the MCP and A2A SDKs, age). Both run this one command tree. tp forwards to
// tp-full, before a command runs, the commands that need what only tp-full
// has: tp mcp and tp a2a always, and a command with a screen when it would
// open it (a terminal, no --plain or --json).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/sealed"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/internal/trust"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/pack"
)

// FullName is the companion executable's name (D26).
const FullName = "tp-full"

// CoreBuildEnv is how tp tells tp-full which build forwarded to it: tp-full
// refuses a tp of another build (D26). It is removed from the environment
// before anything else runs, so nothing tp-full starts inherits it.
const CoreBuildEnv = "TP_CORE_BUILD"

// coreAsEnv names the drop-in (task-passport) a forwarding tp was run as,
// so tp-full runs as it too; read only beside CoreBuildEnv.
const coreAsEnv = "TP_CORE_AS"

// Full is what only tp-full links: the screens, the servers and age.
type Full struct {
	Screens *Screens
	Servers *Servers
	Sealer  sealed.Sealer // sealing packs and opening sealed ones (D22)
}

// Servers are the commands that serve agents, linked only into tp-full.
type Servers struct {
	// MCP serves the Model Context Protocol on io's stdin and stdout until
	// the client closes stdin; harness names the client (tp mcp: "mcp").
	MCP func(ctx context.Context, io *IO, g *Globals, harness string) error
	// A2A runs `tp a2a NAME` (card, export, import, serve) with its flags.
	A2A func(name string, io *IO, g *Globals, args []string, o *A2AOptions) error
}

// Where a command needs tp-full: the annotation's key and its values.
const (
	needsFull       = "tp-full"
	needsFullAlways = "always" // the MCP and A2A servers, the A2A binding's types
	needsFullScreen = "screen" // only when the command opens its screen
)

// markFull annotates a command with what it needs of tp-full.
func markFull(c *cobra.Command, when string) *cobra.Command {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[needsFull] = when
	return c
}

// wantsFull reports whether cmd, run as parsed, needs what this executable
// does not link.
func wantsFull(cmd *cobra.Command, io *IO, g *globalOpts) bool {
	switch cmd.Annotations[needsFull] {
	case needsFullAlways:
		return io.Servers == nil
	case needsFullScreen:
		return io.Screens == nil && io.Interactive(g)
	}
	return false
}

// fullHas is what tp-full links and tp does not, for messages.
const fullHas = "the terminal UI, the MCP and A2A servers and age's sealing, D26"

// errNoFull is the refusal of a command that needs tp-full where there is
// none to forward to (tests, or tp linked without a way to forward).
func errNoFull(what string) error {
	return fmt.Errorf("%s needs %s (%s), which this tp cannot start", what, FullName, fullHas)
}

// Main is the process's entry point for both executables: full is nil in tp
// (which forwards to tp-full what needs it) and the screens and servers in
// tp-full. It returns the exit status.
func Main(full *Full) int {
	io := stdIO()
	name := os.Args[0]
	if full != nil {
		if want, ok := os.LookupEnv(CoreBuildEnv); ok {
			as := os.Getenv(coreAsEnv)
			os.Unsetenv(CoreBuildEnv)
			os.Unsetenv(coreAsEnv)
			if err := matchedPair(want, BuildID()); err != nil {
				fmt.Fprintf(io.Err, "tp: error: %s\n", display.Line(err.Error()))
				return int(exitError)
			}
			if isDropIn(as) {
				name = as
			}
		}
		io.Screens, io.Servers, io.Sealer = full.Screens, full.Servers, full.Sealer
	} else {
		argv := os.Args
		io.Forward = func(what string) error { return forwardToFull(what, argv) }
	}
	if isDropIn(name) {
		return int(runDropIn(dropInName(name), os.Args[1:], io))
	}
	return int(run(os.Args[1:], io))
}

// matchedPair refuses a tp-full started by a tp of another build: the two
// share one command tree, and a pair from two builds would not (D26).
func matchedPair(core, full string) error {
	if core == full {
		return nil
	}
	return fmt.Errorf("%s is build %q but the tp that started it is build %q: a mismatched pair; install both from one build: %s",
		FullName, full, core, installCommand())
}

// BuildID names this build: tp's version and, when Go recorded them, the
// module version and the commit it was built from. tp and tp-full built
// together have the same one.
func BuildID() string {
	id := version
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return id
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		id += " " + v
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			id += " " + s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			id += "+modified"
		}
	}
	return id
}

// installCommand is the go install line that installs a matched pair,
// linked without cgo as the README installs it (D27).
func installCommand() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return "CGO_ENABLED=0 go install github.com/tp-dev/tp/cmd/...@" + bi.Main.Version
	}
	return "CGO_ENABLED=0 go install github.com/tp-dev/tp/cmd/..."
}

// findFull is tp-full: next to this executable, else on PATH.
func findFull() (string, error) {
	name := FullName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	exe, err := os.Executable()
	if err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		cand := filepath.Join(filepath.Dir(exe), name)
		if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0) {
			return cand, nil
		}
	}
	p, lerr := exec.LookPath(FullName)
	if lerr == nil {
		return p, nil
	}
	where := "on PATH"
	if exe != "" {
		where = "next to " + exe + " nor on PATH"
	}
	return "", fmt.Errorf("found neither %s", where)
}

// forwardToFull runs tp-full in this process's place with the same
// arguments: on Unix it replaces the process (stdio, signals and the exit
// status pass straight through), elsewhere it runs as a child with the same
// stdio and its exit status becomes tp's.
func forwardToFull(what string, argv []string) error {
	if _, ok := os.LookupEnv(CoreBuildEnv); ok {
		// A tp started by a tp: what was found as tp-full is not one.
		return fmt.Errorf("%s was forwarded to %s once already and came back to a tp: the %s found is not tp-full (D26)", what, FullName, FullName)
	}
	path, err := findFull()
	if err != nil {
		return fmt.Errorf("%s needs %s (%s), but %s; install both: %s",
			what, FullName, fullHas, err, installCommand())
	}
	args := append([]string{path}, argv[1:]...)
	env := append(os.Environ(), CoreBuildEnv+"="+BuildID())
	if isDropIn(argv[0]) {
		env = append(env, coreAsEnv+"="+dropInName(argv[0])) // tp-full runs as the drop-in too
	}
	code, err := execFull(path, args, env)
	if err != nil {
		return fmt.Errorf("%s: starting %s: %w", what, path, err)
	}
	return silentExit(code)
}

// ---- what tp-full's screens and servers use of the command line ----------

// Globals are the flags every command shares.
type Globals = globalOpts

// Theme is --theme.
func (g *globalOpts) Theme() string { return g.theme }

// Offline is --offline (tp acts, tp mcp).
func (g *globalOpts) Offline() bool { return g.offline }

// ActsDir is --acts-dir.
func (g *globalOpts) ActsDir() string { return g.actsDir }

// LandOptions are tp land's flags.
type LandOptions = landOptions

// Input is the file tp land opened, when the command opened it.
func (o landOptions) Input() *Unsealed { return o.in }

// Limits is what the reader may take, with --max-passport-bytes applied.
func (o landOptions) Limits() pack.Limits { return o.limits() }

// Unsealed is a pack file ready to read (a sealed one decrypted, D22).
type Unsealed = unsealed

// Wd is the folder tp runs in, as injected.
func (o *IO) Wd() (string, error) { return o.wd() }

// Version is tp's version.
func Version() string { return version }

// OpenStore opens the passport store the command line points at.
func OpenStore(io *IO, g *Globals) (*store.Store, error) { return openStore(io, g) }

// OpenActsLog opens the acts record log the command line points at.
func OpenActsLog(io *IO, g *Globals) (*recordlog.Log, error) { return openActsLog(io, g) }

// ActsSession is the command's acts session over l.
func ActsSession(io *IO, g *Globals, l *recordlog.Log) *actsession.Session {
	return actsSession(io, g, l)
}

// ActsOpenSession opens the log and its session and pulls.
func ActsOpenSession(io *IO, g *Globals) (*actsession.Session, error) {
	return actsOpenSession(io, g)
}

// ActsPrincipalKey is the principal side's signing key (D19).
func ActsPrincipalKey(io *IO, g *Globals) recordlog.PrincipalKey { return actsPrincipalKey(io, g) }

// ActsPrincipalSender is who the principal-side records are written as.
func ActsPrincipalSender(io *IO) acts.Sender { return actsPrincipalSender(io) }

// LandEnv is who is landing, here (D14).
func LandEnv(io *IO) landing.Env { return landEnv(io) }

// SenderRing is the person's ring of trusted pack senders.
func SenderRing(io *IO) (*trust.Ring, error) { return senderRing(io) }

// RunLandPlain is headless tp land.
func RunLandPlain(io *IO, g *Globals, in *Unsealed, o LandOptions) error {
	return runLandPlain(io, g, in, o)
}

// Refused is an error that exits 1 (a refusal the screen already showed).
func Refused(err error) error { return withCode(exitError, err) }

// WithHint adds a hint line to err.
func WithHint(err error, hint string) error { return withHint(err, hint) }

// Run runs the command line with io and returns the exit status (tests).
func Run(args []string, io *IO) int { return int(run(args, io)) }

// RunDropIn runs the task-passport drop-in (tests).
func RunDropIn(name string, args []string, io *IO) int { return int(runDropIn(name, args, io)) }

// StdIO is the process's own streams (tests and tp-full's entry points).
func StdIO() *IO { return stdIO() }

// ExitCodeOf is the exit status run gives err (tests): 0 for nil.
func ExitCodeOf(err error) int {
	if err == nil {
		return int(exitOK)
	}
	var ce *codeError
	if errors.As(err, &ce) {
		return int(ce.code)
	}
	return int(exitError)
}
