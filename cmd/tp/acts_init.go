package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/sanitize"
)

func newActsInitCmd(io *IO, g *globalOpts) *cobra.Command {
	var url string
	cmd := &cobra.Command{
		Use:   "init [--git URL]",
		Short: "Create the acts dir; with --git, as a clone of a shared repository",
		Long: `Create the acts dir (the record log). With --git URL it is a clone of that
repository, so that the principal's machines and the registrar's share one
log (D20): commands that write records commit and push them, commands that
read pull first (--offline skips both). An empty repository gets a first
commit (a .gitignore of per-machine files) and becomes the upstream.`,
		Example: `  tp acts init --git git@example.org:me/acts.git
  tp --acts-dir ~/acts acts init --git /srv/git/acts.git`,
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
				fmt.Fprintf(io.Out, "acts dir %s\n", sanitize.Line(l.Dir))
				return nil
			}
			created, err := acts.InitRepo(context.Background(), l.Dir, url)
			if err != nil {
				return fmt.Errorf("%s", sanitize.Line(err.Error()))
			}
			what := "a clone of"
			if created {
				what = "a clone of the empty repository (first commit pushed)"
			}
			fmt.Fprintf(io.Out, "acts dir %s is %s %s\n", sanitize.Line(l.Dir), what, sanitize.Line(url))
			return nil
		},
	}
	cmd.Flags().StringVar(&url, "git", "", "the repository to clone (any URL git accepts)")
	return cmd
}
