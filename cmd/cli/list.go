package cli

import (
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/store"
)

// listJSON is `tp list --json`: task-passport list's members (count,
// passports with passport_id and state_version) with tp's beside them.
type listJSON struct {
	Store     string          `json:"store"`
	Count     int             `json:"count"`
	Passports []listEntry     `json:"passports"`
	Skipped   []store.Skipped `json:"skipped"`
}

type listEntry struct {
	PassportID   string `json:"passport_id"`
	StateVersion int64  `json:"state_version"`
	store.Entry
}

func newListCmd(io *IO, g *globalOpts) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the passports in the home store",
		Long: `List the passports in the store, most recently updated first: id, version,
open asks, pending landing checks, lineage root and title. Files in the store
that cannot be read are reported on stderr and skipped.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openStore(io, g)
			if err != nil {
				return err
			}
			if listScreen := io.screens().List; io.Interactive(g) && listScreen != nil {
				return listScreen(io, g, s)
			}
			entries, skipped, err := s.List()
			if err != nil {
				return err
			}
			for _, sk := range skipped {
				fmt.Fprintf(io.Err, "tp: warning: skipped %s: %s\n", display.Line(sk.File), display.Line(sk.Reason))
			}
			if g.json {
				out := listJSON{Store: s.Dir(), Count: len(entries), Passports: []listEntry{}, Skipped: skipped}
				for _, e := range entries {
					out.Passports = append(out.Passports, listEntry{PassportID: e.ID, StateVersion: e.Version, Entry: e})
				}
				if out.Skipped == nil {
					out.Skipped = []store.Skipped{}
				}
				b, err := ojson.MarshalCanonical(out)
				if err != nil {
					return err
				}
				_, err = io.Out.Write(b)
				return err
			}
			if len(entries) == 0 {
				note := ""
				if len(skipped) > 0 {
					note = " (" + plural.N(len(skipped), "unreadable file") + " skipped)"
				}
				fmt.Fprintf(io.Out, "no passports in %s%s\n", display.Line(s.Dir()), note)
				return nil
			}
			tw := tabwriter.NewWriter(io.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tVERSION\tOPEN ASKS\tPENDING CHECKS\tFAILED CHECKS\tROOT\tTITLE")
			for _, e := range entries {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", display.Line(e.ID), e.Version,
					count(e.OpenAsks), count(e.PendingChecks), count(e.FailedChecks), display.Line(e.RootID), display.Line(e.Title))
			}
			return tw.Flush()
		},
	}
}

func count(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}
