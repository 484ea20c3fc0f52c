package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"

	"github.com/spf13/cobra"
)

// exitCode is the process exit status; the values are part of the command
// line's contract and listed in --help.
type exitCode int

const (
	exitOK            exitCode = 0 // done
	exitError         exitCode = 1 // error or refusal; the message names the file and the rule
	exitNotConformant exitCode = 2 // tp conformance: the file is a pack but not conformant
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// globalOpts are the flags every command shares (docs/architecture.md, command-line conventions).
type globalOpts struct {
	plain   bool
	json    bool
	store   string
	actsDir string
	theme   string

	// Acts only (persistent flags of tp acts): the signing key (D19) and
	// whether to skip git's pull and push (D20).
	signingKey string
	offline    bool
}

// exitError lets a command choose its exit status without printing anything
// more (for example "not conformant": the report already said why).
type codeError struct {
	code exitCode
	err  error
}

func (e *codeError) Error() string { return e.err.Error() }
func (e *codeError) Unwrap() error { return e.err }

// withCode wraps err so run exits with code; a nil err stays nil.
func withCode(code exitCode, err error) error {
	if err == nil {
		return nil
	}
	return &codeError{code: code, err: err}
}

// silentExit ends the command with code and prints nothing.
type silentExit exitCode

func (s silentExit) Error() string { return fmt.Sprintf("exit %d", int(s)) }

// hintError carries a hint line printed after the error.
type hintError struct {
	err  error
	hint string
}

func (e *hintError) Error() string { return e.err.Error() }
func (e *hintError) Unwrap() error { return e.err }
func (e *hintError) Hint() string  { return e.hint }

func withHint(err error, hint string) error { return &hintError{err: err, hint: hint} }

const rootHelp = `tp carries unfinished work between agents, machines and people.

It packs a passport into a TaskPack (.taskpack, ZIP + BagIt, or the flat
.taskpack.json), judges packs against TaskPack 0.1, lands them (required
landing checks first; the sender's "how" is only ever a suggestion), merges
receipts back into the passport that asked, and keeps the principal's acts
(Principal Handoff: Acts 0.3).

Exit codes:
  0  done
  1  error or refusal (the message names the file and the rule)
  2  not conformant (tp conformance)`

const rootExamples = `  tp conformance examples/handoff.taskpack
  tp convert examples/handoff.taskpack --out /tmp/handoff.taskpack.json
  tp land handoff.taskpack --plain --dry-run
  tp acts sync STATE.md --project demo --dry-run`

// topCommands are tp's commands, each in its own file; add one line here
// per command.
var topCommands = []struct {
	name  string
	build func(*IO, *globalOpts) *cobra.Command
}{
	{"new", newNewCmd}, {"list", newListCmd}, {"show", newShowCmd}, {"asks", newAsksCmd}, {"checks", newChecksCmd},
	{"pack", newPackCmd},
	{"land", newLandCmd},
	{"conformance", newConformanceCmd}, {"convert", newConvertCmd},
	{"acts", newActsCmd},
	{"checkpoint", newCheckpointCmd}, {"open", newOpenCmd}, {"prompt", newPromptCmd}, {"mcp", newMCPCmd}, {"doctor", newDoctorCmd}, {"a2a", newA2ACmd},
}

// newRootCmd is the whole command tree.
func newRootCmd(io *IO) (*cobra.Command, *globalOpts) { return newRootCmdOf(io, "") }

// rootAlone is commandNamed's answer for a command line that names no
// command and asks for no help: tp --version, tp --plain, plain tp.
const rootAlone = "-"

// commandNamed is the top-level command args run when it is one of
// topCommands; rootAlone when they name none and ask for no help; else ""
// (help, completion, a typo, anything else: those need the whole tree).
// Flags before the command are the root's; those taking a value without
// "=" take the next argument.
func commandNamed(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-h" || a == "--help" || strings.HasPrefix(a, "--help="):
			return ""
		case a == "--store" || a == "--acts-dir" || a == "--theme":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			for _, c := range topCommands {
				if c.name == a {
					return a
				}
			}
			return ""
		}
	}
	return rootAlone
}

// newRootCmdOf is the root with only the top-level command only (all of
// them when only is ""). Building the tree is a good part of tp's start-up
// (D26: tp --version, tp conformance): a command line that names a command
// needs that command's subtree alone, and behaves as in the whole tree
// (TestLazyTreeSameCommand).
func newRootCmdOf(io *IO, only string) (*cobra.Command, *globalOpts) {
	g := &globalOpts{}
	root := &cobra.Command{
		Use:           "tp",
		Short:         "The human end of work handed between agents, machines and people",
		Long:          rootHelp,
		Example:       rootExamples,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return homeCmd(cmd, io, g)
		},
	}
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	root.SetVersionTemplate("tp {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.BoolVar(&g.plain, "plain", false, "never open the terminal UI; print stable text")
	pf.BoolVar(&g.json, "json", false, "print one JSON document")
	pf.StringVar(&g.store, "store", "", "passport store folder (default $TP_STORE, $TASK_PASSPORT_STORE, or XDG data dir tp/passports)")
	pf.StringVar(&g.actsDir, "acts-dir", "", "acts record log folder (default $TP_ACTS or XDG data dir tp/acts)")
	pf.StringVar(&g.theme, "theme", "", "terminal UI theme: default, high-contrast, no-color")

	for _, c := range topCommands {
		if only == "" || c.name == only {
			root.AddCommand(c.build(io, g))
		}
	}
	// cobra adds `completion` only when it executes, and a command with no
	// run function of its own prints help for any argument, so `tp
	// completion nosh` printed help and exited 0: add it now, runnable, so
	// an unknown shell gets the unknown-command rule like every command.
	// A command line that names another command (or none) never reaches
	// it: it is not built there (its four scripts' help texts were a good
	// part of building a lone command's tree, issue 20).
	if only == "" {
		root.InitDefaultCompletionCmd()
		for _, c := range root.Commands() {
			if c.Name() == "completion" && !c.Runnable() {
				c.RunE = func(c *cobra.Command, args []string) error { return c.Help() }
			}
		}
	} else {
		root.CompletionOptions.DisableDefaultCmd = true
	}
	// The commands with a screen (io.Screens): tp, which links none,
	// forwards them to tp-full when they would open it (D26).
	markFull(root, needsFullScreen)
	for _, c := range root.Commands() {
		if screenCommands[c.Name()] {
			markFull(c, needsFullScreen)
		}
	}
	tidyCommands(root, io, g)
	completions(root, io, g)
	return root, g
}

// screenCommands are the commands that open a screen on a terminal (each
// consults io.screens()); TestScreenCommandsForwarded keeps the list true.
var screenCommands = map[string]bool{"land": true, "list": true, "show": true, "asks": true, "checks": true, "acts": true}

// run executes the command line and maps errors to exit codes; it is the
// only place that renders errors for people ("tp: error:" / "tp: hint:").
func run(args []string, io *IO) exitCode {
	// Count what reaches stdout, so a --json run that failed before it
	// printed anything still prints one JSON document (docs/architecture.md, command-line conventions).
	// Only then: the TUI needs the real stdout to see the terminal.
	// With --json, stdout goes through sanitize.JSON: the same JSON, with
	// every character a terminal would act on or hide escaped (D11).
	safe := &jsonSafeWriter{w: io.Out}
	defer safe.Flush()
	out := &countingWriter{w: safe}
	cio := *io
	if wantsJSON(args) {
		cio.Out = out
	} else {
		out.n = -1 // never print a JSON error document
	}
	root, g := newRootCmdOf(&cio, commandNamed(args))
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var s silentExit
	if errors.As(err, &s) {
		return exitCode(s)
	}
	code := exitError
	var ce *codeError
	if errors.As(err, &ce) {
		code = ce.code
	}
	// Errors quote file names, luggage names, spec values: whatever path
	// made them, they are sanitised here, where they are shown (D11).
	msg := display.Line(oneLine(err.Error()))
	fmt.Fprintf(io.Err, "tp: error: %s\n", msg)
	hint := ""
	var he interface{ Hint() string }
	if errors.As(err, &he) && he.Hint() != "" {
		hint = display.Line(oneLine(he.Hint()))
		fmt.Fprintf(io.Err, "tp: hint: %s\n", hint)
	}
	// --json is read from the command line too: a flag error stops
	// parsing before cobra sets g.json.
	if (g.json || wantsJSON(args)) && out.n == 0 {
		doc := ojson.NewObject()
		doc.Set("ok", ojson.NewBool(false))
		doc.Set("error", ojson.NewString(msg))
		if hint != "" {
			doc.Set("hint", ojson.NewString(hint))
		}
		doc.Set("exit_code", ojson.NewInt(int64(code)))
		safe.Write(ojson.Canonical(doc))
	}
	return code
}

// jsonSafeWriter passes a --json run's output through sanitize.JSON. A
// multi-byte rune split between two writes is held back until it is whole.
type jsonSafeWriter struct {
	w     io.Writer
	carry []byte
}

func (j *jsonSafeWriter) Write(p []byte) (int, error) {
	buf := p // only a held-back rune costs a copy
	if len(j.carry) > 0 {
		buf = append(j.carry, p...)
	}
	cut := len(buf)
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	if _, err := j.w.Write(display.JSON(buf[:cut])); err != nil {
		return 0, err
	}
	j.carry = append(j.carry[:0], buf[cut:]...) // after the write: buf may share carry's array
	return len(p), nil
}

// Flush writes what is held back (an incomplete rune at the very end).
func (j *jsonSafeWriter) Flush() {
	if len(j.carry) > 0 {
		j.w.Write(j.carry)
		j.carry = nil
	}
}

// wantsJSON reports whether the command line asks for --json (before
// cobra parses it; "--" ends the flags).
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "--json=true" {
			return true
		}
	}
	return false
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// oneLine keeps an error to one line; error text can quote untrusted input.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
