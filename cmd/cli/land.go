package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
)

// landOptions are tp land's flags (docs/architecture.md, command-line conventions).
type landOptions struct {
	Into          string
	FilesOut      string
	DryRun        bool
	Again         bool
	Checks        []string // ID=passed|failed|skipped
	TrustOwnFacts bool
	MaxPassport   int64  // --max-passport-bytes: the canonical pack object's limit (D10)
	TrustSender   string // --trust-sender NAME: trust the pack's unknown signer (D22)
	Identity      string // --identity FILE: opens a sealed pack (D22)

	in *unsealed // the file opened: a sealed one is named as given (D22)
}

// limits is what the reader may take, with --max-passport-bytes applied.
func (o landOptions) limits() pack.Limits {
	l := pack.DefaultLimits()
	if o.MaxPassport > 0 {
		l.MaxCanonical = o.MaxPassport
	}
	return l
}

// tp land opens io.Screens.Land only when io.Interactive(g). Every headless
// path below prints the plan and never runs a check's how (D12).

// landJSON is tp land --json: one document.
type landJSON struct {
	DryRun bool            `json:"dry_run"`
	Plan   *landing.Plan   `json:"plan"`
	Landed *landing.Landed `json:"landed,omitempty"`
	Merged *landing.Merged `json:"merged,omitempty"`
	// The receiver verdict (D23) at the top: verdict, unmet_checks,
	// open_asks.
	landing.Verdict
}

func newLandCmd(io *IO, g *globalOpts) *cobra.Command {
	var o landOptions
	cmd := &cobra.Command{
		Use:   "land FILE",
		Short: "Land a handoff as a new passport, or merge a receipt into the passport that asked",
		Long: `Land a TaskPack. A handoff becomes a new local passport (TaskPack §3.1): a new
id, the pack's lineage kept, machine-scoped facts sealed, asks and landing
checks stored (checks pending unless --check attests them), luggage written
only inside the new passport's files folder, and next steps in the order §4.4
demands: required landing checks, re-verification of sealed facts, asks, then
the sender's own steps.

A receipt is merged into the passport it answers (§4.4.1): the entry before the
last in its lineage chain. Answers land on the matching asks, questions aimed
back are adopted as open, landing checks are reported and not adopted, and the
goal, current state and next steps are never touched. --into must name that
same passport; any other is refused.

The plan is printed first, quoted and attributed: the sender's "how" for each
check is a suggestion, never run headless (--plain, --json, no terminal); on a
terminal the walkthrough runs it, in the folder the luggage is unpacked to,
only after you confirm the exact command (D12). Text that reads like
instructions, credential-like strings and every repair the reader made are
listed.
--dry-run prints the plan and writes nothing.`,
		Example: `  tp land deck.taskpack --plain --dry-run
  tp land deck.taskpack --plain --check c1=passed --check c2=skipped
  tp land answers.taskpack.json --into TP-K7WF-3NQX`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := unseal(io, cmd.CommandPath(), o.Identity, args[0], sealedMax(o.limits()))
			if err != nil {
				return safeErr(err)
			}
			defer in.Close()
			if landTUI := io.screens().Land; io.Interactive(g) && landTUI != nil {
				if err := pack.Precheck(in.Path); err != nil {
					return safeErr(in.renamed(err)) // a line and exit 1, not a screen
				}
				o.in = in
				return safeErr(in.renamed(landTUI(cmd, io, g, in.Path, o)))
			}
			return safeErr(in.renamed(runLandPlain(io, g, in, o)))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Into, "into", "", "merge a receipt into this passport (it must be the one the receipt answers)")
	f.StringVar(&o.FilesOut, "files-out", "", "write the luggage into this new folder instead of the store")
	f.BoolVar(&o.DryRun, "dry-run", false, "print the plan and write nothing")
	f.BoolVar(&o.Again, "again", false, "land a file that was landed before, as another new passport")
	f.StringArrayVar(&o.Checks, "check", nil, "attest a landing check: ID=passed|failed|skipped (repeatable)")
	f.BoolVar(&o.TrustOwnFacts, "trust-own-facts", false, "restore the ✓ of sealed facts verified on this very machine (§4.2)")
	f.StringVar(&o.Identity, "identity", "", "open a sealed (.age) pack with this age identity or SSH private key (D22; default $TP_AGE_IDENTITY, ~/.ssh/id_ed25519, ~/.ssh/id_rsa; ssh-agent cannot decrypt)")
	f.StringVar(&o.TrustSender, "trust-sender", "", "trust the key that signed this pack, under NAME, once it has landed (D22: trust on first use, only when you say so)")
	f.Int64Var(&o.MaxPassport, "max-passport-bytes", pack.DefaultLimits().MaxCanonical, "refuse a pack whose canonical passport.json (D1) would be larger (D10)")
	return cmd
}

// LandEnv is who is landing, here (D14).
func landEnv(io *IO) landing.Env {
	return landing.Env{Machine: store.Machine(io.Env), Actor: store.Actor("", io.Env)}
}

// ParseCheckFlags reads --check ID=status flags.
func parseCheckFlags(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		id, status, ok := strings.Cut(f, "=")
		id, status = strings.TrimSpace(id), strings.TrimSpace(status)
		if !ok || id == "" {
			return nil, fmt.Errorf("--check %s: expected ID=passed|failed|skipped", display.Line(f))
		}
		s, err := store.ParseCheckStatus(status)
		if err != nil || s == model.CheckPending {
			return nil, fmt.Errorf("--check %s: status must be passed, failed or skipped", display.Line(f))
		}
		out[id] = s
	}
	return out, nil
}

func runLandPlain(io *IO, g *globalOpts, in *unsealed, o landOptions) error {
	checks, err := parseCheckFlags(o.Checks)
	if err != nil {
		return err
	}
	st, err := openStore(io, g)
	if err != nil {
		return err
	}
	env := landEnv(io)
	d := landing.Decisions{CheckStatus: checks, TrustOwnFacts: o.TrustOwnFacts, Again: o.Again, FilesOut: o.FilesOut}
	// One job, as every front end runs it (landing.Receive); the command
	// line shows the plan before anything is written.
	senders, serr := senderRing(io)
	if serr != nil {
		fmt.Fprintf(io.Err, "tp: warning: %s; every signer is treated as unknown\n", display.Line(serr.Error()))
	}
	var ring landing.Senders
	if senders != nil {
		ring = senders
	}
	rep, err := landing.Receive(context.Background(), st, landing.ReceiveRequest{
		Path: in.Path, Name: in.Name, Into: o.Into, DryRun: o.DryRun, Decisions: d, Env: env, Limits: o.limits(),
		Senders: ring, TrustSender: o.TrustSender,
		Show: func(plan *landing.Plan) error {
			placePlan(plan, st, o)
			if !g.json {
				renderPlan(io.Out, plan)
			}
			return nil
		},
	})
	if err != nil {
		var pe *pack.Error
		if errors.As(err, &pe) && pe.Rule == landing.RuleAlreadyLanded && !strings.Contains(pe.Detail, "--again") {
			return withHint(err, "tp show "+display.Line(strings.TrimPrefix(pe.Detail, "this file was already landed as "))+
				" shows it; --again lands it once more as a new passport")
		}
		return storeHint(err)
	}
	plan := rep.Plan
	if plan.Signer.State == landing.SignerTrustedNow && !g.json {
		fmt.Fprintf(io.Out, "trusted %s key %s as pack sender %s (trust on first use, D22; tp land says \"signed by %s\" from now on)\n",
			plan.Signer.KeyType, plan.Signer.Fingerprint, display.Line(plan.Signer.Name), display.Line(plan.Signer.Name))
	}
	doc := landJSON{DryRun: o.DryRun, Plan: plan, Landed: rep.Landed, Merged: rep.Merged, Verdict: rep.Verdict}
	if g.json {
		return writeJSON(io.Out, doc)
	}
	switch {
	case o.DryRun:
		fmt.Fprintln(io.Out, "\ndry run: nothing written")
	case rep.Merged != nil:
		renderMerged(io.Out, plan, rep.Merged)
		if o.TrustOwnFacts && rep.Merged.Changed && len(rep.Merged.Restored) == 0 && notOwn(plan) {
			fmt.Fprintln(io.Out, "--trust-own-facts: nothing restored; "+landing.NotOwnLineage)
		} else if o.TrustOwnFacts && rep.Merged.Changed && len(rep.Merged.Restored) == 0 {
			fmt.Fprintf(io.Out, "--trust-own-facts: nothing restored; no sealed fact the receipt added says it was verified on this machine (%s)\n", display.Line(env.Machine))
		}
	default:
		renderLanded(io.Out, rep.Landed)
		if o.TrustOwnFacts && len(rep.Landed.Restored) == 0 && notOwn(plan) {
			fmt.Fprintln(io.Out, "--trust-own-facts: nothing restored; "+landing.NotOwnLineage)
		} else if o.TrustOwnFacts && len(rep.Landed.Restored) == 0 {
			fmt.Fprintf(io.Out, "--trust-own-facts: nothing restored; no sealed fact says it was verified on this machine (%s)\n", display.Line(env.Machine))
		}
	}
	return nil
}

// notOwn says a fact of the plan was verified on this machine but cannot
// be restored: the pack's lineage passes through no pack this store made
// (TaskPack 0.1 §4.2, issue 18).
func notOwn(plan *landing.Plan) bool {
	facts := plan.Facts
	if plan.Merge != nil {
		facts = plan.Merge.FactsAdded
	}
	for _, f := range facts {
		if f.ThisMachine && !f.Restorable {
			return true
		}
	}
	return false
}

// safeError shows an error whose text may quote the pack (a chain entry, a
// luggage name) with its control and bidi characters made visible (D11);
// errors.As still finds what it wraps (exit codes, hints).
type safeError struct{ err error }

func (e safeError) Error() string { return display.Line(e.err.Error()) }
func (e safeError) Unwrap() error { return e.err }

func safeErr(err error) error {
	if err == nil {
		return nil
	}
	return safeError{err}
}

func writeJSON(w io.Writer, v any) error {
	b, err := ojson.MarshalCanonical(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// q quotes untrusted text for one line of plain output (D11). A credential
// in it is cut to its first bytes and marked (display.Redact): the plan
// lists it under credentials, and a terminal (or its scrollback, or a CI
// log) is no place for the secret itself (D5).
func q(s string) string { return `"` + display.Line(s) + `"` }

// writeQ writes q(s) to w without making it.
func writeQ(w *bufio.Writer, s string) {
	w.WriteByte('"')
	w.WriteString(display.Line(s))
	w.WriteByte('"')
}

// renderPlan prints the landing plan as stable plain text. Everything from
// the pack is sanitised and quoted; the sender's how is attributed.
func renderPlan(out io.Writer, pl *landing.Plan) {
	// One write for the plan, not one per line: a pack of 5,000 files
	// lists 5,000 lines (issue 20).
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	l := display.Line
	short := pl.SHA256
	if len(short) > 12 {
		short = short[:12]
	}
	verb := "Landing"
	if pl.Merge != nil {
		verb = "Merging"
	}
	fmt.Fprintf(w, "%s %s (%s, %s, sha256 %s…)\n", verb, l(pl.File), l(pl.Kind), pl.Encoding, short)
	fmt.Fprintf(w, "  signer     %s\n", l(signerLine(pl.Signer)))
	fmt.Fprintf(w, "  from       %s (harness %s), packed %s\n", l(pl.Sender.By()), l(pl.Sender.Harness), l(pl.Sender.PackedAt))
	fmt.Fprintf(w, "  passport   %s %s\n", l(model.ChainEntry(pl.Sender.PassportID, pl.Sender.Version)), q(pl.Title))
	fmt.Fprintf(w, "  goal       %s\n", q(pl.Goal))
	fmt.Fprintf(w, "  lineage    root %s, chain %s\n", l(pl.Lineage.RootID), l(joinChain(pl.Lineage.Chain)))
	if pl.Note != "" {
		fmt.Fprintf(w, "  note       %s\n", q(pl.Note))
	}
	fmt.Fprintf(w, "  integrity  %s; %s, %s\n", pl.Integrity.How, plural.N(pl.Integrity.LuggageFiles, "luggage file"), plural.N(pl.Integrity.LuggageBytes, "byte"))
	if pl.Merge != nil {
		fmt.Fprintf(w, "  answers    %s %s (version %d), %s (§4.4.1)\n", l(pl.Merge.Target), q(pl.Merge.TargetTitle), pl.Merge.TargetVersion, model.Lineage{Chain: pl.Lineage.Chain}.ReceiptTargetRule())
	} else {
		if pl.ID == "" {
			fmt.Fprintf(w, "  lands as   a new local id, minted when it lands (§3.1; a dry run promises none)\n")
		} else {
			fmt.Fprintf(w, "  lands as   %s (a new local id, §3.1)\n", l(pl.ID))
		}
	}
	if pl.AlreadyLandedAs != "" {
		fmt.Fprintf(w, "  NOTE       this file was already landed as %s\n", l(pl.AlreadyLandedAs))
	}

	if len(pl.Checks) > 0 {
		title := "Landing checks (required first; each how is the sender's suggestion and is never run here):"
		if pl.Merge != nil {
			title = "Landing checks in this receipt describe the sender's machine: reported, not adopted (§4.4.1):"
		}
		fmt.Fprintf(w, "\n%s\n", title)
		for _, c := range pl.Checks {
			req := "optional"
			if c.Required {
				req = "required"
			}
			fmt.Fprintf(w, "  %s [%s, %s] %s\n", l(c.ID), req, c.Status, q(c.Check))
			if c.How != "" && strings.Contains(strings.TrimRight(c.How, "\n"), "\n") {
				// A command of several lines is printed line by line, as
				// the shell would read it, each line quoted on its own
				// (issue 17: plain output keeps line structure).
				hl := strings.Split(strings.TrimRight(c.How, "\n"), "\n")
				fmt.Fprintf(w, "      how, %s (%s):\n", l(c.SuggestedBy), plural.N(len(hl), "line"))
				for _, x := range hl {
					fmt.Fprintf(w, "        │ %s\n", l(x))
				}
			} else if c.How != "" {
				fmt.Fprintf(w, "      how, %s: %s\n", l(c.SuggestedBy), q(c.How))
			}
		}
	}
	if len(pl.Facts) > 0 {
		fmt.Fprintf(w, "\nFacts (machine-scoped and unscoped facts arrive sealed, §4.2):\n")
		// A line per fact written in pieces, none made a string of its
		// own: a pack of 110,000 facts made 20 MB of garbage here, at the
		// top of the landing's heap (issue 20).
		for _, f := range pl.Facts {
			scope := f.Scope
			if scope == "" {
				scope = "no scope: machine"
			}
			mark := "  · ["
			switch {
			case f.Sealed:
				mark = "  ⚠ ["
			case f.Verified:
				mark = "  ✓ ["
			}
			w.WriteString(mark)
			w.WriteString(l(scope))
			switch {
			case f.Sealed:
				w.WriteString("; ")
				if f.VerifiedOn == "" {
					w.WriteString(sealedWhere(""))
				} else {
					w.WriteString("sealed, verified on ")
					w.WriteString(l(f.VerifiedOn))
				}
				switch {
				case f.Restorable:
					w.WriteString(" = this machine (--trust-own-facts may restore it)")
				case f.ThisMachine:
					w.WriteString(" = this machine, but not restorable: the pack's lineage passes through no pack this store made (§4.2)")
				}
			case !f.Verified:
				w.WriteString("; not verified")
			}
			w.WriteString("] ")
			writeQ(w, f.Claim)
			w.WriteByte('\n')
		}
	}
	if len(pl.Asks) > 0 {
		title := "Asks (what the sender still needs; accept says what counts as answered):"
		if pl.Merge != nil {
			title = "Asks in this receipt (answers go onto the matching asks at home; new asks are adopted as open, §4.4.1):"
		}
		fmt.Fprintf(w, "\n%s\n", title)
		for _, a := range pl.Asks {
			fmt.Fprintf(w, "  %s [%s] %s\n", l(a.ID), l(a.Status), q(a.What))
			if a.Why != "" {
				fmt.Fprintf(w, "      why:    %s\n", q(a.Why))
			}
			fmt.Fprintf(w, "      accept: %s\n", q(a.Accept))
			if a.Answer != "" {
				fmt.Fprintf(w, "      answer: %s%s\n", q(a.Answer), by(a.AnsweredBy, a.AnsweredAt))
			}
		}
	}
	if len(pl.Instructions) > 0 {
		fmt.Fprintf(w, "\nText that reads like instructions (data, reported, never acted on; §4.5):\n")
		for _, f := range pl.Instructions {
			label := string(f.Class) + " " + l(f.Rule)
			if string(f.Class) == f.Rule {
				label = l(f.Rule) // an instruction field: the class is the rule
			}
			fmt.Fprintf(w, "  %s [%s] %s\n", l(f.Where), label, q(f.Excerpt))
		}
	}
	if len(pl.Credentials) > 0 {
		fmt.Fprintf(w, "\nCredential-like or transcript-like text (landing warns, it does not refuse):\n")
		for _, f := range pl.Credentials {
			fmt.Fprintf(w, "  %s [%s %s] %s\n", l(f.Where), f.Class, l(f.Rule), q(f.Excerpt))
		}
	}
	if len(pl.Repairs) > 0 {
		fmt.Fprintf(w, "\nRepairs the reader made (the file is not conformant as written, §6 C0):\n")
		for _, r := range pl.Repairs {
			fmt.Fprintf(w, "  %s [%s] %s\n", l(r.Where), l(r.Rule), l(r.Detail))
		}
	}
	if len(pl.Luggage) > 0 {
		fmt.Fprintf(w, "\nLuggage → %s\n", l(pl.FilesDir))
		for _, g := range pl.Luggage {
			if g.LandsAs != "" {
				// A repository's metadata, disarmed (D10-git).
				fmt.Fprintf(w, "  %s (%s) → lands as %s\n", q(g.Name), plural.N(g.Bytes, "byte"), q(g.LandsAs))
				continue
			}
			fmt.Fprintf(w, "  %s (%s)\n", q(g.Name), plural.N(g.Bytes, "byte"))
		}
	}
	if m := pl.Merge; m != nil {
		renderPreview(w, m)
	} else if len(pl.NextSteps) > 0 {
		fmt.Fprintf(w, "\nNext steps, in order (§4.4):\n")
		var num [20]byte
		for i, s := range pl.NextSteps {
			w.WriteString("  ")
			w.Write(strconv.AppendInt(num[:0], int64(i+1), 10))
			w.WriteString(". ")
			w.WriteString(l(s.Text))
			w.WriteByte('\n')
		}
	}
	if len(pl.Warnings) > 0 {
		fmt.Fprintf(w, "\nWarnings:\n")
		for _, s := range pl.Warnings {
			fmt.Fprintf(w, "  %s\n", l(s))
		}
	}
}

func by(who, at string) string {
	if who == "" && at == "" {
		return ""
	}
	return " (by " + display.Line(who) + " at " + display.Line(at) + ")"
}

// sealedWhere says a sealed fact's state: where it was verified, or that
// the pack does not say (a fact sealed without a verified_on), never a
// dangling "verified on ".
func sealedWhere(verifiedOn string) string {
	if verifiedOn == "" {
		return "sealed; the pack does not say on which machine it was verified"
	}
	return "sealed, verified on " + display.Line(verifiedOn)
}

func renderPreview(w io.Writer, m *landing.MergePreview) {
	l := display.Line
	fmt.Fprintf(w, "\nWhat the merge changes in %s:\n", l(m.Target))
	if m.AlreadyMerged {
		fmt.Fprintf(w, "  nothing: this receipt was merged already (D6)\n")
		return
	}
	for _, c := range m.AsksChanged {
		fmt.Fprintf(w, "  ask %s %s: %s → %s", l(c.ID), q(c.What), l(c.Before.Status), l(c.After.Status))
		if c.After.Answer != "" {
			fmt.Fprintf(w, ", answer %s%s", q(c.After.Answer), by(c.After.AnsweredBy, c.After.AnsweredAt))
		}
		fmt.Fprintln(w)
	}
	for _, a := range m.AsksAdopted {
		fmt.Fprintf(w, "  ask %s adopted as open (a question for you): %s, accept %s\n", l(a.ID), q(a.What), q(a.Accept))
		if a.Answer != "" {
			// An answered ask this passport never recorded sending (a
			// writer that does not keep §4.3): the answer is kept with it.
			fmt.Fprintf(w, "      it carries an answer, kept: %s%s\n", q(a.Answer), by(a.AnsweredBy, a.AnsweredAt))
		}
	}
	if len(m.AsksUnchanged) > 0 {
		fmt.Fprintf(w, "  asks unchanged: %s\n", l(joinChain(m.AsksUnchanged)))
	}
	for _, f := range m.FactsAdded {
		state := "✓"
		if f.Sealed {
			state = sealedWhere(f.VerifiedOn)
		}
		fmt.Fprintf(w, "  fact added [%s]: %s\n", state, q(f.Claim))
	}
	if m.LuggageThere {
		fmt.Fprintf(w, "  luggage: already here from this receipt's other encoding, not written again\n")
	}
	if m.Changes == 0 {
		fmt.Fprintf(w, "  nothing to change\n")
	}
	fmt.Fprintf(w, "  goal, current_state and next_steps are not touched (§4.4.1)\n")
}

func renderLanded(out io.Writer, ld *landing.Landed) {
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	l := display.Line
	fmt.Fprintf(w, "\nlanded as %s (version %d)\n", l(ld.ID), ld.Version)
	if ld.FilesDir != "" {
		fmt.Fprintf(w, "luggage in %s (%s)\n", l(ld.FilesDir), plural.N(len(ld.Files), "file"))
	}
	for _, c := range ld.Restored {
		fmt.Fprintf(w, "restored ✓ (--trust-own-facts): %s\n", q(c))
	}
	for _, s := range ld.Warnings {
		fmt.Fprintf(w, "warning: %s\n", l(s))
	}
	luggageInstructions(w, ld.Instructions)
}

// luggageInstructions lists what a landing found in text luggage while it
// wrote it that reads like instructions (the plan shown before listed the
// object's; a dry run lists both).
func luggageInstructions(w io.Writer, fs []scan.Finding) {
	if len(fs) == 0 {
		return
	}
	l := display.Line
	fmt.Fprintf(w, "\nText in the luggage that reads like instructions (data, reported, never acted on; §4.5):\n")
	for _, f := range fs {
		fmt.Fprintf(w, "  %s [%s %s] %s\n", l(f.Where), l(string(f.Class)), l(f.Rule), q(f.Excerpt))
	}
}

func renderMerged(w io.Writer, pl *landing.Plan, m *landing.Merged) {
	l := display.Line
	if !m.Changed {
		fmt.Fprintf(w, "\nnothing changed in %s (version %d)\n", l(m.Target), m.Version)
		return
	}
	fmt.Fprintf(w, "\nmerged into %s (now version %d)\n", l(m.Target), m.Version)
	if m.FilesDir != "" {
		fmt.Fprintf(w, "luggage in %s (%s)\n", l(m.FilesDir), plural.N(len(m.Files), "file"))
	}
	for _, c := range m.Restored {
		fmt.Fprintf(w, "restored ✓ (--trust-own-facts): %s\n", q(c))
	}
	for _, s := range m.Warnings {
		fmt.Fprintf(w, "warning: %s\n", l(s))
	}
	luggageInstructions(w, m.Instructions)
}

// signerLine is the plan's signer for the plain output (D22): an unknown
// signer is not asked about headless; --trust-sender NAME is how to say yes.
func signerLine(s landing.Signer) string {
	if s.State == landing.SignerUnknown {
		return fmt.Sprintf("signed by a key you have not seen (%s); not trusted: --trust-sender NAME trusts it", s.Fingerprint)
	}
	return s.Say()
}
