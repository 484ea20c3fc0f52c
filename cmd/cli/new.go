package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/checkpoint"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/taskpassport"
)

func newNewCmd(io *IO, g *globalOpts) *cobra.Command {
	var title, goal, state, next string
	cmd := &cobra.Command{
		Use:   "new --title T --goal G",
		Short: "Create a passport in the home store",
		Long: `Create a passport: the record of a task that stays home. It gets a new
id (TP-XXXX-XXXX) and version 1 in the store (--store, $TP_STORE,
$TASK_PASSPORT_STORE, or the XDG data dir tp/passports).`,
		Example: `  tp new --title "Fix the build" --goal "CI green on main"`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openStore(io, g)
			if err != nil {
				return err
			}
			v, err := checkpoint.Create(s, title, goal, store.CreateOptions{CurrentState: state, NextStep: next})
			if err != nil {
				return storeHint(err)
			}
			if g.json {
				// task-passport new's document (passport_id, state_version,
				// state, handoff_prompt): the same under either name.
				return writeJSON(io.Out, taskpassport.SavedOf(v, nil))
			}
			id := v.Get("id").Text()
			fmt.Fprintf(io.Out, "created %s (version 1): %s\n", id, display.Line(v.Get("title").Text()))
			fmt.Fprintf(io.Out, "store: %s\n", display.Line(s.Dir()))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&title, "title", "", "the task's title (required)")
	f.StringVar(&goal, "goal", "", "what done looks like (required)")
	f.StringVar(&state, "state", "", "the current state (default: not started)")
	f.StringVar(&next, "next", "", "the first next step")
	cmd.MarkFlagRequired("title")
	cmd.MarkFlagRequired("goal")
	return cmd
}
