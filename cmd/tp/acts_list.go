package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/sanitize"
)

func newActsListCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the acts of the record log and their state",
		Long: `List every act of the record log (or of one project) with its state:
open, open with the need withdrawn (still waiting for a settlement, §2), or
settled with its outcome. Claims waiting for the principal are shown under
their act. Files of the log that are not valid records are reported on
stderr and skipped.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runActsList(io, g, project)
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "only this project")
	return cmd
}

type actsActJSON struct {
	Project      string   `json:"project"`
	Key          string   `json:"key"`
	Status       string   `json:"status"`
	Outcome      *string  `json:"outcome"`
	Need         string   `json:"need"`
	TermsRev     int      `json:"terms_rev"`
	Text         string   `json:"text"`
	Due          string   `json:"due,omitempty"`
	NeedID       string   `json:"need_id,omitempty"`
	SettlementID string   `json:"settlement_id,omitempty"`
	SettledRev   int      `json:"settled_rev,omitempty"`
	Reopens      int      `json:"reopens"`
	Claims       []string `json:"claims"`
	Notes        []string `json:"notes"`
	Stale        []string `json:"stale"`
}

type actsListJSON struct {
	ActsDir  string        `json:"acts_dir"`
	Acts     []actsActJSON `json:"acts"`
	Problems []string      `json:"problems"`
}

func runActsList(io *IO, g *globalOpts, project string) error {
	l, err := openActsLog(io, g)
	if err != nil {
		return err
	}
	if err := actsPull(io, g, l); err != nil {
		return err
	}
	projects := []string{project}
	var probs []acts.LogProblem
	if project == "" {
		if projects, probs, err = l.Projects(); err != nil {
			return err
		}
	}
	var states []*acts.ActState
	var errs []string
	for _, p := range projects {
		ld, err := l.Load(p)
		if err != nil {
			return err
		}
		probs = append(probs, ld.Problems...)
		m, es := acts.States(ld.Records)
		for _, e := range es {
			errs = append(errs, e.Error())
		}
		states = append(states, actsSortedStates(m)...)
	}
	problems := actsProblemStrings(probs)
	for _, e := range errs {
		problems = append(problems, sanitize.Line(e))
	}
	if g.json {
		out := actsListJSON{ActsDir: l.Dir, Acts: []actsActJSON{}, Problems: problems}
		for _, st := range states {
			out.Acts = append(out.Acts, toActsActJSON(st))
		}
		return writeJSON(io.Out, out)
	}
	for _, p := range problems {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", p)
	}
	if len(states) == 0 {
		fmt.Fprintln(io.Out, "no acts")
		return nil
	}
	for _, st := range states {
		due := ""
		if st.Due != "" {
			due = " due " + sanitize.Line(st.Due)
		}
		fmt.Fprintf(io.Out, "%s %s %s %s%s\n", sanitize.Line(st.Project), st.Key, actsStatusText(st), q(st.Text), due)
		if st.Status == acts.StatusOpen {
			for _, c := range st.Claims {
				basis := ""
				if c.Evidence != nil {
					basis = c.Evidence.Basis
				}
				fmt.Fprintf(io.Out, "  claimed %s by %s: %s\n", sanitize.Line(c.Outcome), sanitize.Line(c.By), q(basis))
			}
		}
		if len(st.Stale) > 0 {
			fmt.Fprintf(io.Out, "  %d stale record(s) set aside\n", len(st.Stale))
		}
	}
	return nil
}

func toActsActJSON(st *acts.ActState) actsActJSON {
	ids := func(rs []acts.Record) []string {
		out := []string{}
		for _, r := range rs {
			out = append(out, sanitize.Line(r.ID))
		}
		return out
	}
	a := actsActJSON{
		Project: sanitize.Line(st.Project), Key: st.Key, Status: st.Status, Need: st.Need,
		TermsRev: st.TermsRev, Text: sanitize.Line(st.Text), Due: sanitize.Line(st.Due),
		NeedID: sanitize.Line(st.NeedID), SettlementID: sanitize.Line(st.SettlementID), SettledRev: st.SettledRev,
		Reopens: st.Reopens, Claims: ids(st.Claims), Notes: ids(st.Notes), Stale: ids(st.Stale),
	}
	if st.Outcome != "" {
		o := st.Outcome
		a.Outcome = &o
	}
	return a
}
