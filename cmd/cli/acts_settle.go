package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
)

// tp acts settle KEY… (issue 17): one key is the command it always was;
// several are one batch (actsession.WritePrincipalBatch): all checked
// first, the key looked up once and every record signed in one pass, one
// commit, one push; if one act cannot be settled, none is.

type actsSettledJSON struct {
	Acts []actsWrittenJSON `json:"acts"`
	// PrincipalsRegistered are the first principals this command
	// registered (trust on first use, D19), one per project that had none.
	PrincipalsRegistered []*recordlog.FirstPrincipal `json:"principals_registered"`
}

func newActsSettleCmd(io *IO, g *globalOpts) *cobra.Command {
	var project, outcome, sameAs, note string
	var termsRev int
	cmd := &cobra.Command{
		Use:   "settle KEY... --outcome done|dropped|already_done",
		Short: "Settle acts as the principal (done, dropped, already_done)",
		Long: `Settle one act or several (§2): done (you did it), dropped (it will not be
done), or already_done (it had been done before it was raised, or repeats an
item already settled; name that item with --same-as, which also writes a
same_as relation). The settlement carries your authority (§8) and the terms
revision it answers. The next "tp acts sync" strikes the act's line.

Several keys are settled together, all or nothing: every act is checked
first, your key is used once to sign them all, and one commit carries
them. If one cannot be settled (already settled, its terms revised, not
found), none is, and the error names each and why.

An agent may change what an act asks by editing its line under the same
key (amended, terms rev 2, 3, …), so a key alone does not say which text
you read. An act never amended settles by its key; an amended one only with
--terms-rev N, the revision you read (tp acts list and show print it): if
the terms changed since, nothing is written and the error shows them as
they read now (D19-terms). Several keys settle together only when none was
amended; settle an amended act by itself.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if outcome == "" {
				return withHint(fmt.Errorf("settle needs --outcome"), "--outcome done, dropped or already_done")
			}
			if len(args) == 1 {
				return actsWithAct(io, g, project, args[0], func(l *recordlog.Log, st *acts.ActState) ([]acts.Record, error) {
					return actsBuildSettle(io, l, st, outcome, sameAs, note, true, termsRev)
				})
			}
			if termsRev != 0 {
				return withHint(fmt.Errorf("--terms-rev names the revision of one act's terms; it goes with one key, not %d", len(args)), "settle an amended act by itself: tp acts settle KEY --outcome "+outcome+" --terms-rev N")
			}
			return actsSettleMany(io, g, project, args, outcome, sameAs, note)
		},
	}
	f := cmd.Flags()
	f.StringVar(&project, "project", "", "the acts' project (default: for each key, the one project whose log holds it)")
	f.StringVar(&outcome, "outcome", "", "done, dropped or already_done")
	f.StringVar(&sameAs, "same-as", "", "with already_done: the key of the item this repeats")
	f.StringVar(&note, "note", "", "a note for the project, delivered with the settlement")
	f.IntVar(&termsRev, "terms-rev", 0, "the revision of the act's terms you read (needed once an act was amended; D19-terms)")
	return cmd
}

// actsBuildSettle builds one act's settlement (and same_as relation).
func actsBuildSettle(io *IO, l *recordlog.Log, st *acts.ActState, outcome, sameAs, note string, warn bool, termsRev int) ([]acts.Record, error) {
	if sameAs != "" {
		// §2: same_as names the item this repeats; it must be one.
		found, err := actsHasKey(l, st.Project, sameAs)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, withHint(fmt.Errorf("--same-as %s: no act with that key in project %s; nothing was written", display.Line(sameAs), display.Line(st.Project)),
				"tp acts list --project "+display.Line(st.Project)+" shows its acts")
		}
	} else if outcome == "already_done" && warn {
		fmt.Fprintf(io.Err, "tp: warning: already_done without --same-as: §2 says the settlement should name the item it repeats (--same-as KEY), if there is one\n")
	}
	rs, err := acts.BuildSettle(st, actsPrincipalSender(io), outcome, sameAs, note, termsRev)
	var tre *acts.TermsReadError
	if errors.As(err, &tre) {
		return nil, withHint(err, fmt.Sprintf("if that is what you settle: tp acts settle %s --outcome %s --terms-rev %d (tp acts show %s shows every revision)", st.Key, outcome, st.TermsRev, st.Key))
	}
	return rs, err
}

// actsSettleMany settles several acts as one batch.
func actsSettleMany(io *IO, g *globalOpts, project string, keys []string, outcome, sameAs, note string) error {
	s, err := actsOpenSession(io, g)
	if err != nil {
		return err
	}
	signer := actsPrincipalKey(io, g)
	var ws []actsession.PrincipalWrite
	var probs []actsession.BatchProblem
	if sameAs == "" && outcome == "already_done" {
		// Said once for the batch, not once per key.
		fmt.Fprintf(io.Err, "tp: warning: already_done without --same-as: §2 says the settlement should name the item it repeats (--same-as KEY), if there is one\n")
	}
	for _, k := range keys {
		st, err := actsFindAct(io, s, project, k)
		if err != nil {
			probs = append(probs, actsession.BatchProblem{Project: project, Key: k, Why: err.Error()})
			continue
		}
		rs, err := actsBuildSettle(io, s.Log, st, outcome, sameAs, note, false, 0)
		if err != nil {
			probs = append(probs, actsession.BatchProblem{Project: st.Project, Key: k, Why: err.Error()})
			continue
		}
		ws = append(ws, actsession.PrincipalWrite{Project: st.Project, Key: st.Key, Records: rs, Signer: signer, Register: true})
	}
	if len(probs) > 0 {
		return withHint(&actsession.BatchError{Problems: probs}, "settle the others without those keys, or see each with tp acts show KEY")
	}
	rep, err := s.WritePrincipalBatch(context.Background(), ws)
	var be *actsession.BatchError
	if errors.As(err, &be) {
		return withHint(err, "settle the others without those keys, or see each with tp acts show KEY")
	}
	if err != nil {
		return err
	}
	if g.json {
		out := actsSettledJSON{Acts: []actsWrittenJSON{}, PrincipalsRegistered: rep.Registered}
		if out.PrincipalsRegistered == nil {
			out.PrincipalsRegistered = []*recordlog.FirstPrincipal{}
		}
		for _, w := range rep.Writes {
			wj := actsWrittenJSON{State: toActsActJSON(w.State)}
			for i, r := range w.Records {
				wj.Records = append(wj.Records, actsRecordJSON{ID: sanitize.Line(r.ID), Type: r.Type, Key: r.Key, Project: sanitize.Line(r.Project), Result: w.Outcomes[i].String()})
			}
			out.Acts = append(out.Acts, wj)
		}
		return writeJSON(io.Out, out)
	}
	for _, t := range rep.Registered {
		fmt.Fprintf(io.Out, "%s\n", t)
	}
	signedWith := ""
	for _, w := range rep.Writes {
		for i, r := range w.Records {
			fmt.Fprintf(io.Out, "%s %s %s (%s)\n", w.Outcomes[i], r.Type, display.Line(r.ID), r.Key)
			if r.Sig != "" {
				if k, err := sshsign.SignerOf(r.Sig); err == nil {
					signedWith = sshsign.Fingerprint(k)
				}
			}
		}
	}
	if signedWith != "" {
		fmt.Fprintf(io.Out, "signed with key %s\n", signedWith)
	}
	for _, w := range rep.Writes {
		fmt.Fprintf(io.Out, "%s %s %s %s\n", display.Line(w.State.Project), w.State.Key, actsStatusText(w.State), q(w.State.Text))
	}
	fmt.Fprintf(io.Out, "%d acts settled together (all or nothing, one signing key use, one commit)\n", len(rep.Writes))
	return nil
}
