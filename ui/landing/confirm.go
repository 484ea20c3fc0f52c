package landing

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	c "github.com/tp-dev/tp/ui/components"
)

// landMsg asks the walkthrough to land the pack.
type landMsg struct{}

// ConfirmKeys are the confirm step's keys.
type ConfirmKeys struct {
	Land, LandAgain key.Binding
}

// DefaultConfirmKeys returns the confirm step's keys.
func DefaultConfirmKeys() ConfirmKeys {
	return ConfirmKeys{
		Land:      c.KB([]string{"enter"}, "enter", "land it"),
		LandAgain: c.KB([]string{"A"}, "A", "land it again"),
	}
}

// confirm is step 7: a recap of what the person decided, including each
// command they ran, and the key that lands it.
type confirm struct {
	s       *Session
	keys    ConfirmKeys
	w, body int
	err     error // why the last landing failed
}

func newConfirm(s *Session) *confirm { return &confirm{s: s, keys: DefaultConfirmKeys()} }

func (m *confirm) SetSize(w, h, body int) { m.w, m.body = w, body }
func (m *confirm) Modal() bool            { return false }
func (m *confirm) Capturing() bool        { return false }
func (m *confirm) Busy() bool             { return false }

func (m *confirm) ShortHelp() []key.Binding {
	if m.s.Plan.AlreadyLanded != "" {
		return []key.Binding{m.keys.LandAgain}
	}
	return []key.Binding{m.keys.Land}
}

func (m *confirm) FullHelp() [][]key.Binding {
	if m.s.Plan.AlreadyLanded != "" {
		return [][]key.Binding{{m.keys.LandAgain}}
	}
	return [][]key.Binding{{m.keys.Land}}
}

func (m *confirm) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	land := func() tea.Msg { return landMsg{} }
	switch {
	case key.Matches(k, m.keys.Land) && (m.s.Plan.AlreadyLanded == "" || m.s.Again):
		m.err = nil
		return land
	case key.Matches(k, m.keys.LandAgain) && m.s.Plan.AlreadyLanded != "":
		m.s.Again = true
		m.err = nil
		return land
	}
	return nil
}

func (m *confirm) View() string {
	ls := m.lines(true)
	if m.err != nil {
		ls = append(ls, "", m.s.theme().Error.Render("✗ ")+c.Line(m.err.Error()))
	}
	return c.Pad(ls, m.w, m.body)
}

// lines is the recap; withKeys adds how to land it.
func (m *confirm) lines(withKeys bool) []string {
	th, p := m.s.theme(), m.s.Plan
	var passed, failed, skipped, pending int
	for _, ch := range p.Checks {
		if !ch.Required {
			continue
		}
		switch m.s.Status(ch) {
		case "passed":
			passed++
		case "failed":
			failed++
		case "skipped":
			skipped++
		default:
			pending++
		}
	}
	sealed := 0
	for _, f := range p.Facts {
		if f.Sealed {
			sealed++
		}
	}
	var total int64
	for _, f := range p.Luggage {
		total += f.Size
	}
	trust := ""
	if m.s.Trust {
		trust = th.Warn.Render(" · ✓ restored on facts proven here (your choice)")
	}
	var out []string
	row := func(name, v string) { out = append(out, c.LabelRows(th.Muted, name, v, m.w)...) }
	para := func(v string) { out = append(out, c.WrapStyled(v, m.w)...) }
	para(th.Subtitle.Render("Land this pack as a new passport"))
	para(th.Muted.Render("You get a new local id; the sender's chain is kept (§3.1)."))
	out = append(out, "")
	row("Checks", fmt.Sprintf("%d required: %d passed, %d failed, %d skipped, %d pending", passed+failed+skipped+pending, passed, failed, skipped, pending))
	row("", th.Muted.Render("required checks go first in the next steps"))
	out = append(out, m.runLines()...)
	row("Asks", fmt.Sprintf("%d answered now, %d left open", len(m.s.Answers), len(p.Asks)-len(m.s.Answers)))
	row("Facts", fmt.Sprintf("%d sealed", sealed)+trust)
	row("Luggage", c.Count(len(p.Luggage), "file", "files")+", "+c.HumanBytes(total))
	if pending > 0 {
		out = append(out, "")
		para(th.Warn.Render("⚠ " + c.Count(pending, "required check is", "required checks are") + " still pending: they land as pending, first in line."))
	}
	if p.AlreadyLanded != "" && !m.s.Again {
		out = append(out, "")
		para(th.Warn.Render("⚠ already landed as " + c.Line(p.AlreadyLanded) + ". Press A to land it again as another passport."))
	} else if withKeys {
		out = append(out, "")
		para(th.Key.Render("enter") + " land it · " + th.Key.Render("esc") + " back · " + th.Key.Render("q") + " quit without landing")
	}
	return out
}

// maxRunLines bounds the recap's list of commands run, so the confirm step
// still fits a small terminal when many checks were run.
const maxRunLines = 5

// runLines recaps the commands the person confirmed and ran: each is recorded
// on its check beside the status they attest (D12), so they see it before
// landing.
func (m *confirm) runLines() []string {
	th := m.s.theme()
	var out []string
	n := 0
	for _, ch := range m.s.Plan.Checks {
		d := m.s.Checks[ch.ID]
		if !d.Ran {
			continue
		}
		n++
		if n > maxRunLines {
			continue
		}
		who := "the sender's command"
		if d.Command != ch.How {
			who = "your command"
		}
		st := d.Status
		if st == "" {
			st = "pending"
		}
		label := ""
		if n == 1 {
			label = "Ran"
		}
		row := fmt.Sprintf("%s %s · %s, exit %d", c.Line(ch.ID), st, who, d.Exit)
		out = append(out, c.LabelRows(th.Muted, label, row, m.w)...)
	}
	if n > maxRunLines {
		out = append(out, c.Label(th.Muted, "")+th.Muted.Render(fmt.Sprintf("… and %d more", n-maxRunLines)))
	}
	if n > 0 {
		out = append(out, c.LabelRows(th.Muted, "", th.Muted.Render("each run is recorded with its check (command, exit, when)"), m.w)...)
	}
	return out
}
