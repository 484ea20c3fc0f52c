package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/gitexec"
	"github.com/tp-dev/tp/internal/sanitize"
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
	f.StringVar(&o.secretFile, "key-secret-file", "", "derive keys with HMAC and the secret in this file (§10); plain keys are still recognised")
	f.BoolVar(&o.dryRun, "dry-run", false, "show what would be sent and changed; write nothing")
	f.BoolVar(&o.commit, "commit", false, "commit the document change with git before acknowledging")
	return cmd
}

// actsProfile builds the profile the flags name.
func actsProfile(name, tag string) (acts.Profile, error) {
	params := map[string]string{}
	for _, d := range acts.ProfileDefs() {
		if d.Name != name {
			continue
		}
		for _, p := range d.Params {
			if p == "principal_tag" && tag != "" {
				params[p] = tag
			}
		}
		if tag != "" && len(params) == 0 {
			return acts.Profile{}, fmt.Errorf("--principal-tag does not apply to the %s profile", name)
		}
	}
	return acts.ProfileByName(name, params)
}

type actsSentJSON struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Key    string `json:"key"`
	Result string `json:"result,omitempty"` // written, duplicate; empty in a dry run
}

type actsAppliedJSON struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Key     string `json:"key"`
	Outcome string `json:"outcome,omitempty"`
	// Note is the settlement's note: delivered to the project with it
	// (§8), never written to the document.
	Note string `json:"note,omitempty"`
}

type actsSyncJSON struct {
	Document     string            `json:"document"`
	Project      string            `json:"project"`
	Profile      string            `json:"profile"`
	DryRun       bool              `json:"dry_run"`
	Changed      bool              `json:"changed"`
	Written      bool              `json:"written"`
	Committed    bool              `json:"committed"`
	Sent         []actsSentJSON    `json:"sent"`
	Applied      []actsAppliedJSON `json:"applied"`
	Acknowledged []string          `json:"acknowledged"`
	Stamped      int               `json:"stamped"`
	Struck       int               `json:"struck"`
	Added        int               `json:"added"`
	Warnings     []acts.Warning    `json:"warnings"`
	LogProblems  []string          `json:"log_problems"`
	// Delivered are the notes and relations for the project (§4 step 1:
	// delivered, never applied to the document), each shown once.
	Delivered []actsDeliveredJSON `json:"delivered"`
}

type actsDeliveredJSON struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Key      string `json:"key"`
	Text     string `json:"text,omitempty"`
	Relation string `json:"relation,omitempty"`
	Target   string `json:"target,omitempty"`
}

func runActsSync(io *IO, g *globalOpts, o *actsSyncOpts) error {
	// A sync holds the whole log in memory for a moment; collecting half as
	// often trades some memory (about 20%) for CPU time (about 25% less).
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	if o.project == "" {
		return withHint(errors.New("sync needs --project: the project is part of every key (§6.1)"), "tp acts sync STATE.md --project NAME")
	}
	if strings.ContainsAny(o.project, "/\\\x00\r\n") || strings.TrimSpace(o.project) != o.project {
		return fmt.Errorf("--project %q: a project name is one line without slashes or surrounding spaces", sanitize.Line(o.project))
	}
	prof, err := actsProfile(o.profile, o.principalTag)
	if err != nil {
		return err
	}
	var secret []byte
	if o.secretFile != "" {
		if secret, err = os.ReadFile(o.secretFile); err != nil {
			return err
		}
		if secret = bytes.TrimSpace(secret); len(secret) == 0 {
			return fmt.Errorf("%s: the key secret is empty", o.secretFile)
		}
	}
	l, err := openActsLog(io, g)
	if err != nil {
		return err
	}
	if !o.dryRun {
		// One registrar run per project at a time: another run's write
		// must not land over this one's strike after it acknowledged it.
		unlock, err := l.LockProject(o.project, func() {
			fmt.Fprintf(io.Err, "tp: waiting for another tp acts sync of project %s\n", sanitize.Line(o.project))
		})
		if err != nil {
			return err
		}
		defer unlock()
	}
	path, err := filepath.EvalSymlinks(o.doc) // write through a link, keep the link
	if err != nil {
		return err
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", o.doc)
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}

	ld, err := l.Load(o.project)
	if err != nil {
		return err
	}
	states, errs := acts.States(ld.Records)
	probs := actsProblemStrings(ld.Problems)
	for _, e := range errs {
		probs = append(probs, sanitize.Line(e.Error()))
	}
	byKey := make(map[string]*acts.ActState, len(states))
	for k, st := range states {
		byKey[k.Key] = st
	}
	// Run reads restore_text from reopened records only (§3); the report
	// names the applied settlements. Neither needs the whole log by id.
	reopened := map[string]acts.Record{}
	settlements := map[string]acts.Record{}
	for _, st := range byKey {
		if st.SettlementID != "" && !ld.Acked[st.SettlementID] {
			settlements[st.SettlementID] = acts.Record{}
		}
	}
	for _, r := range ld.Records {
		if _, ok := settlements[r.ID]; ok {
			settlements[r.ID] = r
			if r.Type == acts.TypeReopened {
				reopened[r.ID] = r
			}
		}
	}
	out, err := acts.Run(acts.RunInput{
		Document: doc, Profile: prof, Project: o.project,
		Acts: byKey, Acked: ld.Acked, Records: reopened,
		Now: actsNow(), By: "registrar:" + o.project, Secret: secret, Source: filepath.Base(o.doc),
	})
	if err != nil {
		return fmt.Errorf("%s: %w", o.doc, err)
	}

	rep := actsSyncJSON{
		Document: o.doc, Project: sanitize.Line(o.project), Profile: prof.Name, DryRun: o.dryRun,
		Changed: out.Changed, Stamped: out.Stamped, Struck: out.Struck, Added: out.Added,
		Sent: []actsSentJSON{}, Applied: []actsAppliedJSON{}, Acknowledged: []string{},
		Warnings: []acts.Warning{}, LogProblems: probs, Delivered: []actsDeliveredJSON{},
	}
	for _, r := range out.Deliver {
		rep.Delivered = append(rep.Delivered, actsDeliveredJSON{ID: sanitize.Line(r.ID), Type: r.Type,
			Key: sanitize.Line(r.Key), Text: sanitize.Line(r.NoteText()), Relation: sanitize.Line(r.Relation), Target: sanitize.Line(r.Target)})
	}
	for _, w := range out.Warnings {
		w.Message = sanitize.Line(w.Message)
		w.Key = sanitize.Line(w.Key)
		rep.Warnings = append(rep.Warnings, w)
	}
	for _, id := range out.Applied {
		a := actsAppliedJSON{ID: sanitize.Line(id)}
		if r, ok := settlements[id]; ok {
			a.Type, a.Key, a.Outcome, a.Note = r.Type, r.Key, r.Outcome, sanitize.Line(r.Note)
		}
		rep.Applied = append(rep.Applied, a)
	}

	// 1. Send, as one batch: durable before anything else happens. A failed
	// send stops here: nothing is stamped for it (§4).
	var results []acts.WriteOutcome
	var sendErr error
	if !o.dryRun {
		results, sendErr = l.WriteAll(out.Send)
	}
	for i, r := range out.Send {
		s := actsSentJSON{ID: sanitize.Line(r.ID), Type: r.Type, Key: r.Key}
		if !o.dryRun {
			if i >= len(results) {
				break
			}
			s.Result = results[i].String()
		}
		rep.Sent = append(rep.Sent, s)
	}
	if sendErr != nil {
		actsReport(io, g, &rep)
		failed := "a record"
		if len(results) < len(out.Send) {
			failed = sanitize.Line(out.Send[len(results)].ID)
		}
		return fmt.Errorf("sending %s: %w (the document was not written)", failed, sendErr)
	}
	if o.dryRun {
		return actsReport(io, g, &rep)
	}
	// 2. Write the document durably, 3. commit it if asked.
	if !out.Changed && o.commit && len(out.Applied) > 0 {
		// Nothing to write, but settlements to acknowledge: an earlier run
		// may have written them without committing (its commit failed).
		// With --commit they are durable only once committed.
		dirty, err := actsGitDirty(path)
		if err != nil {
			actsReport(io, g, &rep)
			return withHint(fmt.Errorf("%s: cannot tell whether the document is committed: %w", o.doc, err), "settlements stay unacknowledged; commit by hand and run sync again")
		}
		if dirty {
			if err := actsGitCommit(path, actsCommitMessage(o.project, &rep)); err != nil {
				actsReport(io, g, &rep)
				return withHint(fmt.Errorf("%s is not committed: %w", o.doc, err), "settlements stay unacknowledged; commit by hand and run sync again")
			}
			rep.Committed = true
		}
	}
	if out.Changed {
		if beforeDocWrite != nil {
			beforeDocWrite()
		}
		if err := actsReplaceFile(path, doc, out.Document, info.Mode().Perm()); err != nil {
			actsReport(io, g, &rep)
			return err
		}
		rep.Written = true
		if o.commit {
			if err := actsGitCommit(path, actsCommitMessage(o.project, &rep)); err != nil {
				actsReport(io, g, &rep)
				return withHint(fmt.Errorf("%s was written but not committed: %w", o.doc, err), "settlements stay unacknowledged; commit by hand and run sync again")
			}
			rep.Committed = true
		}
	}
	// 4. Acknowledge what is now durably in the document, and the notes
	// and relations this report delivers.
	acked := append([]string{}, out.Applied...)
	for _, r := range out.Deliver {
		acked = append(acked, r.ID)
	}
	if err := l.Ack(o.project, acked...); err != nil {
		actsReport(io, g, &rep)
		return err
	}
	for _, id := range out.Applied {
		rep.Acknowledged = append(rep.Acknowledged, sanitize.Line(id))
	}
	return actsReport(io, g, &rep)
}

func actsReport(io *IO, g *globalOpts, rep *actsSyncJSON) error {
	if g.json {
		return writeJSON(io.Out, rep)
	}
	for _, p := range rep.LogProblems {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", p)
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
	doc := sanitize.Line(rep.Document)
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
		if w.Kind == acts.WarnMalformed || w.Kind == acts.WarnProfile {
			if shown >= actsMalformedShown {
				hidden++
				continue
			}
			shown++
		}
		fmt.Fprintf(io.Err, "tp: warning: %s: %s\n", doc, w.String())
	}
	if hidden > 0 {
		fmt.Fprintf(io.Err, "tp: warning: %s: %d more malformed lines not shown; tp acts lint %s lists them all\n", doc, hidden, doc)
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

// actsReplaceFile writes data over path atomically: temp file beside it,
// fsync, rename, fsync the folder. It refuses when the file changed since
// it was read (an agent editing it meanwhile): the records are already
// sent, so the next run stamps without re-raising.
func actsReplaceFile(path string, old, data []byte, perm fs.FileMode) error {
	changed := errors.New("changed")
	err := durable.WriteFileIf(path, data, perm, func() error {
		if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, old) {
			return changed
		}
		return nil
	})
	if err == changed {
		return withHint(fmt.Errorf("%s changed while tp was syncing it; nothing was written", path), "run tp acts sync again")
	}
	var de *durable.Error
	if errors.As(err, &de) && de.Op != "rename" && de.Op != "sync folder" {
		return fmt.Errorf("%w (the document is unchanged)", err)
	}
	return err
}

// actsCommitMessage lists what the run applied and sent.
func actsCommitMessage(project string, rep *actsSyncJSON) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tp acts sync: %s: %d applied, %d stamped, %d struck, %d re-added\n",
		sanitize.Line(project), len(rep.Applied), rep.Stamped, rep.Struck, rep.Added)
	if len(rep.Applied) > 0 {
		b.WriteString("\nApplied:\n")
		for _, a := range rep.Applied {
			fmt.Fprintf(&b, "- %s %s (%s%s)\n", a.Type, a.ID, a.Key, actsPrefixed(": ", a.Outcome))
			if a.Note != "" {
				fmt.Fprintf(&b, "  note: %q\n", a.Note)
			}
		}
	}
	if len(rep.Sent) > 0 {
		b.WriteString("\nSent:\n")
		for _, s := range rep.Sent {
			fmt.Fprintf(&b, "- %s %s\n", s.Type, s.ID)
		}
	}
	return b.String()
}

// actsGitDirty reports whether the document differs from what its
// repository has committed (or is not tracked yet). The folder may be a
// landed pack's luggage: git runs through gitexec, so nothing its .git
// names is run.
func actsGitDirty(path string) (bool, error) {
	ctx := context.Background()
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	g, err := gitexec.Open(ctx, dir)
	if err != nil {
		return false, err
	}
	out, err := g.Read(ctx, "status", "--porcelain", "--ignore-submodules=all", "--", base)
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(string(out)) != "", nil
}

// actsGitCommit commits only the document, in the repository that holds it.
func actsGitCommit(path, msg string) error {
	ctx := context.Background()
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	g, err := gitexec.Open(ctx, dir)
	if err != nil {
		return err
	}
	if _, err := g.Run(ctx, "add", "--", base); err != nil {
		return err
	}
	_, err = g.Run(ctx, "commit", "--quiet", "--no-verify", "-m", msg, "--", base)
	return err
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
			prof, err := actsProfile(profile, tag)
			if err != nil {
				return err
			}
			doc, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			probs, err := acts.Lint(doc, prof)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			name := sanitize.Line(args[0])
			if g.json {
				type lintJSON struct {
					Document string         `json:"document"`
					Problems []acts.Problem `json:"problems"`
				}
				ps := []acts.Problem{}
				for _, p := range probs {
					p.Reason = sanitize.Line(p.Reason)
					ps = append(ps, p)
				}
				if err := writeJSON(io.Out, lintJSON{name, ps}); err != nil {
					return err
				}
			} else {
				for _, p := range probs {
					fmt.Fprintf(io.Out, "%s:%d: %s\n", name, p.Line, sanitize.Line(p.Reason))
				}
			}
			if len(probs) > 0 {
				if !g.json {
					fmt.Fprintf(io.Out, "%d malformed line(s)\n", len(probs))
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
			_, failed, err := acts.RunConformance(args[0], io.Out)
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

// beforeDocWrite is a test seam: it runs after the records are sent and
// before the document is written, where an agent may edit the document.
var beforeDocWrite func()
