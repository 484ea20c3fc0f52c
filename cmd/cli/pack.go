package cli

import (
	"context"
	"errors"
	"fmt"
	stdio "io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// packOptions are tp pack's flags (docs/architecture.md, command-line conventions).
type packOptions struct {
	out        string
	flat       bool
	receipt    bool
	files      []string
	asks       []string
	checks     []string
	asksFile   string
	checksFile string
	note       string
	actor      string
	force      bool     // replace an existing --out
	sign       bool     // --sign: sign the pack (D22)
	signSet    bool     // --sign or --sign=false was given
	to         []string // --to: seal for these recipients (D22)
	toFiles    []string // --to-file: recipients, one a line
	// withRepository: --with-repository (D5-repository)
	withRepository bool
	armor          bool // --armor: PEM-armoured sealed output
}

// packJSON is tp pack --json.
type packJSON struct {
	OK            bool                `json:"ok"`
	Pack          string              `json:"pack"`
	Encoding      pack.Encoding       `json:"encoding"`
	Kind          string              `json:"kind"`
	PassportID    string              `json:"passport_id"`
	Version       int64               `json:"version"`
	HomeVersion   int64               `json:"home_version"` // after recording the asks sent
	Lineage       landing.PlanLineage `json:"lineage"`
	Asks          []string            `json:"asks"`
	AsksRecorded  []string            `json:"asks_recorded"`
	AsksSentAgain []string            `json:"asks_sent_again"`
	LandingChecks []string            `json:"landing_checks"`
	Luggage       []string            `json:"luggage"`
	Warnings      []string            `json:"warnings"`
	// Signature is the pack's signer (D22); absent when unsigned.
	Signature     *pack.Signature `json:"signature,omitempty"`
	ContentSHA256 string          `json:"content_sha256"`
	// SealedFor are the recipients the pack is sealed for (D22); absent
	// when it is not sealed.
	SealedFor []string `json:"sealed_for,omitempty"`
}

func newPackCmd(io *IO, g *globalOpts) *cobra.Command {
	var o packOptions
	cmd := &cobra.Command{
		Use:   "pack ID --out FILE",
		Short: "Pack a passport into a TaskPack: a handoff, or with --receipt the answers going home",
		Long: `Pack passport ID into a TaskPack (.taskpack, ZIP + BagIt; or with --flat the
.taskpack.json single file). The pack's lineage is the passport's kept chain
plus its own <id>@<version> (TaskPack §3); machine-scoped and unscoped facts
leave sealed (§4.2); credentials, transcripts, instruction fields and asks
without an accept rule are refused and nothing is written (§4.1).

The asks sent are recorded in the passport that stays home (§4.3), so the
receipt that answers them has somewhere to land. A --receipt carries back the
asks this passport received, with their answers, and any new ones.

Pre-flight warnings (absolute local paths no luggage carries, facts without
scope, accept rules too vague to judge) go to stderr; they do not stop the pack.`,
		Example: `  tp pack TP-K7WF-3NQX --out deck.taskpack --file outline.md --file figures \
      --ask "Send the September close by region|A CSV with EMEA, APAC and AMER revenue|Slide 2" \
      --check "Keynote opens the template|open -a Keynote template.key"
  tp pack TP-K7WF-3NQX --receipt --out answers.taskpack.json --flat`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.signSet = cmd.Flags().Changed("sign")
			return safeErr(runPack(io, g, args[0], o))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "the pack file to write (required)")
	f.BoolVar(&o.flat, "flat", false, "write the flat .taskpack.json form (attachments inline)")
	f.BoolVar(&o.receipt, "receipt", false, "pack a receipt: the answers to the asks this passport received (§4.4.1)")
	f.StringArrayVar(&o.files, "file", nil, "luggage: a file, or a folder that keeps its shape (repeatable)")
	f.BoolVar(&o.withRepository, "with-repository", false, "carry the repository metadata (.git/, .hg/) inside a --file folder; left out by default, as its compressed history cannot be checked for credentials (D5)")
	f.StringArrayVar(&o.asks, "ask", nil, `an ask: "what|accept|why" (repeatable; accept is required, §4.3)`)
	f.StringArrayVar(&o.checks, "check", nil, `a required landing check: "check|how" (repeatable, §4.4)`)
	f.StringVar(&o.asksFile, "asks", "", "a JSON array of asks")
	f.StringVar(&o.checksFile, "checks", "", "a JSON array of landing checks")
	f.StringVar(&o.note, "note", "", "one line for the receiver")
	f.StringVar(&o.actor, "actor", "", "who is packing (default $TP_ACTOR, git user.name, $USER)")
	f.BoolVar(&o.force, "force", false, "replace the --out file if it exists")
	f.StringArrayVar(&o.to, "to", nil, "seal the pack with age for this recipient: an age public key (age1…) or an SSH public key (ssh-ed25519 …, ssh-rsa …); repeatable (D22)")
	f.StringArrayVar(&o.toFiles, "to-file", nil, "seal for every key in this file, one a line (an authorized_keys file, a GitHub .keys file); repeatable")
	f.BoolVar(&o.armor, "armor", false, "write the sealed pack as PEM-armoured text, for pasting into a chat")
	f.BoolVar(&o.sign, "sign", false, "sign the pack with your SSH key (D22; the default when --signing-key, $TP_SIGNING_KEY or git's SSH user.signingkey is set; --sign=false: never)")
	return cmd
}

func runPack(io *IO, g *globalOpts, id string, o packOptions) error {
	if o.out == "" {
		return withHint(fmt.Errorf("pack %s: --out FILE is required", display.Line(id)), "name the pack file, e.g. --out handoff.taskpack")
	}
	var seal func(w stdio.Writer, r stdio.Reader) error
	var sealedFor []string
	if len(o.to) > 0 || len(o.toFiles) > 0 {
		sl, err := sealer(io, "tp pack --to")
		if err != nil {
			return err
		}
		rs, warnings, err := sealRecipients(sl, o.to, o.toFiles)
		if err != nil {
			return err
		}
		for _, w := range warnings {
			fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(w))
		}
		for _, r := range rs {
			sealedFor = append(sealedFor, r.Text)
		}
		armor := o.armor
		seal = func(w stdio.Writer, r stdio.Reader) error { return sl.Encrypt(w, r, rs, armor) }
		o.out = sealedName(o.out)
	} else if o.armor {
		return withHint(errors.New("--armor armours a sealed pack; nothing was written"), "seal it for someone with --to KEY or --to-file FILE")
	}
	if err := refuseOverwrite(o.out, o.force); err != nil {
		return err
	}
	st, err := openStore(io, g)
	if err != nil {
		return err
	}
	var asks, checks []*ojson.Value
	for _, a := range o.asks {
		asks = append(asks, landing.ParseAsk(a))
	}
	if o.asksFile != "" {
		more, err := readListArg(io, o.asksFile)
		if err != nil {
			return err
		}
		asks = append(asks, more...)
	}
	for _, c := range o.checks {
		checks = append(checks, landing.ParseCheck(c))
	}
	if o.checksFile != "" {
		more, err := readListArg(io, o.checksFile)
		if err != nil {
			return err
		}
		checks = append(checks, more...)
	}
	kind := model.KindHandoff
	if o.receipt {
		kind = model.KindReceipt
	}
	enc := pack.EncodingBag
	if o.flat {
		enc = pack.EncodingFlat
	}
	var sign func([]byte) (string, error)
	if o.sign || (!o.signSet && packSignsByDefault(io, g)) {
		if sign, _, err = packSigner(io, g); err != nil {
			return err
		}
	}
	rep, err := landing.Pack(context.Background(), st, landing.PackRequest{
		ID: id, Out: o.out, Encoding: enc, Replace: o.force, Sign: sign, Seal: seal, SealedTo: sealedFor,
		Build: landing.BuildOptions{
			Kind:           kind,
			Files:          o.files,
			WithRepository: o.withRepository,
			Asks:           asks,
			Checks:         checks,
			Note:           o.note,
			Actor:          store.Actor(o.actor, io.Env),
			Machine:        store.Machine(io.Env),
		},
	})
	if rep != nil {
		for _, w := range rep.Warnings {
			fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(w))
		}
	}
	if err != nil {
		var re *pack.RefusalError
		if errors.As(err, &re) {
			return refusalHint(err, id, st.Path(id))
		}
		return storeHint(err)
	}
	built, warnings, recorded, homeVersion := rep.Built, rep.Warnings, rep.Recorded, rep.HomeVersion

	po := model.PackObject{V: built.Source.Object}
	lin := po.Lineage()
	res := packJSON{OK: true, Pack: o.out, Encoding: enc, Kind: kind, PassportID: rep.PassportID,
		Version: rep.Version, HomeVersion: homeVersion,
		Lineage: landing.PlanLineage{RootID: lin.RootID, FromVersion: lin.FromVersion, Chain: lin.Chain},
		Asks:    []string{}, AsksRecorded: []string{}, LandingChecks: []string{}, Luggage: []string{}, Warnings: []string{}}
	for _, a := range po.Asks() {
		res.Asks = append(res.Asks, a.ID())
	}
	res.AsksRecorded = append(res.AsksRecorded, recorded...)
	res.AsksSentAgain = []string{}
	for _, a := range built.Resent {
		res.AsksSentAgain = append(res.AsksSentAgain, a.ID())
	}
	for _, c := range po.LandingChecks() {
		res.LandingChecks = append(res.LandingChecks, c.ID())
	}
	for _, f := range built.Files {
		res.Luggage = append(res.Luggage, f.Name)
	}
	res.Warnings = append(res.Warnings, warnings...)
	res.Signature, res.ContentSHA256, res.SealedFor = rep.Signature, rep.ContentSHA256, sealedFor
	if g.json {
		b, err := ojson.MarshalCanonical(res)
		if err != nil {
			return err
		}
		_, err = io.Out.Write(b)
		return err
	}
	fmt.Fprintf(io.Out, "packed %s %s@%d → %s (%s)\n", kind, display.Line(res.PassportID), res.Version, display.Line(o.out), enc)
	fmt.Fprintf(io.Out, "  lineage   root %s, chain %s\n", display.Line(lin.RootID), display.Line(joinChain(lin.Chain)))
	fmt.Fprintf(io.Out, "  asks      %d", len(res.Asks))
	if len(recorded) > 0 {
		fmt.Fprintf(io.Out, " (recorded at home: %s; %s is now version %d)", display.Line(joinChain(recorded)), display.Line(res.PassportID), homeVersion)
	}
	if len(res.AsksSentAgain) > 0 {
		fmt.Fprintf(io.Out, " (%s: asked before and still open, sent again under the same id, not recorded twice)", display.Line(joinChain(res.AsksSentAgain)))
	}
	fmt.Fprintln(io.Out)
	fmt.Fprintf(io.Out, "  checks    %d\n", len(res.LandingChecks))
	fmt.Fprintf(io.Out, "  luggage   %s\n", plural.N(len(res.Luggage), "file"))
	if rep.Signature != nil {
		fmt.Fprintf(io.Out, "  signed    %s key %s (SSHSIG, namespace %s; D22)\n", rep.Signature.KeyType, rep.Signature.Fingerprint, pack.SignatureNamespace)
	} else {
		fmt.Fprintf(io.Out, "  signed    no (--sign signs it with your SSH key)\n")
	}
	if len(sealedFor) > 0 {
		fmt.Fprintf(io.Out, "  sealed    with age for %s: only they can open it\n", plural.N(len(sealedFor), "recipient"))
	}
	return nil
}

// refusalHint says what to do about a refused pack (§4.1, §4.5): a problem
// inside the stored passport (often what a landed pack carried, kept as
// data and flagged on landing) is fixed by editing that passport's file; a
// problem in an ask or check given here is fixed in the flags or files.
func refusalHint(err error, id, file string) error {
	var re *pack.RefusalError
	if !errors.As(err, &re) {
		return err
	}
	var inPassport, inAsks []string
	for _, it := range re.Items {
		switch {
		case strings.HasPrefix(it.Entry, "passport."), it.Entry == "passport":
			inPassport = append(inPassport, strings.TrimPrefix(it.Entry, "passport."))
		case strings.HasPrefix(it.Entry, "asks"), strings.HasPrefix(it.Entry, "landing_checks"):
			inAsks = append(inAsks, it.Entry)
		}
	}
	var hints []string
	if len(inPassport) > 0 {
		hints = append(hints, fmt.Sprintf("%s itself holds %s (a landed passport keeps what its sender sent, as data): remove or rewrite it in %s, then pack again",
			display.Line(id), display.Line(strings.Join(inPassport, ", ")), display.Line(file)))
	}
	if len(inAsks) > 0 {
		hints = append(hints, "fix "+display.Line(strings.Join(inAsks, ", "))+" in --ask/--asks or --check/--checks (every ask needs what and accept, §4.3)")
	}
	hints = append(hints, "nothing was written and the home passport is unchanged")
	return withHint(fmt.Errorf("pack %s: %w", display.Line(id), err), strings.Join(hints, "; "))
}

func joinChain(s []string) string {
	out := ""
	for i, e := range s {
		if i > 0 {
			out += ", "
		}
		out += e
	}
	if out == "" {
		return "-"
	}
	return out
}

// readListArg reads a JSON array of asks or checks from a file, or from
// stdin when the name is "-" (as everywhere a flag takes a file).
func readListArg(io *IO, name string) ([]*ojson.Value, error) {
	data, name, err := readInput(io, name)
	if err != nil {
		return nil, err
	}
	return landing.ParseList(data, name)
}
