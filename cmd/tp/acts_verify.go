package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/sanitize"
)

// tp acts verify: every record of the log read and checked as the
// registrar reads it — schemas, and for projects with principals, every
// principal-side record's signature and the principals themselves (D19).

type actsVerifyProjectJSON struct {
	Project         string          `json:"project"`
	Records         int             `json:"records"`
	Signed          int             `json:"signed"` // principal-side records whose signature verified
	Unauthenticated bool            `json:"unauthenticated"`
	Unsigned        int             `json:"unsigned_principal_records"` // principal-side records of a project without principals
	Principals      []string        `json:"principals"`
	Rejected        []acts.Rejected `json:"rejected"`
	Problems        []string        `json:"problems"`
}

type actsVerifyJSON struct {
	ActsDir  string                  `json:"acts_dir"`
	OK       bool                    `json:"ok"`
	Projects []actsVerifyProjectJSON `json:"projects"`
}

func newActsVerifyCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "verify [--project P]",
		Short: "Check every record of the log, and every signature (exit 1 on any failure)",
		Long: `Read every record of the log (or of one project) as the registrar does:
each file must be a valid record, and in a project with principals every
principal-side record (settled, reopened, same_as, the principal's notes)
must carry a signature that verifies against allowed_signers, which must
agree with the signed principal changes. Prints what failed and why; exits 1
when anything failed. A project without principals is reported as
unauthenticated (its settlements cannot be checked) but does not fail.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := openActsLog(io, g)
			if err != nil {
				return err
			}
			if err := actsPull(io, g, l); err != nil {
				return err
			}
			projects := []string{project}
			var top []acts.LogProblem
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
				if len(pr.Rejected) > 0 || len(pr.Problems) > 0 {
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
	return cmd
}

func actsVerifyProject(l *acts.Log, project string) (actsVerifyProjectJSON, error) {
	out := actsVerifyProjectJSON{Project: sanitize.Line(project), Principals: []string{}, Rejected: []acts.Rejected{}, Problems: []string{}}
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
	if len(p.Rejected) > 0 || len(p.Problems) > 0 {
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
