package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/sshsign"
)

func newActsInitCmd(io *IO, g *globalOpts) *cobra.Command {
	var url, principal string
	cmd := &cobra.Command{
		Use:   "init [--git URL]",
		Short: "Create the acts dir; with --git, as a clone of a shared repository",
		Long: `Create the acts dir (the record log). With --git URL it is a clone of that
repository, so that the principal's machines and the registrar's share one
log (D20): commands that write records commit and push them, commands that
read pull first (--offline skips both). An empty repository gets a first
commit (a .gitignore of per-machine files) and becomes the upstream.

With --principal KEY (a .pub file, a key line or a SHA256 fingerprint), this
machine trusts KEY as the first principal of every project of the log whose
principal chain starts with it (D19): the way to set up a registrar, which
never adopts a principal on its own. A project that gets its principal later
is trusted with tp acts principal trust --project P KEY.`,
		Example: `  tp acts init --git git@example.org:me/acts.git
  tp --acts-dir ~/acts acts init --git /srv/git/acts.git
  tp acts init --git git@example.org:me/acts.git --principal ~/alice.pub`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := openActsLog(io, g)
			if err != nil {
				return err
			}
			if url == "" {
				if err := os.MkdirAll(l.Dir, 0o755); err != nil {
					return err
				}
				fmt.Fprintf(io.Out, "acts dir %s\n", display.Line(l.Dir))
				return nil
			}
			created, err := actsession.InitRepo(context.Background(), l.Dir, url)
			if err != nil {
				return fmt.Errorf("%s", display.Line(err.Error()))
			}
			what := "a clone of"
			if created {
				what = "a clone of the empty repository (first commit pushed)"
			}
			fmt.Fprintf(io.Out, "acts dir %s is %s %s\n", display.Line(l.Dir), what, display.Line(url))
			if principal == "" {
				return nil
			}
			projects, _, err := l.Projects()
			if err != nil {
				return err
			}
			trusted := 0
			for _, p := range projects {
				c, err := actsTrustFirst(l, p, principal)
				if err != nil {
					continue // not this project's first principal
				}
				trusted++
				fmt.Fprintf(io.Out, "trusted %s %s as the first principal of project %s (project id %s) on this machine\n",
					display.Line(c.Principal), sshsign.Fingerprint(actsKeyOf(c.PublicKey)), display.Line(p), c.ProjectID)
			}
			if trusted == 0 {
				fmt.Fprintf(io.Err, "tp: warning: no project of %s starts with that principal yet: once one does, trust it with tp acts principal trust --project P KEY\n", display.Line(url))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&url, "git", "", "the repository to clone (any URL git accepts)")
	cmd.Flags().StringVar(&principal, "principal", "", "trust this key as the first principal of the log's projects that start with it (with --git)")
	return cmd
}
