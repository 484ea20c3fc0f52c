package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
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
	Problems []string             `json:"problems"`
}

type actsVerifyJSON struct {
	ActsDir  string                  `json:"acts_dir"`
	OK       bool                    `json:"ok"`
	Projects []actsVerifyProjectJSON `json:"projects"`
}

func newActsVerifyCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	var forget []string
	cmd := &cobra.Command{
		Use:   "verify [--project P] [--forget RECORD_ID]",
		Short: "Check every record of the log, and every signature (exit 1 on any failure)",
		Long: `Read every record of the log (or of one project) as the registrar does:
each file must be a valid record, and in a project with principals every
principal-side record (settled, reopened, same_as, the principal's notes)
must carry a signature of a principal current in the project's principal
chain, bound to the project's identity; the chain must start with a key your
trust store trusts and hold the newest change this machine accepted (D19).
A principal-side record this machine applied that is gone from the log, or
changed, is reported (tampering). Prints each finding on one line (file,
record, rule); exits 1 when anything failed.

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
				pr, err := actsVerifyProject(l, p)
				if err != nil {
					return err
				}
				if len(pr.Rejected) > 0 || len(pr.Problems) > 0 || len(pr.Vanished) > 0 {
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
	return cmd
}

func actsVerifyProject(l *recordlog.Log, project string) (actsVerifyProjectJSON, error) {
	out := actsVerifyProjectJSON{Project: sanitize.Line(project), Principals: []string{}, Rejected: []recordlog.Rejected{}, Vanished: []recordlog.Vanished{}, Problems: []string{}}
	ld, err := l.Load(project)
	if err != nil {
		return out, err
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
	if len(p.Rejected) > 0 || len(p.Problems) > 0 || len(p.Vanished) > 0 {
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
	for _, pr := range p.Problems {
		fmt.Fprintf(io.Out, "  %s\n", pr)
	}
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
