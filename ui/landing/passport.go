package landing

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	c "github.com/tp-dev/tp/ui/components"
)

// passport is step 5: goal, current state, decisions and next steps
// rendered as Markdown (sanitised before and after rendering, D11).
type passport struct {
	s     *Session
	w     int
	body  int
	vp    viewport.Model
	width int  // width the Markdown was rendered at
	shown bool // rendered once the step was first shown
}

func newPassport(s *Session) *passport { return &passport{s: s, vp: viewport.New(80, 10)} }

func (m *passport) SetSize(w, h, body int) {
	m.w, m.body = w, body
	m.vp.Width = w
	m.vp.Height = max(h-2, 1)
	if m.shown && m.width != w {
		m.render()
	}
}

// enter renders the passport the first time the step is shown, and again
// when the width changed since.
func (m *passport) enter() {
	m.shown = true
	if m.width != m.w {
		m.render()
	}
}

func (m *passport) render() {
	m.width = m.w
	if m.s.Plan == nil {
		return
	}
	md := c.PassportMarkdown(m.s.Plan.Passport)
	m.vp.SetContent(c.RenderMarkdown(m.s.theme(), md, m.w-2))
}

func (m *passport) Modal() bool     { return false }
func (m *passport) Capturing() bool { return false }
func (m *passport) Busy() bool      { return false }
func (m *passport) ShortHelp() []key.Binding {
	if m.vp.TotalLineCount() > m.vp.Height {
		// Taller than the screen: say it scrolls.
		return []key.Binding{c.KB([]string{"down", "j"}, "↓/j", "scroll")}
	}
	return nil
}
func (m *passport) FullHelp() [][]key.Binding {
	k := m.vp.KeyMap
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}}
}

func (m *passport) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.KeyMsg); !ok {
		return nil
	}
	var cmd tea.Cmd
	m.vp, cmd = m.vp.Update(msg)
	return cmd
}

func (m *passport) View() string { return c.Pad(strings.Split(m.vp.View(), "\n"), m.w, m.body) }
