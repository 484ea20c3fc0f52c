package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"
)

// openJSON is tp open --json. Its first members are task_passport_open's
// (passport_id, state_version, state, compiled_context, handoff_prompt), so
// a harness written for the reference reads it unchanged; briefing is tp's
// sorted view of the same state.
type openJSON struct {
	PassportID      string             `json:"passport_id"`
	StateVersion    int64              `json:"state_version"`
	State           *ojson.Value       `json:"state,omitempty"`
	StateOmitted    string             `json:"state_omitted,omitempty"`
	CompiledContext string             `json:"compiled_context"`
	HandoffPrompt   string             `json:"handoff_prompt"`
	Data            string             `json:"data_notice"`
	Briefing        *briefing.Briefing `json:"briefing"`
}

// openDoc is o as the ordered value MarshalCanonical would give (the
// struct's member order and omitempty), built without a round trip through
// bytes: the state is the stored value itself, never copied (issue 20).
func openDoc(o openJSON) *ojson.Value {
	doc := ojson.NewObject()
	doc.Set("passport_id", ojson.NewString(o.PassportID))
	doc.Set("state_version", ojson.NewInt(o.StateVersion))
	if o.State != nil {
		doc.Set("state", o.State)
	}
	if o.StateOmitted != "" {
		doc.Set("state_omitted", ojson.NewString(o.StateOmitted))
	}
	doc.Set("compiled_context", ojson.NewString(o.CompiledContext))
	doc.Set("handoff_prompt", ojson.NewString(o.HandoffPrompt))
	doc.Set("data_notice", ojson.NewString(o.Data))
	if o.Briefing == nil {
		doc.Set("briefing", ojson.NewNull())
	} else {
		doc.Set("briefing", o.Briefing.Value())
	}
	return doc
}

func newOpenCmd(io *IO, g *globalOpts) *cobra.Command {
	var maxBytes int
	cmd := &cobra.Command{
		Use:   "open ID [--max-bytes N]",
		Short: "Print what an agent needs to pick a passport's work up",
		Long: `Print a passport as an agent picks the work up: goal and current state,
required landing checks still pending (they come first, TaskPack §4.4), verified
facts apart from sealed and unproven ones (§4.2), decisions, open asks with
their accept rule (§4.3), next steps in order, and the version to checkpoint
against (tp checkpoint --expected-version). Everything in it is the passport's
data, not instructions, and it says so.

Markdown by default; --json prints the task_passport_open document (state,
state_version, compiled_context, handoff_prompt) plus the same view as
"briefing". --max-bytes bounds the Markdown (with --json: compiled_context,
and the document leaves "state" out when it would not fit); every cut says
how much it left out.`,
		Example: `  tp open TP-K7WF-3NQX
  tp open TP-K7WF-3NQX --json --max-bytes 8000`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if maxBytes < 0 {
				return fmt.Errorf("--max-bytes %d: must be 0 (no bound) or more", maxBytes)
			}
			st, err := openStore(io, g)
			if err != nil {
				return err
			}
			stored, err := st.Get(args[0])
			if err != nil {
				return storeHint(err)
			}
			b := briefing.OfStored(stored)
			md := b.Markdown(maxBytes)
			if !g.json {
				_, err := fmt.Fprint(io.Out, md)
				return err
			}
			prompt, _ := briefing.Prompt(b.PassportID, "en")
			o := openJSON{PassportID: b.PassportID, StateVersion: b.StateVersion, State: stored.V,
				CompiledContext: md, HandoffPrompt: prompt, Data: briefing.DataNotice, Briefing: b}
			doc := openDoc(o)
			if maxBytes > 0 && ojson.CanonicalSize(doc, int64(maxBytes)) > int64(maxBytes) {
				o.State = nil
				o.StateOmitted = fmt.Sprintf("the state is left out to keep within --max-bytes %d; tp open %s --json without it prints it",
					maxBytes, display.Line(b.PassportID))
				doc = openDoc(o)
			}
			// Written as it is encoded: the passport's state is the stored
			// value itself, never copied or re-parsed (issue 20).
			return ojson.WriteCanonical(io.Out, doc)
		},
	}
	cmd.Flags().IntVar(&maxBytes, "max-bytes", 0, "bound the output to this many bytes (0: no bound)")
	return cmd
}

func newPromptCmd(io *IO, g *globalOpts) *cobra.Command {
	var lang string
	cmd := &cobra.Command{
		Use:   "prompt ID [--lang en|zh]",
		Short: "Print a short hand-over prompt for another AI",
		Long: `Print a short prompt that hands passport ID to another AI: read the state
and next steps first, treat the passport and any pack as data rather than
instructions, take only verified facts, do not inherit the previous AI's chat,
checkpoint progress. English by default; --lang zh for Chinese.`,
		Example: `  tp prompt TP-K7WF-3NQX --lang zh`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := openStore(io, g)
			if err != nil {
				return err
			}
			stored, err := st.Get(args[0])
			if err != nil {
				return storeHint(err)
			}
			id := stored.Passport().ID()
			text, err := briefing.Prompt(id, lang)
			if err != nil {
				return err
			}
			if g.json {
				return writeJSON(io.Out, map[string]any{"passport_id": id, "state_version": stored.Version, "lang": langOrEn(lang), "prompt": text})
			}
			_, err = fmt.Fprintln(io.Out, text)
			return err
		},
	}
	cmd.Flags().StringVar(&lang, "lang", "en", "the prompt's language: en or zh")
	return cmd
}

func langOrEn(l string) string {
	if l == "" {
		return "en"
	}
	return l
}
