package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/plural"
)

type actsListOpts struct {
	project, status, since string
}

func newActsListCmd(io *IO, g *globalOpts) *cobra.Command {
	o := actsListOpts{}
	cmd := &cobra.Command{
		Use:   "list [--project P] [--status open|settled|all] [--since DATE]",
		Short: "List the acts of the record log and their state",
		Long: `List every act of the record log (or of one project) with its state:
open, open with the need withdrawn (still waiting for a settlement, §2), or
settled with its outcome, and who signed the settlement (D19). Claims
waiting for the principal are shown under their act. Files of the log that
are not valid records, principal-side records whose signature did not
verify, and applied records gone from the log are reported on stderr (in
--json, under "findings") and left out.

--status keeps only open or only settled acts; --since DATE (YYYY-MM-DD or
an RFC 3339 time) keeps acts with a record from DATE on.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runActsList(io, g, o)
		},
	}
	cmd.Flags().StringVar(&o.project, "project", "", "only this project")
	cmd.Flags().StringVar(&o.status, "status", "all", "open, settled or all")
	cmd.Flags().StringVar(&o.since, "since", "", "only acts with a record from this date (YYYY-MM-DD) or time (RFC 3339) on")
	return cmd
}

// actsSince parses --since: a date is its midnight UTC.
func actsSince(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q: a date (YYYY-MM-DD) or an RFC 3339 time", display.Line(s))
}

// actsLastActivity is the latest ts among an act's records.
func actsLastActivity(st *acts.ActState) time.Time {
	var last time.Time
	for _, list := range [][]acts.Record{st.History, st.Settlements, st.Claims, st.Notes, st.Relations, st.Stale} {
		for _, r := range list {
			if t, err := time.Parse(time.RFC3339Nano, r.TS); err == nil && t.After(last) {
				last = t
			}
		}
	}
	return last
}

// actsSignerText says who signed the act's current settlement.
func actsSignerText(st *acts.ActState) string {
	n := len(st.Settlements)
	if n == 0 {
		return ""
	}
	if by := st.Settlements[n-1].SignedBy; by != nil {
		if by.Adopted {
			return "unsigned, applied before the project had a principal; adopted by " + display.Line(by.Principal) + " " + by.Fingerprint
		}
		return "signed by " + display.Line(by.Principal) + " " + by.Fingerprint
	}
	return "unsigned (the project has no principal)"
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
	// SignedBy is who signed the current settlement (D19); null when
	// there is none or it is unsigned.
	SignedBy *acts.SignedBy `json:"signed_by"`
}

type actsListJSON struct {
	ActsDir string        `json:"acts_dir"`
	Acts    []actsActJSON `json:"acts"`
	// Problems are the findings, one line each; Findings the same as
	// values (kind, file, record, rule).
	Problems []string             `json:"problems"`
	Findings []actsession.Finding `json:"findings"`
}

func runActsList(io *IO, g *globalOpts, o actsListOpts) error {
	project := o.project
	switch o.status {
	case "", "all", acts.StatusOpen, acts.StatusSettled:
	default:
		return fmt.Errorf("--status %q: open, settled or all", display.Line(o.status))
	}
	since, err := actsSince(o.since)
	if err != nil {
		return err
	}
	s, err := actsOpenSession(io, g)
	if err != nil {
		return err
	}
	ls, err := s.List(context.Background(), project)
	if err != nil {
		return err
	}
	var states []*acts.ActState
	for _, st := range ls.Acts {
		if (o.status == acts.StatusOpen || o.status == acts.StatusSettled) && st.Status != o.status {
			continue
		}
		if !since.IsZero() && actsLastActivity(st).Before(since) {
			continue
		}
		states = append(states, st)
	}
	problems := []string{}
	findings := []actsession.Finding{}
	for _, f := range ls.Findings {
		problems = append(problems, display.Line(f.Text))
		findings = append(findings, f)
	}
	if g.json {
		out := actsListJSON{ActsDir: s.Log.Dir, Acts: []actsActJSON{}, Problems: problems, Findings: findings}
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
			due = " due " + display.Line(st.Due)
		}
		rev := ""
		if st.TermsRev > 1 {
			// Amended: settling it names this revision (D19-terms).
			rev = fmt.Sprintf(" (amended, terms rev %d)", st.TermsRev)
		}
		fmt.Fprintf(io.Out, "%s %s %s %s%s%s\n", display.Line(st.Project), st.Key, actsStatusText(st), q(st.Text), due, rev)
		if st.Status == acts.StatusOpen {
			for _, c := range st.Claims {
				basis := ""
				if c.Evidence != nil {
					basis = c.Evidence.Basis
				}
				fmt.Fprintf(io.Out, "  claimed %s by %s: %s\n", display.Line(c.Outcome), display.Line(c.By), q(basis))
			}
		}
		if signer := actsSignerText(st); signer != "" && st.Status == acts.StatusSettled {
			fmt.Fprintf(io.Out, "  %s\n", signer)
		}
		if len(st.Stale) > 0 {
			fmt.Fprintf(io.Out, "  %s set aside\n", plural.N(len(st.Stale), "stale record"))
		}
	}
	return nil
}

func toActsActJSON(st *acts.ActState) actsActJSON {
	ids := func(rs []acts.Record) []string {
		out := []string{}
		for _, r := range rs {
			out = append(out, display.Line(r.ID))
		}
		return out
	}
	a := actsActJSON{
		Project: display.Line(st.Project), Key: st.Key, Status: st.Status, Need: st.Need,
		TermsRev: st.TermsRev, Text: display.Line(st.Text), Due: display.Line(st.Due),
		NeedID: display.Line(st.NeedID), SettlementID: display.Line(st.SettlementID), SettledRev: st.SettledRev,
		Reopens: st.Reopens, Claims: ids(st.Claims), Notes: ids(st.Notes), Stale: ids(st.Stale),
	}
	if st.Outcome != "" {
		o := st.Outcome
		a.Outcome = &o
	}
	if n := len(st.Settlements); n > 0 && st.Settlements[n-1].SignedBy != nil {
		by := *st.Settlements[n-1].SignedBy
		by.Principal = display.Line(by.Principal)
		a.SignedBy = &by
	}
	return a
}
