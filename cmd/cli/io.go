package cli

import (
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/tp-dev/tp/internal/sealed"
	"github.com/tp-dev/tp/internal/store"
)

// IO is the one place the command line touches the process's streams. Tests
// build it from buffers; the core never sees os.Stdout.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// TTY reports whether stdin and stdout are both terminals, so an
	// interactive screen may open. Tests set it explicitly.
	TTY bool
	// Env reads the environment; tests pass their own map. The UI sees
	// this environment too, never the process's directly.
	Env func(string) string
	// Getwd is the folder tp runs in (packs waiting here, the UI's folder
	// for running a check's command); nil means the process's.
	Getwd func() (string, error)
	// Screens are the interactive screens the commands may open (tui.go);
	// nil means every command stays headless (in tp, which forwards to
	// tp-full a command that would open one, D26). tp-full passes the real
	// ones; tests pass their own.
	Screens *Screens
	// Servers are tp mcp's and tp a2a's implementations; nil in tp, which
	// forwards those commands to tp-full (D26).
	Servers *Servers
	// Sealer seals packs and opens sealed ones (age, D22); nil in tp,
	// which forwards a command that needs it to tp-full (D26).
	Sealer sealed.Sealer
	// Forward runs the whole command line in tp-full instead (D26); what
	// names the command for its errors. tp sets it, tp-full and tests
	// leave it nil.
	Forward func(what string) error
	// WatchReady, when set, is called once `tp acts watch` is in place:
	// records written after it are reported (tests write theirs then).
	WatchReady func()
	// Terminal opens the controlling terminal for writing, for `tp acts
	// watch --notify`'s escape sequences; nil when stdout is not a
	// terminal. Tests pass their own.
	Terminal func() (io.WriteCloser, error)
}

// Screens are the terminal UI's entry points, passed into each command as
// a dependency (cli/cli's Factory/runF pattern) so that the headless
// command files never import the UI and tests can replace any of them. A
// nil field means that command has no screen and prints plain text on a
// terminal too. Each is used only when io.Interactive(g) and the command
// was given nothing to change (no --answer/--drop/--set).
type Screens struct {
	Home   func(cmd *cobra.Command, io *IO, g *globalOpts) error // plain tp
	Land   func(cmd *cobra.Command, io *IO, g *globalOpts, file string, opts landOptions) error
	List   func(io *IO, g *globalOpts, s *store.Store) error
	Show   func(io *IO, g *globalOpts, s *store.Store, id string) error
	Asks   func(io *IO, g *globalOpts, s *store.Store, id string) error
	Checks func(io *IO, g *globalOpts, s *store.Store, id string) error
	Inbox  func(cmd *cobra.Command, io *IO, g *globalOpts) error // tp acts
}

// wd is the folder tp runs in, as injected.
func (o *IO) wd() (string, error) {
	if o.Getwd != nil {
		return o.Getwd()
	}
	return os.Getwd()
}

// screens returns the injected screens, or none.
func (o *IO) screens() Screens {
	if o.Screens == nil {
		return Screens{}
	}
	return *o.Screens
}

func stdIO() *IO {
	return &IO{
		In:       os.Stdin,
		Out:      os.Stdout,
		Err:      os.Stderr,
		TTY:      term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd())),
		Env:      os.Getenv,
		Terminal: controllingTerminal(),
	}
}

// controllingTerminal opens the controlling terminal when stdout is a
// terminal, else nil.
func controllingTerminal() func() (io.WriteCloser, error) {
	if !term.IsTerminal(int(os.Stdout.Fd())) {
		return nil
	}
	return func() (io.WriteCloser, error) { return os.OpenFile("/dev/tty", os.O_WRONLY, 0) }
}

// Interactive reports whether a command may open the TUI: a terminal on both
// ends and neither --plain nor --json asked for.
func (o *IO) Interactive(g *globalOpts) bool {
	return o.TTY && !g.plain && !g.json
}
