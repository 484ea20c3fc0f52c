package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	actsconformance "github.com/tp-dev/tp/acts/conformance"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/plural"
)

type actsSyncOpts struct {
	doc, project, profile, principalTag, secretFile string
	dryRun, commit                                  bool
}

func newActsSyncCmd(io *IO, g *globalOpts) *cobra.Command {
	o := &actsSyncOpts{}
	cmd := &cobra.Command{
		Use:   "sync DOC --project P",
		Short: "Run the registrar over a state document (§4)",
		Long: `Run the registrar over one project's state document (Acts 0.3 §4): apply
the principal's pending settlements (strike settled lines, re-add reopened
ones), relink lines that lost their key marker, raise and stamp new
principal lines, amend edited ones, and claim keys whose lines vanished.

Order, for crash safety: records are sent to the record log first; only
then is the document written (temp file, fsync, rename; CRLF line ends and
the file mode are kept); with --commit the change is committed with git;
only then are the applied settlements acknowledged. A crash at any point is
repaired by running sync again, which re-sends the same record ids.

Malformed lines and everything the registrar decided not to do are printed
as warnings.`,
		Example: `  tp acts sync STATE.md --project demo --dry-run
  tp acts sync STATE.md --project demo --commit
  tp acts sync 狀態.md --project demo --profile zh-hant --principal-tag Owner`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.doc = args[0]
			return runActsSync(io, g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.project, "project", "", "the project the document belongs to (required; part of every key)")
	f.StringVar(&o.profile, "profile", "en", "Markdown profile: "+strings.Join(acts.ProfileNames(), " or "))
	f.StringVar(&o.principalTag, "principal-tag", "", "the principal's tag in task lines (zh-hant profile)")
	f.StringVar(&o.secretFile, "key-secret-file", "", "derive keys with HMAC and the secret in this file, - for stdin (§10); plain keys are still recognised")
	f.BoolVar(&o.dryRun, "dry-run", false, "show what would be sent and changed; write nothing")
	f.BoolVar(&o.commit, "commit", false, "commit the document change with git before acknowledging")
	return cmd
}

func runActsSync(io *IO, g *globalOpts, o *actsSyncOpts) error {
	if o.project == "" {
		return withHint(errors.New("sync needs --project: the project is part of every key (§6.1)"), "tp acts sync STATE.md --project NAME")
	}
	if err := acts.CheckProjectName(o.project); err != nil {
		return fmt.Errorf("--project: %w", err)
	}
	prof, err := acts.ProfileFor(o.profile, o.principalTag)
	if err != nil {
		return err
	}
	var secret []byte
	if o.secretFile != "" {
		// - reads the secret from stdin, so it need not sit in a file.
		var name string
		if secret, name, err = readInput(io, o.secretFile); err != nil {
			return err
		}
		if secret = bytes.TrimSpace(secret); len(secret) == 0 {
			return fmt.Errorf("%s: the key secret is empty", name)
		}
	}
	s, err := actsOpenSession(io, g)
	if err != nil {
		return err
	}
	// With the acts dir in git (D20): one commit for what this run sent
	// and acknowledged, pushed.
	rep, err := s.Sync(context.Background(), actsession.SyncRequest{
		Document: o.doc, Project: o.project, Profile: prof, Secret: secret,
		DryRun: o.dryRun, Commit: o.commit,
		Waiting: func() {
			fmt.Fprintf(io.Err, "tp: waiting for another tp acts sync of project %s\n", display.Line(o.project))
		},
	})
	if rep != nil {
		if rerr := actsReport(io, g, rep); err == nil {
			err = rerr
		}
	}
	return err
}

func actsReport(io *IO, g *globalOpts, rep *actsession.SyncReport) error {
	if g.json {
		return writeJSON(io.Out, rep)
	}
	for _, p := range rep.LogProblems {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", p)
	}
	for _, rj := range rep.Rejected {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", rj)
	}
	for _, v := range rep.Vanished {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", v)
	}
	verb := func(done, would string) string {
		if rep.DryRun {
			return would
		}
		return done
	}
	for _, a := range rep.Applied {
		fmt.Fprintf(io.Out, "%s %s %s (%s%s)\n", verb("applied", "would apply"), a.Type, a.ID, a.Key, actsPrefixed(": ", a.Outcome))
		if a.Note != "" {
			fmt.Fprintf(io.Out, "note on %s with the %s: %q\n", a.Key, a.Type, a.Note)
		}
	}
	for _, s := range rep.Sent {
		res := verb(s.Result, "would send")
		if res == "written" {
			res = "sent"
		}
		fmt.Fprintf(io.Out, "%s %s %s\n", res, s.Type, s.ID)
	}
	doc := display.Line(rep.Document)
	switch {
	case !rep.Changed:
		fmt.Fprintf(io.Out, "%s unchanged\n", doc)
	case rep.DryRun:
		fmt.Fprintf(io.Out, "%s would change: %d stamped, %d struck, %d re-added\n", doc, rep.Stamped, rep.Struck, rep.Added)
	case rep.Written:
		fmt.Fprintf(io.Out, "%s written: %d stamped, %d struck, %d re-added\n", doc, rep.Stamped, rep.Struck, rep.Added)
	}
	if rep.Committed {
		fmt.Fprintf(io.Out, "%s committed\n", doc)
	}
	for _, d := range rep.Delivered {
		switch d.Type {
		case acts.TypeNote:
			fmt.Fprintf(io.Out, "note on %s: %q\n", d.Key, d.Text)
		default:
			fmt.Fprintf(io.Out, "%s: %s %s %s\n", d.Type, d.Key, d.Relation, d.Target)
		}
	}
	// Malformed lines beyond the first few are counted, not listed: a
	// document with thousands of them would bury the warnings that matter.
	// tp acts lint (and --json) list every one.
	hidden := 0
	shown := 0
	for _, w := range rep.Warnings {
		if w.Kind == acts.WarnMalformed || w.Kind == acts.WarnProfile || w.Kind == acts.WarnIgnored {
			if shown >= actsMalformedShown {
				hidden++
				continue
			}
			shown++
		}
		fmt.Fprintf(io.Err, "tp: warning: %s: %s\n", doc, w.String())
	}
	if hidden > 0 {
		fmt.Fprintf(io.Err, "tp: warning: %s: %s not shown; tp acts lint %s lists them all\n", doc, plural.N(hidden, "more malformed line"), doc)
	}
	return nil
}

// actsMalformedShown is how many malformed lines sync lists on stderr.
const actsMalformedShown = 20

func actsPrefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func newActsLintCmd(io *IO, g *globalOpts) *cobra.Command {
	var profile, tag string
	cmd := &cobra.Command{
		Use:   "lint DOC",
		Short: "Report malformed task lines of a state document",
		Long: `Read the tasks section of a state document as every conforming reader
does (§5.2–§5.4) and report each malformed line with its number and a
reason a person can act on. Exits 1 when there is any.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			prof, err := acts.ProfileFor(profile, tag)
			if err != nil {
				return err
			}
			doc, err := os.ReadFile(args[0])
			if err != nil {
				return actsession.NoDocument(args[0], err)
			}
			probs, err := acts.Lint(doc, prof)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			name := display.Line(args[0])
			if g.json {
				type lintJSON struct {
					Document string         `json:"document"`
					Problems []acts.Problem `json:"problems"`
				}
				ps := []acts.Problem{}
				for _, p := range probs {
					p.Reason = display.Line(p.Reason)
					ps = append(ps, p)
				}
				if err := writeJSON(io.Out, lintJSON{name, ps}); err != nil {
					return err
				}
			} else {
				for _, p := range probs {
					fmt.Fprintf(io.Out, "%s:%d: %s\n", name, p.Line, display.Line(p.Reason))
				}
			}
			if len(probs) > 0 {
				if !g.json {
					ignored := 0
					for _, p := range probs {
						if p.Ignored {
							ignored++
						}
					}
					var say []string
					if n := len(probs) - ignored; n > 0 {
						say = append(say, plural.N(n, "malformed line"))
					}
					if ignored > 0 {
						say = append(say, plural.N(ignored, "ignored task-like line"))
					}
					fmt.Fprintln(io.Out, strings.Join(say, ", "))
				}
				return silentExit(exitError)
			}
			if !g.json {
				fmt.Fprintf(io.Out, "%s: no malformed lines\n", name)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&profile, "profile", "en", "Markdown profile: "+strings.Join(acts.ProfileNames(), " or "))
	cmd.Flags().StringVar(&tag, "principal-tag", "", "the principal's tag in task lines (zh-hant profile)")
	return cmd
}

func newActsConformanceCmd(io *IO, g *globalOpts) *cobra.Command {
	return &cobra.Command{
		Use:   "conformance DIR",
		Short: "Run Acts 0.3 conformance fixtures (docs/acts-fixtures.md)",
		Long: `Run every fixture file of DIR (profiles.json, parse.json, keys.json,
relink.json, register.json, amend.json, apply.json, reconcile.json,
records.json, lifecycle.json, run.json) and print one line per failing case
and "N passed, N failed". Exit 0 when every case passed, 2 when some failed,
1 when a file could not be read.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, failed, err := actsconformance.RunConformance(args[0], io.Out)
			if err != nil {
				return withCode(exitError, err)
			}
			if failed > 0 {
				return silentExit(exitNotConformant)
			}
			return nil
		},
	}
}
