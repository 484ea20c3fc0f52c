package cli

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/internal/trust"
)

const actsHelp = `Principal Handoff: Acts 0.3 — work only the principal can do.

Agents declare acts as lines in a project's state document (the tasks
section). tp is the registrar: "tp acts sync" turns those lines into records
in the record log, stamps their keys, and applies the principal's settlements
back to the document. tp is also the principal's side: on a terminal, plain
"tp acts" opens the inbox; "settle", "reopen" and "note" answer from the
command line.

The record log is one JSON file per record under <acts-dir>/<project>/records
(default $TP_ACTS, else the XDG data dir tp/acts; --acts-dir overrides).

Only the principal settles (Acts 0.3 §10, D19): settlements, reopenings and
the principal's notes are signed with your SSH key (--signing-key, else
$TP_SIGNING_KEY, git's user.signingkey, ~/.ssh/id_ed25519, ssh-agent). The
first one in a project with no principal makes you its principal: a signed
first change in <project>/principals, and your key trusted in this machine's
trust store ($TP_TRUST_DIR, else ~/.config/tp/trust), said when it happens
(trust on first use). Other machines trust it with "tp acts principal trust";
"tp acts principal" manages the principals; the registrar applies only
settlements signed by a principal this machine trusts, and "tp acts verify"
checks the whole log.

When the acts dir is a git repository with an upstream ("tp acts init --git
URL"), commands that write records commit and push them, and commands that
read pull first (D20); --offline skips both.

Exit codes:
  0  done
  1  error or refusal (the message names the file and the rule)
  2  not conformant (tp acts conformance: some fixture case failed)`

func newActsCmd(io *IO, g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "acts",
		Short: "The principal's acts: inbox, registrar sync, settle, reopen, note",
		Long:  actsHelp,
		Example: `  tp acts                                     # the inbox (a list without a terminal)
  tp acts sync STATE.md --project demo --commit
  tp acts settle task-demo-c3d8af57d4 --outcome done
  tp acts list --project demo --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// On a terminal: the principal's inbox; otherwise (or with no
			// inbox screen) what tp acts list prints.
			if inbox := io.screens().Inbox; inbox != nil && io.Interactive(g) {
				return inbox(cmd, io, g)
			}
			return runActsList(io, g, actsListOpts{})
		},
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&g.signingKey, "signing-key", "", "SSH key to sign principal-side records with (else $TP_SIGNING_KEY, git's user.signingkey, ~/.ssh/id_ed25519, ssh-agent)")
	pf.BoolVar(&g.offline, "offline", false, "when the acts dir is a git repository: do not pull or push")
	cmd.AddCommand(
		newActsSyncCmd(io, g),
		newActsListCmd(io, g),
		newActsSettleCmd(io, g),
		newActsReopenCmd(io, g),
		newActsNoteCmd(io, g),
		newActsClaimCmd(io, g),
		newActsWithdrawCmd(io, g),
		newActsLintCmd(io, g),
		newActsConformanceCmd(io, g),
		newActsPrincipalCmd(io, g),
		newActsVerifyCmd(io, g),
		newActsInitCmd(io, g),
		newActsShowCmd(io, g),
		newActsWatchCmd(io, g),
	)
	return cmd
}

// openActsLog opens the record log: --acts-dir, else $TP_ACTS, else the XDG
// data dir; with the validation cache under the user's cache dir.
func openActsLog(io *IO, g *globalOpts) (*recordlog.Log, error) {
	dir := g.actsDir
	if dir == "" {
		d, err := recordlog.DefaultActsDir(io.Env)
		if err != nil {
			return nil, err
		}
		dir = d
	}
	l := recordlog.OpenLog(dir)
	l.CacheDir = recordlog.DefaultCacheDir(io.Env)
	// D19: whose settlements count is this person's trust store's say,
	// never the acts folder's.
	ts, err := trust.OpenDefault(io.Env)
	if err != nil {
		return nil, withHint(err, "set TP_TRUST_DIR to the folder of your trust store")
	}
	l.Trust = ts
	return l, nil
}

// actsWarnProblems prints files of the log that were skipped.
func actsWarnProblems(io *IO, probs []recordlog.LogProblem) {
	for _, p := range probs {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(p.String()))
	}
}

func actsNow() string { return time.Now().UTC().Format(time.RFC3339) }

// actsPrincipalSender is who the principal-side commands write as (§8): the
// principal side is this tp; the decider is the person running it (D14).
func actsPrincipalSender(io *IO) acts.Sender {
	actor := store.Actor("", io.Env)
	return acts.Sender{By: "ps:tp@" + store.Machine(io.Env), Decider: "p:" + actor, Now: actsNow()}
}

// actsAgentSender is who claims and withdrawals are written as.
func actsAgentSender(io *IO) acts.Sender {
	return acts.Sender{By: "agent:" + store.By(store.Actor("", io.Env), store.Machine(io.Env)), Now: actsNow()}
}

// actsFindAct loads the act with key (the acts session's Find): from
// project when given, else from the one project of the log that holds the
// key. It prints the findings about the act, except the kinds in quiet
// (which the command shows itself).
func actsFindAct(io *IO, s *actsession.Session, project, key string, quiet ...string) (*acts.ActState, error) {
	f, err := s.Find(context.Background(), project, key)
	if f != nil {
		var show []actsession.Finding
		for _, fd := range f.Findings {
			if !slices.Contains(quiet, fd.Kind) {
				show = append(show, fd)
			}
		}
		actsPrintFindings(io, show)
	}
	if err != nil {
		return nil, err
	}
	return f.State, nil
}

// actsStatusText is an act's state in a few words.
func actsStatusText(st *acts.ActState) string {
	s := st.Status
	if st.Status == acts.StatusSettled {
		s += " " + st.Outcome
	}
	if st.Need == acts.NeedWithdrawn {
		s += " (need withdrawn)"
	}
	return s
}

func actsSortedStates(states map[acts.ProjectKey]*acts.ActState) []*acts.ActState {
	out := make([]*acts.ActState, 0, len(states))
	for _, st := range states {
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Project != out[j].Project {
			return out[i].Project < out[j].Project
		}
		return out[i].Key < out[j].Key
	})
	return out
}
