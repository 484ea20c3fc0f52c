package landing

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	c "github.com/tp-dev/tp/ui/components"
)

// summary is step 1: who sent the pack, when, its lineage, integrity,
// C0–C10 at a glance and the warnings, quoted as data (§4.5).
type summary struct {
	s       *Session
	w, body int
	pager   c.Pager
}

func newSummary(s *Session) *summary {
	return &summary{s: s, pager: c.Pager{Keys: c.DefaultListKeys()}}
}

func (m *summary) SetSize(w, h, body int) { m.w, m.body = w, body }
func (m *summary) Modal() bool            { return false }
func (m *summary) Capturing() bool        { return false }
func (m *summary) Busy() bool             { return false }
func (m *summary) ShortHelp() []key.Binding {
	return nil
}
func (m *summary) FullHelp() [][]key.Binding { return [][]key.Binding{m.pager.Keys.Bindings()} }

func (m *summary) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok {
		m.pager.Update(k, len(m.lines()), m.body)
	}
	return nil
}

func (m *summary) View() string {
	vis, _ := m.pager.View(m.lines(), m.body)
	return c.Pad(vis, m.w, m.body)
}

func (m *summary) lines() []string {
	th, p := m.s.theme(), m.s.Plan
	o := p.Origin
	from := th.Sender.Render(c.Line(o.By()))
	if o.Harness != "" {
		from += th.Muted.Render(" · harness ") + th.Sender.Render(c.Line(o.Harness))
	}
	// A labelled row hangs its value under itself when it does not fit:
	// the ends of these rows (the note, the manifests) are not to be cut.
	// Values are sanitised already; ansi.Wrap only keeps tp's own styles.
	var out []string
	row := func(name, v string) { out = append(out, c.LabelRows(th.Muted, name, v, m.w)...) }
	// Who signed it comes first (D22): the rest is the sender's word only
	// if the signature says so.
	if p.Signer != "" {
		st := th.Warn
		if p.SignerState == "known" || p.SignerState == "trusted_now" {
			st = th.Pass
		}
		row("Signed", st.Render(c.Line(p.Signer)))
	}
	// What the work is comes next: a person decides whether to run
	// anything only after reading it.
	if t := p.Passport.Title; t != "" {
		row("Title", th.Title.Render(c.Line(t)))
	}
	if g := p.Passport.Goal; g != "" {
		row("Goal", th.Data.Render(c.Line(g)))
	}
	row("From", from)
	row("Packed", c.Line(p.PackedAt)+th.Muted.Render(" · ")+c.Line(p.Kind))
	if p.Note != "" {
		row("Note", th.Data.Render("“"+c.Line(p.Note)+"”"))
	}
	row("Lineage", m.hops())
	row("Integrity", m.integrity())
	row("Conformance", m.conformanceGlance())
	for _, cf := range p.Conformance {
		if !cf.Pass {
			row("", th.Fail.Render("✗ "+c.Line(cf.ID))+" "+c.Line(cf.Reason))
		}
	}
	sealed := 0
	for _, f := range p.Facts {
		if f.Sealed {
			sealed++
		}
	}
	req := 0
	for _, ch := range p.Checks {
		if ch.Required {
			req++
		}
	}
	open := 0
	for _, a := range p.Asks {
		if a.Status == "" || a.Status == "open" {
			open++
		}
	}
	row("Contents", fmt.Sprintf("%d/%d checks required · %d/%d facts sealed · %d/%d asks open",
		req, len(p.Checks), sealed, len(p.Facts), open, len(p.Asks)))
	if p.AlreadyLanded != "" {
		out = append(out, "")
		out = append(out, c.WrapStyled(th.Warn.Render("⚠ this exact file was already landed as "+c.Line(p.AlreadyLanded)), m.w)...)
	}
	// What the pack says (quoted: data, §4.5) and what tp says about the
	// pack (its own sentences, which may name the pack's parts) under
	// separate headings: a label must say whose words follow.
	var quoted, notes []common.Warning
	for _, w := range p.Warnings {
		if w.Kind == "note" {
			notes = append(notes, w)
		} else {
			quoted = append(quoted, w)
		}
	}
	if len(quoted) > 0 {
		out = append(out, "")
		out = append(out, c.WrapStyled(th.Warn.Render("⚠ "+c.Count(len(quoted), "warning", "warnings"))+th.Muted.Render(" — quoted from the pack; data, not instructions (§4.5)"), m.w)...)
		for _, w := range quoted {
			out = append(out, "  "+th.Warn.Render("⚠ "+warningKind(w.Kind))+th.Muted.Render(" · "+c.Line(w.Where)))
			if w.Text != "" {
				for _, ln := range c.Wrap(w.Text, m.w-6) {
					out = append(out, "    "+th.Data.Render("│ "+ln))
				}
			}
		}
	}
	if len(notes) > 0 {
		out = append(out, "")
		out = append(out, c.WrapStyled(th.Warn.Render("⚠ "+c.Count(len(notes), "note", "notes")+" from tp")+th.Muted.Render(" — about this pack, before you land it"), m.w)...)
		for _, w := range notes {
			for i, ln := range c.Wrap(w.Text, m.w-4) {
				lead := "  • "
				if i > 0 {
					lead = "    "
				}
				out = append(out, lead+ln)
			}
		}
	}
	out = append(out, "")
	out = append(out, c.WrapStyled(th.Muted.Render("Next: the required landing checks, before anything else (§4.4)."), m.w)...)
	return out
}

func warningKind(k string) string {
	switch k {
	case "instruction":
		return "reads like an instruction"
	case "instruction-field":
		return "instruction field"
	case "repair":
		return "repaired on reading"
	case "credential":
		return "looks like a credential"
	case "transcript":
		return "looks like a chat transcript"
	}
	return c.Line(k)
}

func (m *summary) hops() string {
	th, p := m.s.theme(), m.s.Plan
	var parts []string
	for _, e := range p.Lineage.Chain {
		parts = append(parts, th.Sender.Render(c.Line(e)))
	}
	if p.Kind != "receipt" {
		parts = append(parts, th.Key.Render("(here: a new id)"))
	}
	if len(p.Lineage.Chain) == 0 {
		return th.Warn.Render("no chain") + th.Muted.Render(" · root "+c.Line(p.Lineage.RootID))
	}
	return strings.Join(parts, th.Muted.Render(" → "))
}

func (m *summary) integrity() string {
	th, in := m.s.theme(), m.s.Plan.Integrity
	s := th.Fail.Render("✗ not verified")
	if in.Verified {
		s = th.Pass.Render("✓ verified")
	}
	s += th.Muted.Render(" · " + c.Count(in.Files, "file", "files") + " · " + c.HumanBytes(in.Bytes))
	if in.Encoding != "" {
		s += th.Muted.Render(" · ." + c.Line(in.Encoding))
	}
	if d := in.Detail; d != "" {
		if in.Verified {
			// "✓ verified" leads the row: the core's "… verified" is not
			// said twice.
			d = strings.TrimSuffix(d, " verified")
		}
		s += th.Muted.Render(" · " + c.Line(d))
	}
	return s
}

func (m *summary) conformanceGlance() string {
	th, p := m.s.theme(), m.s.Plan
	if len(p.Conformance) == 0 {
		switch {
		case m.s.Judging:
			return th.Muted.Render("judging…")
		case m.s.JudgeErr != nil:
			return th.Fail.Render("✗ ") + c.Line(m.s.JudgeErr.Error())
		}
		return th.Muted.Render("not judged")
	}
	var parts []string
	for _, cf := range p.Conformance {
		if cf.Pass {
			parts = append(parts, th.Pass.Render(c.Line(cf.ID)+"✓"))
		} else {
			parts = append(parts, th.Fail.Render(c.Line(cf.ID)+"✗"))
		}
	}
	return strings.Join(parts, " ")
}
