package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
)

// The principal side's commands (settle, reopen, note) and the agents'
// (claim, withdraw): each builds its records from the act's current state
// (acts.Build*), writes them to the record log, and prints what it wrote.

type actsRecordJSON struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Key     string `json:"key"`
	Project string `json:"project"`
	Result  string `json:"result"` // written or duplicate
}

type actsWrittenJSON struct {
	Records []actsRecordJSON `json:"records"`
	State   actsActJSON      `json:"state"`
	// PrincipalRegistered is set when this command registered the signer
	// as the project's first principal (trust on first use, D19).
	PrincipalRegistered *recordlog.FirstPrincipal `json:"principal_registered,omitempty"`
}

// actsWriteAndReport signs the principal-side records of rs (D19), writes
// them, commits and pushes (the acts session's WritePrincipal), then prints them and the act's new state.
func actsWriteAndReport(io *IO, g *globalOpts, s *actsession.Session, st *acts.ActState, rs []acts.Record) error {
	rep, err := s.WritePrincipal(context.Background(), actsession.PrincipalWrite{
		Project: st.Project, Key: st.Key, Records: rs,
		Signer: actsPrincipalKey(io, g), Register: true,
	})
	if err != nil {
		return err
	}
	outcomes, next, tofu := rep.Outcomes, rep.State, rep.Registered
	if g.json {
		out := actsWrittenJSON{State: toActsActJSON(next), PrincipalRegistered: tofu}
		for i, r := range rs {
			out.Records = append(out.Records, actsRecordJSON{ID: sanitize.Line(r.ID), Type: r.Type, Key: r.Key, Project: sanitize.Line(r.Project), Result: outcomes[i].String()})
		}
		return writeJSON(io.Out, out)
	}
	if tofu != nil {
		fmt.Fprintf(io.Out, "%s\n", tofu)
	}
	signer := ""
	for i, r := range rs {
		fmt.Fprintf(io.Out, "%s %s %s (%s)\n", outcomes[i], r.Type, display.Line(r.ID), r.Key)
		if r.Sig != "" {
			if k, err := sshsign.SignerOf(r.Sig); err == nil {
				signer = sshsign.Fingerprint(k)
			}
		}
	}
	if signer != "" {
		fmt.Fprintf(io.Out, "signed with key %s\n", signer)
	}
	fmt.Fprintf(io.Out, "%s %s %s %s\n", display.Line(next.Project), next.Key, actsStatusText(next), q(next.Text))
	return nil
}

// actsWithAct opens the log, finds the act and hands it to do.
func actsWithAct(io *IO, g *globalOpts, project, key string, do func(l *recordlog.Log, st *acts.ActState) ([]acts.Record, error)) error {
	s, err := actsOpenSession(io, g)
	if err != nil {
		return err
	}
	st, err := actsFindAct(io, s, project, key)
	if err != nil {
		return err
	}
	rs, err := do(s.Log, st)
	if err != nil {
		return err
	}
	return actsWriteAndReport(io, g, s, st, rs)
}

func newActsReopenCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "reopen KEY",
		Short: "Reopen a settled act",
		Long: `Reopen a settled act: the reopened record supersedes the settlement and
carries the act's current terms text (restore_text), so the next
"tp acts sync" re-adds the line if the document no longer has it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return actsWithAct(io, g, project, args[0], func(l *recordlog.Log, st *acts.ActState) ([]acts.Record, error) {
				r, err := acts.BuildReopen(st, actsPrincipalSender(io))
				return []acts.Record{r}, err
			})
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the act's project (default: the one project whose log holds KEY)")
	return cmd
}

func newActsNoteCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "note KEY TEXT",
		Short: "Send the project a note about an act",
		Long:  `Send a note about an act. Notes are delivered to the project; they never change the document or the act's state (I2).`,
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return actsWithAct(io, g, project, args[0], func(l *recordlog.Log, st *acts.ActState) ([]acts.Record, error) {
				r, err := acts.BuildNote(st, actsPrincipalSender(io), args[1])
				return []acts.Record{r}, err
			})
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the act's project (default: the one project whose log holds KEY)")
	return cmd
}

func newActsClaimCmd(io *IO, g *globalOpts) *cobra.Command {
	var project, outcome, basis string
	cmd := &cobra.Command{
		Use:   "claim KEY --outcome done|dropped --basis TEXT",
		Short: "Claim, as an agent, that the principal did (or dropped) an act",
		Long: `Claim that the principal did or dropped an act, because you saw it (for
example the principal said "I paid it" in a session). A claim never settles
anything: the principal side asks the principal first (I2).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return actsWithAct(io, g, project, args[0], func(l *recordlog.Log, st *acts.ActState) ([]acts.Record, error) {
				r, err := acts.BuildClaim(st, actsAgentSender(io), outcome, basis)
				return []acts.Record{r}, err
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&project, "project", "", "the act's project (default: the one project whose log holds KEY)")
	f.StringVar(&outcome, "outcome", "", "done or dropped")
	f.StringVar(&basis, "basis", "", "why you believe it")
	return cmd
}

func newActsWithdrawCmd(io *IO, g *globalOpts) *cobra.Command {
	var project string
	cmd := &cobra.Command{
		Use:   "withdraw KEY",
		Short: "Withdraw an act you no longer need (the settlement stays open)",
		Long: `Withdraw an act as its requester: the need ends, but the act stays open
until the principal settles it, because the principal may have promised it
to someone else (§2). Deleting the line does not withdraw: it claims done.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return actsWithAct(io, g, project, args[0], func(l *recordlog.Log, st *acts.ActState) ([]acts.Record, error) {
				r, err := acts.BuildWithdraw(st, actsAgentSender(io))
				return []acts.Record{r}, err
			})
		},
	}
	cmd.Flags().StringVar(&project, "project", "", "the act's project (default: the one project whose log holds KEY)")
	return cmd
}

// actsHasKey reports whether project's log holds any record for key.
func actsHasKey(l *recordlog.Log, project, key string) (bool, error) {
	ld, err := l.Load(project)
	if err != nil {
		return false, err
	}
	for _, r := range ld.Records {
		if r.Key == key {
			return true, nil
		}
	}
	return false, nil
}
