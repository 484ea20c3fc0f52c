package landing

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	c "github.com/tp-dev/tp/ui/components"
)

// asks is step 4: what / why / accept of each ask (§4.3); enter answers it
// now, o leaves it open for a receipt to answer later.
type asks struct {
	s     *Session
	w, h  int
	body  int
	list  c.AskList
	leave key.Binding
}

func newAsks(s *Session) *asks {
	return &asks{s: s, list: c.NewAskList(s.theme(), "answer now"), leave: c.KB([]string{"o"}, "o", "leave open")}
}

func (m *asks) listHeight() int { return max(min(len(m.list.Asks), (m.body-2)/3), 1) }

func (m *asks) SetSize(w, h, body int) {
	m.w, m.h, m.body = w, h, body
	m.list.Asks = m.s.Plan.Asks
	m.list.SetSize(w, h)
	m.list.Cursor.Fit(len(m.list.Asks), m.listHeight())
}
func (m *asks) Modal() bool     { return m.list.Typing() }
func (m *asks) Capturing() bool { return m.list.Typing() }
func (m *asks) Busy() bool      { return false }

func (m *asks) ShortHelp() []key.Binding {
	if m.list.Typing() {
		return m.list.EditorHelp()
	}
	return []key.Binding{m.list.Keys.Answer, m.leave}
}

func (m *asks) FullHelp() [][]key.Binding {
	k := m.list.Keys
	if m.list.Typing() {
		return [][]key.Binding{m.list.EditorHelp()}
	}
	return [][]key.Binding{{k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown}, {k.Answer, m.leave}}
}

// answer is the answer given now, else the one the ask arrived with.
func (m *asks) answer(a common.Ask) (string, bool) {
	if v, ok := m.s.Answers[a.ID]; ok {
		return v, true
	}
	return a.Answer, a.Answer != ""
}

func (m *asks) Update(msg tea.Msg) tea.Cmd {
	m.list.Asks = m.s.Plan.Asks
	if m.list.Typing() {
		t, cmd := m.list.UpdateTyping(msg)
		if t.Done && t.Kept {
			a, _ := m.list.Current()
			if t.Value != "" {
				m.s.Answers[a.ID] = t.Value
			} else {
				delete(m.s.Answers, a.ID)
			}
		}
		return cmd
	}
	k, ok := msg.(tea.KeyMsg)
	n := len(m.list.Asks)
	if !ok || n == 0 {
		return nil
	}
	if cur, ok := m.list.Keys.List.Move(k, m.list.Cursor.Cur, n, m.h-10); ok {
		m.list.Cursor.Set(cur, n, m.listHeight())
		return nil
	}
	a, _ := m.list.Current()
	switch {
	case key.Matches(k, m.list.Keys.Answer):
		old, _ := m.answer(a)
		return m.list.StartAnswer(old)
	case key.Matches(k, m.leave):
		delete(m.s.Answers, a.ID)
	}
	return nil
}

func (m *asks) View() string {
	th := m.s.theme()
	if len(m.s.Plan.Asks) == 0 {
		return c.Pad([]string{th.Muted.Render("The sender asks nothing of you.")}, m.w, m.body)
	}
	out := m.list.Rows(m.w, m.listHeight(), func(a common.Ask) string {
		if _, ok := m.s.Answers[a.ID]; ok || a.Status == "answered" {
			return th.Pass.Render("answered")
		}
		return th.Muted.Render("open    ")
	})
	out = append(out, m.list.Detail(m.w)...)
	a, _ := m.list.Current()
	switch ans, ok := m.answer(a); {
	case m.list.Typing():
		out = append(out, "")
		out = append(out, m.list.Editor()...)
	case ok:
		out = append(out, m.list.Field(m.w, "answer", ans)...)
	default:
		for _, ln := range c.Wrap("Left open. enter answers it now; a receipt can carry the answer home later.", m.w) {
			out = append(out, th.Muted.Render(ln))
		}
	}
	return c.Pad(out, m.w, m.body)
}
