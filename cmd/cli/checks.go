package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
)

// checksJSON is `tp checks --json`: the stored landing checks, exactly.
type checksJSON struct {
	ID      string         `json:"id"`
	Version int64          `json:"version"`
	Checks  []*ojson.Value `json:"landing_checks"`
}

func newChecksCmd(io *IO, g *globalOpts) *cobra.Command {
	var sets []string
	var actor string
	cmd := &cobra.Command{
		Use:   "checks ID [--set ID=passed|failed|skipped]...",
		Short: "Show or record a passport's landing checks",
		Long: `Show a passport's landing checks (TaskPack §4.4) with their status: pending,
passed, failed or skipped. --set c1=passed records what you attest about a
check (checked_by <actor>@<machine>, checked_at); --set c1=pending withdraws
it. The sender's "how" is shown as the sender's suggestion: headless (--plain,
--json, --set, no terminal) it is never run; on a terminal the checks screen
runs it in the passport's luggage folder only after you confirm the exact
command (D12).`,
		Example: `  tp checks TP-7W3R-S7E5
  tp checks TP-7W3R-S7E5 --set c1=passed --set c2=skipped`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openStore(io, g)
			if err != nil {
				return err
			}
			if checksScreen := io.screens().Checks; io.Interactive(g) && len(sets) == 0 && checksScreen != nil {
				if err := passportThere(s, args[0]); err != nil {
					return err
				}
				return checksScreen(io, g, s, args[0])
			}
			type set struct{ id, status string }
			var ss []set
			seen := map[string]bool{}
			for _, raw := range sets {
				id, status, err := parseAssignment("--set", raw)
				if err != nil {
					return err
				}
				if status, err = store.ParseCheckStatus(strings.TrimSpace(status)); err != nil {
					// A check that does not exist is the bigger mistake: say
					// it first, or a fixed status would only lead to it.
					if missing := noSuchCheck(s, args[0], id); missing != nil {
						return fmt.Errorf("--set %s: %w; and %w", display.Line(id), missing, err)
					}
					return fmt.Errorf("--set %s: %w", display.Line(id), err)
				}
				if seen[id] {
					return fmt.Errorf("check %s is set twice", display.Line(id))
				}
				seen[id] = true
				ss = append(ss, set{id, status})
			}
			req := landing.ChecksRequest{ID: args[0]}
			if len(ss) > 0 {
				req.By = actorAndMachine(io, actor)
			}
			for _, x := range ss {
				req.Edits = append(req.Edits, landing.CheckEdit{ID: x.id, Status: x.status})
			}
			rep, err := landing.EditChecks(cmd.Context(), s, req)
			if err != nil {
				return storeHint(err)
			}
			v, version := rep.Passport, rep.Version
			id := v.Get("id").Text()
			if g.json {
				out := checksJSON{ID: id, Version: version, Checks: v.Get("landing_checks").Items()}
				if out.Checks == nil {
					out.Checks = []*ojson.Value{}
				}
				return writeHomeJSON(io.Out, out)
			}
			for _, x := range ss {
				fmt.Fprintf(io.Out, "%s: %s\n", display.Line(x.id), x.status)
			}
			if len(ss) > 0 {
				fmt.Fprintf(io.Out, "saved %s version %d\n\n", display.Line(id), version)
			}
			renderChecks(io.Out, id, store.Checks(v), sender(v))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&sets, "set", nil, "record a check: ID=passed|failed|skipped|pending (repeatable)")
	f.StringVar(&actor, "actor", "", "who attests (default $TP_ACTOR, git user.name, $USER)")
	return cmd
}

// sender names who wrote the checks' "how", from landed_from.origin (D12).
func sender(v *ojson.Value) string {
	o := v.Get("landed_from").Get("origin")
	a, m := o.Get("actor").Text(), o.Get("machine").Text()
	if a == "" && m == "" {
		return "the sender"
	}
	return orDash(a) + "@" + orDash(m)
}

func renderChecks(w io.Writer, id string, checks []model.LandingCheck, from string) {
	pending, failed := 0, 0
	for _, c := range checks {
		switch store.CheckStatus(c) {
		case model.CheckPending:
			pending++
		case model.CheckFailed:
			failed++
		}
	}
	failedNote := ""
	if failed > 0 {
		failedNote = fmt.Sprintf(", %d failed", failed)
	}
	fmt.Fprintf(w, "%s · %s, %d pending%s\n", display.Line(id), plural.N(len(checks), "landing check"), pending, failedNote)
	for _, c := range checks {
		head := store.CheckStatus(c)
		if c.Required() {
			head += " · required"
		}
		if by := c.V.Get("checked_by").Text(); by != "" {
			head += " · by " + display.Line(by) + " at " + orDash(c.V.Get("checked_at").Text())
		}
		fmt.Fprintf(w, "\n%s  %s\n", display.Line(c.ID()), head)
		field(w, "check", c.Check())
		if c.How() != "" {
			field(w, "how", c.How()+"\n(suggested by "+from+"; run only on a terminal, after you confirm it)")
		}
		writeRun(w, c)
	}
}

// noSuchCheck is the error for a --set naming a check passport id does not
// have, nil when it has it or the passport cannot be read (the edit itself
// then reports that).
func noSuchCheck(s *store.Store, id, check string) error {
	st, err := s.Get(id)
	if err != nil {
		return nil
	}
	_, err = store.FindCheck(st.V, check)
	return err
}
