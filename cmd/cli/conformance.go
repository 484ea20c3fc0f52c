package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/judge"
	"github.com/tp-dev/tp/pack"
)

func newConformanceCmd(io *IO, g *globalOpts) *cobra.Command {
	var maxPassport int64
	var identity string
	cmd := &cobra.Command{
		Use:   "conformance FILE",
		Short: "Judge a pack against TaskPack 0.1 (C0–C10)",
		Long: `Judge a .taskpack or .taskpack.json against TaskPack 0.1 §6: checks C0–C10,
each with pass or fail and a reason. The file is read strictly: nothing is
repaired, and anything a lenient reader would have had to repair fails C0.
The encoding is sniffed from the bytes, not the name. Luggage is streamed,
whatever its size.

Exit codes:
  0  conformant
  1  not a pack at all: missing, a folder, empty, neither a ZIP nor a
     JSON object
  2  a pack, not conformant (also one that is cut short, tampered with or
     hostile: every check it could not pass fails, with the reason)`,
		Example: `  tp conformance examples/handoff.taskpack
  tp conformance handoff.taskpack.json --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lim := pack.DefaultLimits()
			if maxPassport > 0 {
				lim.MaxCanonical = maxPassport
			}
			in, err := unseal(io, cmd.CommandPath(), identity, args[0], sealedMax(lim))
			if err != nil {
				return err
			}
			defer in.Close()
			r, err := judge.Conformance(in.Path, pack.Options{Limits: lim})
			if err != nil {
				return in.renamed(err)
			}
			r.File = in.Name // a sealed pack is judged as what it holds (D22)
			if g.json {
				// ok first, as task-passport conformance prints it; then tp's report.
				b, err := ojson.MarshalCanonical(struct {
					OK bool `json:"ok"`
					*judge.Report
				}{r.Conformant, r})
				if err != nil {
					return err
				}
				io.Out.Write(b)
			} else {
				renderReport(io, r)
			}
			if !r.Conformant {
				return silentExit(exitNotConformant)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&identity, "identity", "", "open a sealed (.age) pack with this age identity or SSH private key (D22; default $TP_AGE_IDENTITY, ~/.ssh/id_ed25519, ~/.ssh/id_rsa)")
	cmd.Flags().Int64Var(&maxPassport, "max-passport-bytes", pack.DefaultLimits().MaxCanonical, "refuse a pack whose canonical passport.json (D1) would be larger (D10)")
	return cmd
}

// renderReport prints a report as stable plain text; the file name and the
// reasons quote the pack, so they go through sanitize (D11).
func renderReport(io *IO, r *judge.Report) {
	fmt.Fprintf(io.Out, "%s (%s, %s)\n", display.Line(r.File), display.Line(r.Spec), r.Encoding)
	for _, c := range r.Checks {
		mark := "pass"
		if !c.Pass {
			mark = "FAIL"
		}
		fmt.Fprintf(io.Out, "%s %-4s %s\n", mark, c.ID, c.Requirement)
		fmt.Fprintf(io.Out, "          %s\n", display.Line(c.Reason))
	}
	verdict := "conformant"
	if !r.Conformant {
		verdict = "NOT conformant"
	}
	fmt.Fprintf(io.Out, "%s: %d/%d checks pass\n", verdict, r.Passed, r.Total)
	fmt.Fprintf(io.Out, "signature (D22, beside TaskPack 0.1, not one of its checks): %s\n", display.Line(signatureLine(r.Signature)))
}

// signatureLine is a pack's signature status in one line (D22).
func signatureLine(s pack.SignatureStatus) string {
	switch s.State {
	case pack.SigValid:
		return fmt.Sprintf("signed by %s key %s (verifies over the content; who holds the key is for tp land to say)", s.Signature.KeyType, s.Signature.Fingerprint)
	case pack.SigInvalid:
		return "INVALID, " + s.Reason + " (tp land refuses this pack)"
	}
	return "unsigned"
}
