package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/sanitize"
)

// tp acts verify: every record of the log read and checked as the
// registrar reads it — schemas, and for projects with principals, every
// principal-side record's signature and the principals themselves (D19).

type actsVerifyProjectJSON struct {
	Project         string               `json:"project"`
	Records         int                  `json:"records"`
	Signed          int                  `json:"signed"` // principal-side records whose signature verified
	Unauthenticated bool                 `json:"unauthenticated"`
	Unsigned        int                  `json:"unsigned_principal_records"` // principal-side records of a project without principals
	Principals      []string             `json:"principals"`
	Rejected        []recordlog.Rejected `json:"rejected"`
	// Vanished: principal-side records this machine applied that are gone
	// from the log (D19 tamper evidence).
	Vanished []recordlog.Vanished `json:"vanished"`
	// Unbacked: principal-side records acked/ names as applied that this
	// machine's registrar never applied (a forged acknowledgement, or
	// another machine's; D19).
	Unbacked []recordlog.Vanished `json:"unbacked"`
	// Document: lines of the --document state documents that disagree
	// with the log (D19, D16).
	Document []string `json:"document"`
	Problems []string `json:"problems"`
}

func (p *actsVerifyProjectJSON) failed() bool {
	return len(p.Rejected) > 0 || len(p.Problems) > 0 || len(p.Vanished) > 0 || len(p.Unbacked) > 0 || len(p.Document) > 0
}

type actsVerifyJSON struct {
	ActsDir  string                  `json:"acts_dir"`
	OK       bool                    `json:"ok"`
	Projects []actsVerifyProjectJSON `json:"projects"`
}

func newActsVerifyCmd(io *IO, g *globalOpts) *cobra.Command {
	var project, profile, principalTag string
	var forget, documents []string
	cmd := &cobra.Command{
		Use:   "verify [--project P] [--forget RECORD_ID] [--document DOC]",
		Short: "Check every record of the log, and every signature (exit 1 on any failure)",
		Long: `Read every record of the log (or of one project) as the registrar does:
each file must be a valid record, and in a project with principals every
principal-side record (settled, reopened, same_as, the principal's notes)
must carry a signature of a principal current in the project's principal
chain, bound to the project's identity; the chain must start with a key your
trust store trusts and hold the newest change this machine accepted (D19).
A principal-side record this machine applied that is gone from the log, or
changed, is reported (tampering), and so is an acknowledgement in acked/
of a settlement this machine's registrar never applied (its ledger in the
trust store decides, never acked/). With --document (and --project), the
state document the registrar keeps is read too: a line that still carries
a settled act's key, where this machine struck it before or acked/ says it
was, is reported. Prints each finding on one line (file, record, rule);
exits 1 when anything failed.

Sync changes nothing for an act whose applied record vanished, until you
decide: settle it again (a principal's new signed record), and/or tell this
machine to forget the vanished record with --forget RECORD_ID (with
--project), after which sync treats the act by the log as it now is.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := openActsLog(io, g)
			if err != nil {
				return err
			}
			if err := actsPull(io, g, l); err != nil {
				return err
			}
			if len(documents) > 0 && project == "" {
				return withHint(errors.New("--document needs --project: a state document belongs to one project"), "tp acts verify --project NAME --document STATE.md")
			}
			prof, err := acts.ProfileFor(profile, principalTag)
			if err != nil {
				return err
			}
			if len(forget) > 0 {
				if project == "" {
					return withHint(errors.New("--forget needs --project"), "tp acts verify --project NAME --forget RECORD_ID")
				}
				pr, err := l.LoadPrincipals(project)
				if err != nil {
					return err
				}
				for _, id := range forget {
					found, err := l.Forget(project, pr.ProjectID, id)
					if err != nil {
						return err
					}
					if !found {
						return fmt.Errorf("this machine has no applied record %s of project %s to forget", display.Line(id), display.Line(project))
					}
					fmt.Fprintf(io.Err, "tp: forgot the applied record %s: sync treats its act by the log as it now is\n", display.Line(id))
				}
				if err := actsCommitPush(io, g, l, fmt.Sprintf("tp acts verify --forget: %s: %s", project, strings.Join(forget, ", "))); err != nil {
					return err
				}
			}
			projects := []string{project}
			var top []recordlog.LogProblem
			if project == "" {
				if projects, top, err = l.Projects(); err != nil {
					return err
				}
			}
			rep := actsVerifyJSON{ActsDir: sanitize.Line(l.Dir), OK: len(top) == 0, Projects: []actsVerifyProjectJSON{}}
			for _, p := range projects {
				pr, err := actsVerifyProject(l, p, documents, prof)
				if err != nil {
					return err
				}
				if pr.failed() {
					rep.OK = false
				}
				rep.Projects = append(rep.Projects, pr)
			}
			if g.json {
				if err := writeJSON(io.Out, rep); err != nil {
					return err
				}
			} else {
				actsWarnProblems(io, top)
				for _, p := range rep.Projects {
					printVerifyProject(io, p)
				}
			}
			if !rep.OK {
				return silentExit(exitError)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "only this project")
	cmd.Flags().StringArrayVar(&forget, "forget", nil, "forget a vanished applied record (the person's decision; with --project)")
	cmd.Flags().StringArrayVar(&documents, "document", nil, "also check this state document against the log (with --project)")
	cmd.Flags().StringVar(&profile, "profile", "en", "Markdown profile of --document: "+strings.Join(acts.ProfileNames(), " or "))
	cmd.Flags().StringVar(&principalTag, "principal-tag", "", "the principal's tag in task lines of --document (zh-hant profile)")
	return cmd
}

func actsVerifyProject(l *recordlog.Log, project string, documents []string, prof acts.Profile) (actsVerifyProjectJSON, error) {
	out := actsVerifyProjectJSON{Project: sanitize.Line(project), Principals: []string{}, Rejected: []recordlog.Rejected{}, Vanished: []recordlog.Vanished{},
		Unbacked: []recordlog.Vanished{}, Document: []string{}, Problems: []string{}}
	ld, err := l.Load(project)
	if err != nil {
		return out, err
	}
	for _, v := range ld.Unbacked {
		out.Unbacked = append(out.Unbacked, v.Sanitized())
	}
	for _, doc := range documents {
		b, err := readStateDocument(doc)
		if err != nil {
			return out, err
		}
		fs, err := actsession.CheckDocument(ld, doc, b, prof)
		if err != nil {
			return out, err
		}
		for _, f := range fs {
			out.Document = append(out.Document, f.Text)
		}
	}
	out.Records = len(ld.Records) + len(ld.Rejected)
	out.Unauthenticated = ld.Unauthenticated()
	for _, r := range ld.Records {
		switch {
		case r.SignedBy != nil:
			out.Signed++
		case acts.PrincipalSide(r):
			out.Unsigned++
		}
	}
	for _, p := range ld.Principals.Chain {
		out.Principals = append(out.Principals, sanitize.Line(p.Name)+" "+p.Fingerprint())
	}
	for _, rj := range ld.Rejected {
		out.Rejected = append(out.Rejected, actsSanitizeRejected(rj))
	}
	for _, p := range ld.Problems {
		out.Problems = append(out.Problems, sanitize.Line(p.String()))
	}
	for _, v := range ld.Vanished {
		out.Vanished = append(out.Vanished, v.Sanitized())
	}
	if b := ld.Principals.Blocked; b != "" && (ld.Principals.Has() || len(ld.Principals.Firsts) > 0) {
		out.Problems = append(out.Problems, sanitize.Line(ld.Principals.Path)+": principals not trusted here: "+sanitize.Line(b))
	}
	if ld.Principals.Mismatch != "" {
		out.Problems = append(out.Problems, "principals not trusted: "+sanitize.Line(ld.Principals.Mismatch))
	}
	for _, p := range ld.Principals.Problems {
		out.Problems = append(out.Problems, sanitize.Line(p))
	}
	if _, errs := acts.States(ld.Records); len(errs) > 0 {
		for _, e := range errs {
			out.Problems = append(out.Problems, sanitize.Line(e.Error()))
		}
	}
	return out, nil
}

func printVerifyProject(io *IO, p actsVerifyProjectJSON) {
	status := "ok"
	if p.failed() {
		status = "FAILED"
	}
	who := "no principal: settlements unauthenticated"
	if !p.Unauthenticated {
		who = fmt.Sprintf("principals: %s", joinOr(p.Principals, "none trusted"))
	}
	fmt.Fprintf(io.Out, "%s: %s: %s, %d signed by a principal, %d failed (%s)\n", p.Project, status, plural.N(p.Records, "record"), p.Signed, len(p.Rejected), who)
	if p.Unauthenticated && p.Unsigned > 0 {
		fmt.Fprintf(io.Out, "  %s could not be checked (no principal)\n", plural.N(p.Unsigned, "principal-side record"))
	}
	for _, r := range p.Rejected {
		fmt.Fprintf(io.Out, "  %s\n", r)
	}
	for _, v := range p.Vanished {
		fmt.Fprintf(io.Out, "  %s\n", v)
	}
	for _, v := range p.Unbacked {
		fmt.Fprintf(io.Out, "  %s\n", v)
	}
	for _, d := range p.Document {
		fmt.Fprintf(io.Out, "  %s\n", d)
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(io.Out, "  %s\n", pr)
	}
}

// readStateDocument reads a state document as sync does: through a link
// (the user's path, D9), a regular file, at most MaxStateDocument bytes.
func readStateDocument(doc string) ([]byte, error) {
	path, err := filepath.EvalSymlinks(doc)
	if err != nil {
		return nil, actsession.NoDocument(doc, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", doc)
	}
	if info.Size() > recordlog.MaxStateDocument {
		return nil, &recordlog.TooLargeError{Path: doc, Limit: recordlog.MaxStateDocument}
	}
	b, err := recordlog.ReadLimited(path, recordlog.MaxStateDocument)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doc, err)
	}
	return b, nil
}

func joinOr(list []string, empty string) string {
	if len(list) == 0 {
		return empty
	}
	out := list[0]
	for _, s := range list[1:] {
		out += ", " + s
	}
	return out
}
