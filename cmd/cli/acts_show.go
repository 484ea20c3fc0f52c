package cli

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
)

// tp acts show KEY: one act in full — terms, revisions, settlements with
// who signed them (D19), claims, relations, notes, stale and rejected
// records.

type actsShowRecordJSON struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	TS       string         `json:"ts"`
	By       string         `json:"by"`
	Rev      int            `json:"terms_rev,omitempty"`
	Text     string         `json:"text,omitempty"`
	Outcome  string         `json:"outcome,omitempty"`
	Decider  string         `json:"decider,omitempty"`
	Note     string         `json:"note,omitempty"`
	Relation string         `json:"relation,omitempty"`
	Target   string         `json:"target,omitempty"`
	Signed   bool           `json:"signed"`
	SignedBy *acts.SignedBy `json:"signed_by"`
}

type actsShowJSON struct {
	actsActJSON
	Revisions   []actsShowRecordJSON `json:"revisions"`
	Settlements []actsShowRecordJSON `json:"settlements"`
	ClaimRecs   []actsShowRecordJSON `json:"claim_records"`
	Relations   []actsShowRecordJSON `json:"relations"`
	NoteRecs    []actsShowRecordJSON `json:"note_records"`
	StaleRecs   []actsShowRecordJSON `json:"stale_records"`
	Rejected    []recordlog.Rejected `json:"rejected"`
}

func actsShowRecord(r acts.Record) actsShowRecordJSON {
	o := actsShowRecordJSON{ID: display.Line(r.ID), Type: r.Type, TS: display.Line(r.TS), By: display.Line(r.By), Rev: r.TermsRev,
		Outcome: r.Outcome, Relation: r.Relation, Target: display.Line(r.Target), Signed: r.Sig != ""}
	switch {
	case r.Terms != nil:
		o.Text = display.Line(r.Terms.Text)
	case r.Type == acts.TypeReopened:
		o.Text = display.Line(r.RestoreText)
	case r.Type == acts.TypeClaimed && r.Evidence != nil:
		o.Text = display.Line(r.Evidence.Basis)
	case r.Type == acts.TypeNote:
		o.Text = display.Line(r.NoteText())
	}
	if r.Type == acts.TypeSettled {
		o.Note = display.Line(r.Note)
	}
	if r.Authority != nil {
		o.Decider = display.Line(r.Authority.Decider)
	}
	if r.SignedBy != nil {
		by := *r.SignedBy
		by.Principal = display.Line(by.Principal)
		o.SignedBy = &by
	}
	return o
}

func newActsShowCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "show KEY",
		Short: "Show one act: terms, revisions, settlements and who signed them, claims, history",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := actsOpenSession(io, g)
			if err != nil {
				return err
			}
			// The act's records that were not applied are shown in
			// their own section, not again as warnings.
			st, err := actsFindAct(io, s, project, args[0], actsession.FindingRejected)
			if err != nil {
				return err
			}
			ld, err := s.Log.Load(st.Project)
			if err != nil {
				return err
			}
			out := actsShowJSON{actsActJSON: toActsActJSON(st), Rejected: []recordlog.Rejected{}}
			conv := func(rs []acts.Record) []actsShowRecordJSON {
				o := []actsShowRecordJSON{}
				for _, r := range rs {
					o = append(o, actsShowRecord(r))
				}
				return o
			}
			out.Revisions, out.Settlements, out.ClaimRecs = conv(st.History), conv(st.Settlements), conv(st.Claims)
			out.Relations, out.NoteRecs, out.StaleRecs = conv(st.Relations), conv(st.Notes), conv(st.Stale)
			for _, rj := range ld.Rejected {
				if rj.Key == st.Key {
					out.Rejected = append(out.Rejected, rj.Sanitized())
				}
			}
			if g.json {
				return writeJSON(io.Out, out)
			}
			printActsShow(io, st, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the act's project (default: the one project whose log holds KEY)")
	return cmd
}

func printActsShow(io *IO, st *acts.ActState, o actsShowJSON) {
	w := io.Out
	fmt.Fprintf(w, "%s %s %s %s\n", display.Line(st.Project), st.Key, actsStatusText(st), q(st.Text))
	fmt.Fprintf(w, "terms rev %d", st.TermsRev)
	if st.Due != "" {
		fmt.Fprintf(w, ", due %s", display.Line(st.Due))
	}
	if st.SettledRev > 0 && st.SettledRev < st.TermsRev {
		fmt.Fprintf(w, "; settled at rev %d, the terms changed after", st.SettledRev)
	}
	fmt.Fprintln(w)
	section := func(title string, rs []actsShowRecordJSON, line func(r actsShowRecordJSON) string) {
		if len(rs) == 0 {
			return
		}
		fmt.Fprintf(w, "%s:\n", title)
		for _, r := range rs {
			fmt.Fprintf(w, "  %s\n", line(r))
		}
	}
	section("revisions", o.Revisions, func(r actsShowRecordJSON) string {
		if r.Type == acts.TypeWithdrawn {
			return fmt.Sprintf("%s %s by %s", r.TS, r.Type, r.By)
		}
		return fmt.Sprintf("%s %s rev %d by %s: %q", r.TS, r.Type, r.Rev, r.By, r.Text)
	})
	section("settlements", o.Settlements, func(r actsShowRecordJSON) string {
		s := fmt.Sprintf("%s %s", r.TS, r.Type)
		if r.Outcome != "" {
			s += " " + r.Outcome
		}
		s += " by " + r.By
		if r.Decider != "" {
			s += " for " + r.Decider
		}
		switch {
		case r.SignedBy != nil && r.SignedBy.Adopted:
			s += ", unsigned (applied before the project had a principal), adopted by " + r.SignedBy.Principal + " " + r.SignedBy.Fingerprint
		case r.SignedBy != nil:
			s += ", signed by " + r.SignedBy.Principal + " " + r.SignedBy.Fingerprint
		case r.Signed:
			s += ", signed (not checked: the project has no principal)"
		default:
			s += ", unsigned"
		}
		if r.Note != "" {
			s += fmt.Sprintf("; note %q", r.Note)
		}
		return s
	})
	section("claims", o.ClaimRecs, func(r actsShowRecordJSON) string {
		return fmt.Sprintf("%s %s claims %s: %q", r.TS, r.By, r.Outcome, r.Text)
	})
	section("relations", o.Relations, func(r actsShowRecordJSON) string {
		return fmt.Sprintf("%s %s %s (by %s)", r.TS, r.Relation, r.Target, r.By)
	})
	section("notes", o.NoteRecs, func(r actsShowRecordJSON) string {
		return fmt.Sprintf("%s %s: %q", r.TS, r.By, r.Text)
	})
	section("stale (kept, not applied)", o.StaleRecs, func(r actsShowRecordJSON) string {
		return fmt.Sprintf("%s %s %s", r.TS, r.Type, r.ID)
	})
	if len(o.Rejected) > 0 {
		fmt.Fprintln(w, "rejected (signature did not verify; kept in the log, never applied):")
		for _, r := range o.Rejected {
			fmt.Fprintf(w, "  %s\n", r)
		}
	}
}
