package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/checkpoint"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/judge"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/taskpassport"
)

// The task-passport drop-in: installed under the name task-passport (a
// link or a copy of the binary), tp speaks the reference implementation's
// command line (task-passport 0.3.0): its commands and flags, JSON on
// stdout, errors as {"ok":false,"error":…} on stderr with exit 1, the store
// from --store or TASK_PASSPORT_STORE. The jobs are tp's own.

// dropInNames are the names the reference installs.
var dropInNames = map[string]bool{"task-passport": true, "taskpack": true}

// isDropIn reports whether argv0 names the reference.
func isDropIn(argv0 string) bool { return dropInNames[dropInName(argv0)] }

// dropInName is the name the drop-in was called by (task-passport,
// taskpack): what its prompt tells the next agent to run.
func dropInName(argv0 string) string { return strings.TrimSuffix(filepath.Base(argv0), ".exe") }

const dropInUsage = `task-passport (tp %s, speaking task-passport 0.3.0's command line) · TaskPack taskpack/0.1

Usage:
  task-passport list [--store <directory>]
  task-passport open <TP-ID> [--store <directory>]
  task-passport prompt <TP-ID> [--lang en|zh]
  task-passport new --title <text> --goal <text> [--current-state <text>] [--next-step <text>]
  task-passport checkpoint --file <state.json|-> --expected-version <n>
  task-passport pack <TP-ID> --out <file> [--flat] [--file <path>]... [--actor <name>] [--note <text>]
                     [--ask "what|accept"]... [--check "check|how"]... [--asks <f|->] [--checks <f|->] [--kind receipt]
  task-passport land <file> [--dry-run] [--files-out <dir>] [--trust-machine-facts] [--again]   (aliases: unpack, import)
  task-passport conformance <file>
  task-passport doctor
  task-passport mcp

stdout is JSON except for prompt. The store is --store, else TASK_PASSPORT_STORE.
`

// runDropIn runs the reference's command line, called by name.
func runDropIn(name string, args []string, io *IO) exitCode {
	err := dropIn(name, args, io)
	if err == nil {
		return exitOK
	}
	var s silentExit
	if errors.As(err, &s) {
		return exitCode(s)
	}
	b, _ := json.Marshal(struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}{false, oneLine(err.Error())})
	fmt.Fprintf(io.Err, "%s\n", b)
	return exitError
}

// dropArgs is the reference's flag reading: --name value, anywhere.
type dropArgs []string

func (a dropArgs) opt(name string) string {
	for i := 0; i+1 < len(a); i++ {
		if a[i] == name {
			return a[i+1]
		}
	}
	return ""
}

func (a dropArgs) opts(name string) []string {
	var out []string
	for i := 0; i+1 < len(a); i++ {
		if a[i] == name && a[i+1] != "" {
			out = append(out, a[i+1])
		}
	}
	return out
}

func (a dropArgs) has(name string) bool {
	for _, x := range a {
		if x == name {
			return true
		}
	}
	return false
}

// positional is the argument after the command, when it is not a flag.
func (a dropArgs) positional(what string) (string, error) {
	if len(a) < 2 || strings.HasPrefix(a[1], "-") {
		return "", errors.New(what + " is required")
	}
	return a[1], nil
}

func dropIn(name string, args []string, io *IO) error {
	a := dropArgs(args)
	if len(a) == 0 || a[0] == "--help" || a[0] == "-h" {
		fmt.Fprintf(io.Out, dropInUsage, version)
		return nil
	}
	if a[0] == "--version" || a[0] == "-v" {
		fmt.Fprintln(io.Out, "0.3.0")
		return nil
	}
	if a[0] == "mcp" && io.Servers == nil && io.Forward != nil {
		// The MCP server is tp-full's (D26): forwarded before anything
		// is opened.
		return io.Forward(name + " mcp")
	}
	dir := a.opt("--store")
	if dir == "" {
		dir = io.Env("TASK_PASSPORT_STORE")
	}
	g := &globalOpts{store: dir, json: true}
	st, err := openStore(io, g)
	if err != nil {
		return err
	}
	harness := io.Env("TASK_PASSPORT_HARNESS")
	switch a[0] {
	case "list":
		entries, skipped, err := st.List()
		if err != nil {
			return err
		}
		return writeJSON(io.Out, taskpassport.ListOf(entries, skipped))
	case "open":
		id, err := a.positional("passport id")
		if err != nil {
			return err
		}
		s, err := st.Get(id)
		if err != nil {
			return err
		}
		return writeJSON(io.Out, taskpassport.OpenedOf(s))
	case "prompt":
		id, err := a.positional("passport id")
		if err != nil {
			return err
		}
		lang := a.opt("--lang")
		if lang == "" {
			lang = "zh" // the reference's prompt is Chinese
		}
		// The commands that work under the name this was called by, in
		// the reference's syntax, not tp's.
		text, err := briefing.PromptWith(id, lang, func(id string) briefing.Commands { return briefing.DropInCommands(name, id) })
		if err != nil {
			return err
		}
		fmt.Fprintln(io.Out, text)
		return nil
	case "new":
		if harness == "" {
			harness = "task-passport-cli"
		}
		title, goal := a.opt("--title"), a.opt("--goal")
		if title == "" || goal == "" {
			return errors.New("--title and --goal are required")
		}
		v, err := checkpoint.Create(st, title, goal, store.CreateOptions{CurrentState: a.opt("--current-state"), NextStep: a.opt("--next-step"), Harness: harness})
		if err != nil {
			return err
		}
		return writeJSON(io.Out, taskpassport.SavedOf(v, nil))
	case "checkpoint":
		if harness == "" {
			harness = "task-passport-cli"
		}
		file, ev := a.opt("--file"), a.opt("--expected-version")
		if file == "" {
			return errors.New("--file is required")
		}
		if ev == "" {
			return errors.New("--expected-version is required")
		}
		n, err := strconv.ParseInt(ev, 10, 64)
		if err != nil || n < 0 {
			return errors.New("expected_version must be a non-negative integer")
		}
		data, name, err := readInput(io, file)
		if err != nil {
			return err
		}
		doc, err := checkpoint.ParseDocument(data, name)
		if err != nil {
			return err
		}
		req := doc.Request
		req.ExpectedVersion, req.Machine, req.Harness = n, store.Machine(io.Env), harness
		rep, err := checkpoint.Run(context.Background(), st, req)
		if err != nil {
			return err
		}
		return writeJSON(io.Out, taskpassport.SavedOf(rep.State, rep.Warnings))
	case "conformance":
		file, err := a.positional("pack path")
		if err != nil {
			return err
		}
		r, err := judge.Conformance(file, pack.Options{})
		if err != nil {
			return err
		}
		if err := writeJSON(io.Out, taskpassport.ConformanceOf(r)); err != nil {
			return err
		}
		if !r.Conformant {
			return silentExit(exitNotConformant)
		}
		return nil
	case "doctor":
		doc := doctorOf(io, st, nil)
		writeJSON(io.Out, doc)
		if !doc.Ready {
			return silentExit(exitError)
		}
		return nil
	case "mcp":
		if harness == "" {
			harness = "mcp"
		}
		return runMCP(context.Background(), name+" mcp", io, g, harness)
	case "pack", "export":
		return dropInPack(a, io, st)
	case "land", "unpack", "import":
		return dropInLand(a, io, st)
	}
	return fmt.Errorf("unknown command: %s", a[0])
}
