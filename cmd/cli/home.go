package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/home"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/landing"
)

// homeCmd is what `tp` with no command does: the home screen on a terminal
// (io.Screens.Home); without a terminal, or with --plain or --json, the
// home summary (runHomeSummary).
func homeCmd(cmd *cobra.Command, io *IO, g *globalOpts) error {
	if home := io.screens().Home; io.Interactive(g) && home != nil {
		return home(cmd, io, g)
	}
	return runHomeSummary(io, g)
}

// homeSources points the summary at the store, the acts log and the
// current folder. An acts log that cannot be located is a problem line,
// not an error: the passports are still worth showing.
func homeSources(io *IO, g *globalOpts) (home.Sources, []string, error) {
	st, err := openStore(io, g)
	if err != nil {
		return home.Sources{}, nil, err
	}
	src := home.Sources{Store: st}
	var probs []string
	if l, err := openActsLog(io, g); err != nil {
		probs = append(probs, "acts: "+err.Error())
	} else {
		src.Acts = l
	}
	if wd, err := io.wd(); err == nil {
		src.Dir = wd
	}
	return src, probs, nil
}

// runHomeSummary prints the home summary: stable text, or with --json one
// document (home.Summary). What could not be read goes to stderr as
// warnings (and into "problems" with --json).
func runHomeSummary(io *IO, g *globalOpts) error {
	src, probs, err := homeSources(io, g)
	if err != nil {
		return err
	}
	s, err := home.Summarize(context.Background(), src)
	if err != nil {
		return storeHint(err)
	}
	if len(probs) > 0 {
		s.Problems = append(probs, s.Problems...)
	}
	if g.json {
		return writeJSON(io.Out, s)
	}
	for _, p := range s.Problems {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(p))
	}
	renderHome(io.Out, s)
	return nil
}

// renderHome prints the summary as stable text: one block per source, a
// row per passport, project and pack, and what to type next.
func renderHome(w io.Writer, s *home.Summary) {
	l := display.Line
	fmt.Fprintf(w, "store      %s\n", l(s.Store))
	if len(s.Passports) == 0 {
		fmt.Fprintf(w, "passports  none (tp new --title T --goal G starts one)\n")
	} else {
		failed := ""
		if s.FailedChecks > 0 {
			failed = " · " + plural.N(s.FailedChecks, "failed check")
		}
		fmt.Fprintf(w, "passports  %s · %s · %s%s\n", plural.N(len(s.Passports), "passport"),
			plural.N(s.OpenAsks, "open ask"), plural.N(s.PendingChecks, "pending check"), failed)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, p := range s.Passports {
			var open []string
			if p.OpenAsks > 0 {
				open = append(open, plural.N(p.OpenAsks, "open ask"))
			}
			if p.PendingChecks > 0 {
				open = append(open, plural.N(p.PendingChecks, "pending check"))
			}
			if p.FailedChecks > 0 {
				open = append(open, plural.N(p.FailedChecks, "failed check"))
			}
			if p.Flagged > 0 {
				open = append(open, plural.N(p.Flagged, "flagged sentence"))
			}
			if len(open) == 0 {
				open = append(open, "nothing open")
			}
			fmt.Fprintf(tw, "  %s\tv%d\t%s\t%s\n", l(p.ID), p.Version, strings.Join(open, ", "), q(p.Title))
		}
		tw.Flush()
	}
	if s.ActsDir != "" {
		if len(s.Projects) == 0 {
			fmt.Fprintf(w, "acts       no open acts in %s\n", l(s.ActsDir))
		} else {
			fmt.Fprintf(w, "acts       %s in %s · %s\n", plural.N(s.OpenActs, "open act"),
				plural.N(len(s.Projects), "project"), l(s.ActsDir))
			for _, p := range s.Projects {
				fmt.Fprintf(w, "  %s  %d open\n", l(p.Project), p.Open)
			}
		}
	}
	if len(s.Packs) == 0 {
		fmt.Fprintf(w, "packs here none in %s\n", l(s.Dir))
	} else {
		fmt.Fprintf(w, "packs here %s in %s\n", plural.N(len(s.Packs), "pack"), l(s.Dir))
		for i, p := range s.Packs {
			// What each pack is to this store (issue 17): only a pack
			// to land is suggested below.
			fmt.Fprintf(w, "  %s  %s\n", l(p), packStateText(s.PackStates, i))
		}
	}
	if len(s.Incoming) > 0 {
		fmt.Fprintf(w, "over A2A   %s in %s\n", plural.N(len(s.Incoming), "pack"), l(filepath.Dir(filepath.Dir(s.Incoming[0].Path))))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, in := range s.Incoming {
			state := in.State
			if in.LandedAs != "" {
				state += " as " + l(in.LandedAs)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", l(in.TaskID), l(in.Kind), state, q(in.Title), l(in.Path))
		}
		tw.Flush()
	}
	var next []string
	for i, p := range s.Packs {
		if i < len(s.PackStates) && s.PackStates[i].State == landing.PackToLand {
			next = append(next, "tp land "+shellWord(p))
			break
		}
	}
	for _, in := range s.Incoming {
		if in.State == "waiting" {
			next = append(next, "tp land "+shellWord(in.Path))
			break
		}
	}
	for _, p := range s.Passports {
		if p.OpenAsks > 0 {
			next = append(next, "tp asks "+l(p.ID))
			break
		}
	}
	for _, p := range s.Passports {
		if p.PendingChecks > 0 || p.FailedChecks > 0 {
			next = append(next, "tp checks "+l(p.ID))
			break
		}
	}
	if s.OpenActs > 0 {
		next = append(next, "tp acts")
	}
	if len(next) > 0 {
		fmt.Fprintf(w, "next       %s\n", strings.Join(next, " · "))
	}
}

// shellWord quotes a file name for a command line a person may paste.
func shellWord(s string) string {
	s = display.Line(s)
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '.' || r == '-' || r == '_' || r == '/' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// packStateText says what pack i of a home summary is to this store.
func packStateText(states []landing.PackState, i int) string {
	if i >= len(states) {
		return landing.PackToLand
	}
	st := states[i]
	switch st.State {
	case landing.PackMerged:
		return "merged into " + display.Line(st.Passport)
	case landing.PackLanded:
		return "landed as " + display.Line(st.Passport)
	case landing.PackSent:
		return "sent by you from " + display.Line(st.Passport)
	}
	return display.Line(st.State)
}
