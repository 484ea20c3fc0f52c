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

// asksJSON is `tp asks --json`: the stored asks, exactly.
type asksJSON struct {
	ID      string         `json:"id"`
	Version int64          `json:"version"`
	Asks    []*ojson.Value `json:"asks"`
}

func newAsksCmd(io *IO, g *globalOpts) *cobra.Command {
	var answers, drops []string
	var actor string
	cmd := &cobra.Command{
		Use:   "asks ID [--answer ID=TEXT]... [--drop ID]...",
		Short: "List, answer or drop a passport's asks",
		Long: `List a passport's asks (TaskPack §4.3): what is asked, why, what would count
as answered (accept), status and answer. --answer a1=TEXT records an answer
(status answered, answered_by <actor>@<machine>, answered_at); --drop a2 marks
an ask no longer needed. All changes are saved together, or none is.`,
		Example: `  tp asks TP-7W3R-S7E5
  tp asks TP-7W3R-S7E5 --answer a1="use the staging key" --drop a2`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openStore(io, g)
			if err != nil {
				return err
			}
			if asksScreen := io.screens().Asks; io.Interactive(g) && len(answers)+len(drops) == 0 && asksScreen != nil {
				if err := passportThere(s, args[0]); err != nil {
					return err
				}
				return asksScreen(io, g, s, args[0])
			}
			type answer struct{ id, text string }
			var as []answer
			seen := map[string]string{}
			for _, raw := range answers {
				id, text, err := parseAssignment("--answer", raw)
				if err != nil {
					return err
				}
				if prev, ok := seen[id]; ok {
					return fmt.Errorf("ask %s is given twice (%s and --answer)", display.Line(id), prev)
				}
				seen[id] = "--answer"
				as = append(as, answer{id, text})
			}
			for _, id := range drops {
				if prev, ok := seen[id]; ok {
					return fmt.Errorf("ask %s is given twice (%s and --drop)", display.Line(id), prev)
				}
				seen[id] = "--drop"
			}
			req := landing.AsksRequest{ID: args[0]}
			if len(as)+len(drops) > 0 {
				req.By = actorAndMachine(io, actor)
			}
			for _, a := range as {
				req.Edits = append(req.Edits, landing.AskEdit{ID: a.id, Answer: a.text})
			}
			for _, id := range drops {
				req.Edits = append(req.Edits, landing.AskEdit{ID: id, Drop: true})
			}
			rep, err := landing.EditAsks(cmd.Context(), s, req)
			if err != nil {
				return storeHint(err)
			}
			v, version := rep.Passport, rep.Version
			id := v.Get("id").Text()
			if g.json {
				out := asksJSON{ID: id, Version: version, Asks: v.Get("asks").Items()}
				if out.Asks == nil {
					out.Asks = []*ojson.Value{}
				}
				return writeHomeJSON(io.Out, out)
			}
			for _, a := range as {
				fmt.Fprintf(io.Out, "answered %s\n", display.Line(a.id))
			}
			for _, d := range drops {
				fmt.Fprintf(io.Out, "dropped %s\n", display.Line(d))
			}
			if len(as)+len(drops) > 0 {
				fmt.Fprintf(io.Out, "saved %s version %d\n\n", display.Line(id), version)
			}
			renderAsks(io.Out, id, store.Asks(v))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&answers, "answer", nil, "answer an ask: ID=TEXT (repeatable)")
	f.StringArrayVar(&drops, "drop", nil, "drop an ask no longer needed: ID (repeatable)")
	f.StringVar(&actor, "actor", "", "who answers (default $TP_ACTOR, git user.name, $USER)")
	return cmd
}

func renderAsks(w io.Writer, id string, asks []model.Ask) {
	open := 0
	for _, a := range asks {
		if store.AskStatus(a) == model.AskOpen {
			open++
		}
	}
	fmt.Fprintf(w, "%s · %s, %d open\n", display.Line(id), plural.N(len(asks), "ask"), open)
	for _, a := range asks {
		status := store.AskStatus(a)
		head := status
		if status == model.AskAnswered && (a.AnsweredBy() != "" || a.AnsweredAt() != "") {
			head += " by " + orDash(a.AnsweredBy()) + " at " + orDash(a.AnsweredAt())
		}
		fmt.Fprintf(w, "\n%s  %s\n", display.Line(a.ID()), head)
		field(w, "to", a.To())
		field(w, "what", a.What())
		field(w, "why", a.Why())
		field(w, "accept", a.Accept())
		if ans := a.V.Get("answer"); !ans.IsNull() {
			field(w, "answer", jsonText(ans))
		}
	}
}

// field prints "  name: text", continuation lines indented under the text.
func field(w io.Writer, name, text string) {
	if text == "" {
		return
	}
	lines := strings.Split(strings.TrimRight(display.Text(text), "\n"), "\n")
	pad := strings.Repeat(" ", len(name)+4)
	fmt.Fprintf(w, "  %s: %s\n", name, lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "%s%s\n", pad, l)
	}
}

// parseAssignment splits "ID=VALUE" as --answer and --set take it.
func parseAssignment(flag, s string) (id, value string, err error) {
	id, value, ok := strings.Cut(s, "=")
	id = strings.TrimSpace(id)
	if !ok || id == "" {
		return "", "", fmt.Errorf("%s wants ID=VALUE, got %q", flag, display.Line(s))
	}
	return id, value, nil
}

func writeHomeJSON(w io.Writer, x any) error {
	b, err := ojson.MarshalCanonical(x)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
