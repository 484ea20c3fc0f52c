package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/checkpoint"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/store"
)

// checkpointOptions are tp checkpoint's flags (docs/architecture.md, command-line conventions; D17).
type checkpointOptions struct {
	expected    int64
	hasExpected bool
	state       string
	hasState    bool
	goal        string
	hasGoal     bool
	facts       []string
	verified    bool
	decisions   []string
	next        []string
	artifacts   []string
	file        string
	harness     string
}

// checkpointJSON is tp checkpoint --json: the report and the prompt that
// hands the work on, as task-passport checkpoint prints them.
type checkpointJSON struct {
	*checkpoint.Report
	HandoffPrompt string `json:"handoff_prompt"`
}

func newCheckpointCmd(io *IO, g *globalOpts) *cobra.Command {
	var o checkpointOptions
	cmd := &cobra.Command{
		Use:   "checkpoint [ID] --expected-version N",
		Short: "Record durable state in a passport: state, facts, decisions, next steps",
		Long: `Record what is true now, so whoever picks the work up next (an agent, a
person, another machine) starts from it (D17). --expected-version is
the version you read (tp open shows it): when the passport changed since, the
checkpoint is refused as a conflict and nothing is written (D15).

--fact "claim|scope[|evidence]" adds a fact; scope is machine (paths, versions,
what is installed, "it runs"), org or universal (TaskPack 0.1 §4.2). --verified
marks this call's facts as proven here and stamps verified_on with this
machine; a fact never verified carries no verified_on, so no landing can
restore a ✓ it never had. A fact with the claim of one already recorded
replaces it. --next replaces the next steps (in the order given). Strings that
look like credentials are refused (D5): a secret never reaches the store.

--file FILE (or - for stdin) reads the same fields as a JSON document
({"state", "goal", "facts", "verified", "decisions", "next_steps",
"artifacts"}), or a whole state object as tp open --json or
task_passport_open return it, which replaces the stored state (then ID may be
left out: it comes from the object). A UTF-8 byte order mark is accepted.`,
		Example: `  tp checkpoint TP-K7WF-3NQX --expected-version 3 --state "tests pass on main" \
      --fact "CI runs on Go 1.26|org" --fact "make test passes|machine|ran it at 14:02" --verified \
      --decision "keep cobra|its per-command help" --next "tag v0.2" --next "write the notes"
  tp open TP-K7WF-3NQX --json > s.json   # edit s.json, then:
  tp checkpoint --file s.json --expected-version 3
  echo '{"state": "blocked on review"}' | tp checkpoint TP-K7WF-3NQX --expected-version 4 --file -`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			o.hasExpected = f.Changed("expected-version")
			o.hasState = f.Changed("state")
			o.hasGoal = f.Changed("goal")
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			return safeErr(runCheckpoint(cmd.Context(), io, g, id, o))
		},
	}
	f := cmd.Flags()
	f.Int64Var(&o.expected, "expected-version", 0, "the version you read (required; a stale one is refused)")
	f.StringVar(&o.state, "state", "", "the current state, replacing the recorded one")
	f.StringVar(&o.goal, "goal", "", "a new goal")
	f.StringArrayVar(&o.facts, "fact", nil, `a fact: "claim|scope[|evidence]", scope machine, org or universal (repeatable)`)
	f.BoolVar(&o.verified, "verified", false, "this call's facts were proven on this machine (stamps verified_on)")
	f.StringArrayVar(&o.decisions, "decision", nil, `a decision: "what[|why]" (repeatable)`)
	f.StringArrayVar(&o.next, "next", nil, "a next step; given at all, they replace the next steps, in order (repeatable)")
	f.StringArrayVar(&o.artifacts, "artifact", nil, "an artifact: a path, URL or revision (repeatable)")
	f.StringVar(&o.file, "file", "", "a JSON document with the fields or a whole state object (- reads stdin)")
	f.StringVar(&o.file, "from", "", "same as --file")
	f.StringVar(&o.harness, "harness", "", "recorded as the passport's harness (default tp)")
	f.MarkHidden("from")
	return cmd
}

func runCheckpoint(ctx context.Context, io *IO, g *globalOpts, id string, o checkpointOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	req, err := checkpointRequest(io, id, &o)
	if err != nil {
		return err
	}
	if !o.hasExpected {
		return withHint(errors.New("checkpoint: --expected-version N is required (D15: the version you read, so a change made meanwhile is not overwritten)"),
			"tp open "+display.Line(idOrPlaceholder(req.ID))+" shows the version to checkpoint against")
	}
	req.ExpectedVersion = o.expected
	st, err := openStore(io, g)
	if err != nil {
		return err
	}
	rep, err := checkpoint.Run(ctx, st, req)
	if err != nil {
		if checkpoint.IsConflict(err) {
			return withHint(err, "read it again (tp open "+display.Line(idOrPlaceholder(req.ID))+"), redo the change on that version; nothing was written")
		}
		return storeHint(err)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(w))
	}
	prompt, _ := briefing.Prompt(rep.PassportID, "en")
	if g.json {
		return writeJSON(io.Out, checkpointJSON{Report: rep, HandoffPrompt: prompt})
	}
	fmt.Fprintf(io.Out, "checkpointed %s: version %d → %d (%s)\n", display.Line(rep.PassportID),
		rep.PreviousVersion, rep.StateVersion, strings.Join(rep.Changed, ", "))
	fmt.Fprintf(io.Out, "next checkpoint: --expected-version %d\n", rep.StateVersion)
	return nil
}

// checkpointRequest builds the request from --file (if any) and the flags;
// flags add to what the document says.
func checkpointRequest(io *IO, id string, o *checkpointOptions) (checkpoint.Request, error) {
	req := checkpoint.Request{ID: id, Machine: store.Machine(io.Env), Harness: o.harness}
	if req.Harness == "" {
		req.Harness = store.Harness
	}
	if o.file != "" {
		data, name, err := readInput(io, o.file)
		if err != nil {
			return req, err
		}
		doc, err := checkpoint.ParseDocument(data, name)
		if err != nil {
			return req, err
		}
		if doc.ID != "" && id != "" && doc.ID != id && doc.Whole == nil {
			return req, fmt.Errorf("%s names passport %s, not %s", display.Line(name), display.Line(doc.ID), display.Line(id))
		}
		d := doc.Request
		d.ID, d.Machine, d.Harness = req.ID, req.Machine, req.Harness
		if d.ID == "" {
			// The document's own id (a whole state's id is checked by Run).
			d.ID = doc.ID
		}
		if doc.HasExpectedVersion && !o.hasExpected {
			o.expected, o.hasExpected = doc.ExpectedVersion, true
		}
		req = d
	}
	if req.Whole != nil && (o.hasState || o.hasGoal || len(o.facts)+len(o.decisions)+len(o.next)+len(o.artifacts) > 0) {
		return req, errors.New("checkpoint: a whole state object replaces the passport; give the changes in it, not also as flags")
	}
	if o.hasState {
		s := o.state
		req.State = &s
	}
	if o.hasGoal {
		s := o.goal
		req.Goal = &s
	}
	for _, raw := range o.facts {
		f, err := checkpoint.ParseFact(raw, o.verified)
		if err != nil {
			return req, err
		}
		req.Facts = append(req.Facts, f)
	}
	if o.verified && len(o.facts) == 0 && o.file == "" {
		return req, errors.New("checkpoint: --verified marks the facts given with --fact; there are none")
	}
	for _, raw := range o.decisions {
		d, err := checkpoint.ParseDecision(raw)
		if err != nil {
			return req, err
		}
		req.Decisions = append(req.Decisions, d)
	}
	if len(o.next) > 0 {
		req.NextSteps = append([]string{}, o.next...)
	}
	req.Artifacts = append(req.Artifacts, o.artifacts...)
	if req.Empty() {
		return req, withHint(errors.New("checkpoint: nothing to record"),
			"give --state, --fact, --decision, --next, --artifact, --goal, or --file FILE")
	}
	return req, nil
}

// readInput reads a file named on the command line; "-" is stdin (a flag
// that takes a file takes - everywhere, as task-passport's scripts expect).
func readInput(io *IO, name string) ([]byte, string, error) {
	if name == "-" {
		if io.In == nil {
			return nil, "stdin", errors.New("stdin: nothing to read")
		}
		data, err := readAllLimited(io.In, maxInput)
		if err != nil {
			return nil, "stdin", fmt.Errorf("stdin: %w", err)
		}
		return data, "stdin", nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, name, err
	}
	defer f.Close()
	data, err := readAllLimited(f, maxInput)
	if err != nil {
		return nil, name, fmt.Errorf("%s: %w", name, err)
	}
	return data, name, nil
}

// maxInput bounds a JSON document read from a file or stdin: a passport
// state is small, and reading without a bound lets a stray pipe fill memory.
const maxInput = 64 << 20

func readAllLimited(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d MiB; a checkpoint document is a passport state", max>>20)
	}
	return data, nil
}

func idOrPlaceholder(s string) string {
	if s == "" {
		return "ID"
	}
	return s
}
