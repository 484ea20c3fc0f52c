package landing

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	c "github.com/tp-dev/tp/ui/components"
)

// luggage is step 6: the files the pack carries, their sizes and the
// folder they will go to.
type luggage struct {
	s       *Session
	w, body int
	pager   c.Pager
}

func newLuggage(s *Session) *luggage {
	return &luggage{s: s, pager: c.Pager{Keys: c.DefaultListKeys()}}
}

func (m *luggage) SetSize(w, h, body int) { m.w, m.body = w, body }
func (m *luggage) Modal() bool            { return false }
func (m *luggage) Capturing() bool        { return false }
func (m *luggage) Busy() bool             { return false }
func (m *luggage) ShortHelp() []key.Binding {
	return nil
}
func (m *luggage) FullHelp() [][]key.Binding { return [][]key.Binding{m.pager.Keys.Bindings()} }

func (m *luggage) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok {
		m.pager.Update(k, len(m.lines()), m.body)
	}
	return nil
}

func (m *luggage) View() string {
	vis, _ := m.pager.View(m.lines(), m.body)
	return c.Pad(vis, m.w, m.body)
}

func (m *luggage) lines() []string {
	th, p := m.s.theme(), m.s.Plan
	if len(p.Luggage) == 0 {
		return []string{th.Muted.Render("No luggage: the pack carries no files.")}
	}
	var total int64
	for _, f := range p.Luggage {
		total += f.Size
	}
	dest := p.FilesDir
	if dest == "" {
		dest = "<store>/<new id>.files/"
	}
	out := c.WrapStyled(th.Subtitle.Render(c.Count(len(p.Luggage), "file", "files")+", "+c.HumanBytes(total))+th.Muted.Render(" → ")+c.Line(dest), m.w)
	how := "extracted only inside that new folder, without execute bits, after you confirm"
	if m.s.Staged {
		how = "unpacked for the checks in " + m.s.Dir + " (no execute bits); moved into that folder when you land, removed if you leave"
	}
	for _, ln := range c.Wrap(how, m.w) {
		out = append(out, th.Muted.Render(ln))
	}
	out = append(out, "")
	for _, f := range p.Luggage {
		out = append(out, c.PathRows(fmt.Sprintf("%10s  ", c.HumanBytes(f.Size)), f.Name, m.w)...)
		if f.LandsAs != "" {
			// A repository's metadata, disarmed (D10-git).
			out = append(out, c.PathRows(th.Warn.Render(fmt.Sprintf("%10s  ", "lands as")), f.LandsAs, m.w)...)
		}
	}
	return out
}
