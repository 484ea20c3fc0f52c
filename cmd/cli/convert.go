package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/pack"
)

func newConvertCmd(io *IO, g *globalOpts) *cobra.Command {
	var out string
	var allowLarge, force bool
	var maxPassport int64
	var identity string
	cmd := &cobra.Command{
		Use:   "convert FILE --out FILE",
		Short: "Turn a .taskpack into a .taskpack.json and back",
		Long: `Convert a pack between its two encodings (TaskPack 0.1 §2): the ZIP + BagIt
.taskpack and the flat .taskpack.json. The pack object and every luggage
file's bytes carry over unchanged. An --out name ending in .json gets the flat
form, one ending in .taskpack the bag; any other name gets the encoding the
input is not. Retired .tpx/0.1 files are read, never written.

The input is read as landing reads it: what a strict reader would refuse
(a machine-scoped fact still marked verified, an attachment without sha256,
a BOM, non-canonical JSON...) is repaired in the output, and each repair is
named on stderr as a warning. Run tp conformance on the input to judge it
as written.

The flat form refuses attachments over 1 MiB (a chat app will not carry
them); --allow-large lifts that. The output is written atomically: on any
error nothing is left behind.`,
		Example: `  tp convert examples/handoff.taskpack --out /tmp/handoff.taskpack.json
  tp convert handoff.taskpack.json --out handoff.taskpack
  tp convert big.taskpack --out big.taskpack.json --allow-large`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return withHint(errors.New("convert needs --out FILE"), "tp convert FILE --out FILE")
			}
			// The output naming the input is the core's refusal (with or
			// without --force); any other existing output is --force's.
			if !sameFile(args[0], out) {
				if err := refuseOverwrite(out, force); err != nil {
					return err
				}
			}
			in, err := unseal(io, cmd.CommandPath(), identity, args[0], sealedMax(pack.Limits{}))
			if err != nil {
				return err
			}
			defer in.Close()
			repairs, err := pack.ConvertRepairs(in.Path, out, pack.WriteOptions{AllowLarge: allowLarge, ReadLimits: pack.Limits{MaxCanonical: maxPassport}})
			err = in.renamed(err)
			if err != nil {
				var pe *pack.Error
				if errors.As(err, &pe) && pe.Rule == pack.RuleInlineLimit {
					return withHint(err, "keep it as .taskpack, or pass --allow-large")
				}
				return err
			}
			// The input was read leniently: say on stderr what the output
			// carries that the input did not (D4), one line per repair.
			for _, r := range repairs {
				verb := "repaired"
				if r.Rule == pack.RepairDropped {
					verb = "dropped"
				}
				fmt.Fprintf(io.Err, "tp: warning: %s: %s %s (%s): %s\n",
					display.Line(args[0]), verb, display.Line(r.Where), r.Rule, display.Line(r.Detail))
			}
			if g.json {
				if repairs == nil {
					repairs = []pack.Repair{}
				}
				b, _ := ojson.MarshalCanonical(map[string]any{"in": args[0], "out": out, "repairs": repairs})
				io.Out.Write(b)
				return nil
			}
			fmt.Fprintf(io.Out, "converted %s → %s\n", display.Line(args[0]), display.Line(out))
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "where to write the converted pack")
	cmd.Flags().BoolVar(&allowLarge, "allow-large", false, "let the flat form inline attachments over 1 MiB")
	cmd.Flags().Int64Var(&maxPassport, "max-passport-bytes", pack.DefaultLimits().MaxCanonical, "refuse a pack whose canonical passport.json (D1) would be larger (D10)")
	cmd.Flags().BoolVar(&force, "force", false, "replace the --out file if it exists")
	cmd.Flags().StringVar(&identity, "identity", "", "open a sealed (.age) pack with this age identity or SSH private key (D22; default $TP_AGE_IDENTITY, ~/.ssh/id_ed25519, ~/.ssh/id_rsa); the output is not sealed")
	return cmd
}
