package landing

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	c "github.com/tp-dev/tp/ui/components"
)

// FactsKeys are the facts step's keys.
type FactsKeys struct {
	List   c.ListKeys
	Trust  key.Binding
	Dialog c.DialogKeys
	Yes    key.Binding
}

// DefaultFactsKeys returns the facts step's keys.
func DefaultFactsKeys() FactsKeys {
	return FactsKeys{
		List:   c.DefaultListKeys(),
		Trust:  c.KB([]string{"t"}, "t", "restore ✓ on facts proven here…"),
		Dialog: c.DefaultDialogKeys(),
		Yes:    c.KB([]string{"y"}, "y", "restore ✓"),
	}
}

// facts is step 3: ✓ proven (with scope) and ⚠ sealed (with verified_on),
// and the §4.2 choice to restore a ✓ on facts proven on this very machine.
type facts struct {
	s        *Session
	keys     FactsKeys
	w, h     int
	body     int
	list     c.Cursor
	trusting bool // the §4.2 dialog is open
}

func newFacts(s *Session) *facts {
	k := DefaultFactsKeys()
	return &facts{s: s, keys: k, list: c.Cursor{Keys: k.List}}
}

func (m *facts) SetSize(w, h, body int) {
	m.w, m.h, m.body = w, h, body
	m.list.Fit(len(m.s.Plan.Facts), m.listHeight())
}
func (m *facts) Modal() bool     { return m.trusting }
func (m *facts) Capturing() bool { return false }
func (m *facts) Busy() bool      { return false }

func (m *facts) ShortHelp() []key.Binding {
	switch {
	case m.trusting:
		return []key.Binding{m.keys.Yes, m.keys.Dialog.No}
	case m.s.Restorable() > 0:
		return []key.Binding{m.keys.Trust}
	}
	return nil
}

func (m *facts) FullHelp() [][]key.Binding {
	if m.trusting {
		return [][]key.Binding{{m.keys.Yes, m.keys.Dialog.No}}
	}
	if m.s.Restorable() == 0 {
		return [][]key.Binding{{m.keys.List.Up, m.keys.List.Down, m.keys.List.PageUp, m.keys.List.PageDown}}
	}
	return [][]key.Binding{{m.keys.List.Up, m.keys.List.Down, m.keys.List.PageUp, m.keys.List.PageDown}, {m.keys.Trust}}
}

func (m *facts) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if m.trusting {
		switch {
		case key.Matches(k, m.keys.Dialog.Yes):
			m.s.Trust = true
			m.trusting = false
		case key.Matches(k, m.keys.Dialog.No):
			m.trusting = false
		}
		return nil
	}
	n := len(m.s.Plan.Facts)
	// The page is the old walkthrough's (its height less 8 rows), the
	// window the rows left under the legend.
	if cur, ok := m.keys.List.Move(k, m.list.Cur, n, m.h-8); ok {
		m.list.Set(cur, n, m.listHeight())
		return nil
	}
	if key.Matches(k, m.keys.Trust) && m.s.Restorable() > 0 {
		if m.s.Trust {
			m.s.Trust = false
			return nil
		}
		m.trusting = true
	}
	return nil
}

// head is the legend and the restore state, wrapped, never cut: at 80
// columns their ends (§4.2, "t to change") are what matter.
func (m *facts) head() []string {
	th, p := m.s.theme(), m.s.Plan
	var head []string
	for _, ln := range c.Wrap("✓ proven and kept across machines (universal, org) · ⚠ sealed: re-verify here (§4.2)", m.w) {
		head = append(head, th.Muted.Render(ln))
	}
	if n := m.s.Restorable(); n > 0 {
		state := "kept sealed"
		if m.s.Trust {
			state = "✓ will be restored (your choice)"
		}
		says := c.Count(n, "sealed fact says it was", "sealed facts say they were")
		for _, ln := range c.Wrap(fmt.Sprintf("%s proven on this machine (%s): %s · t to change", says, p.ThisMachine, state), m.w) {
			head = append(head, th.Warn.Render(ln))
		}
	}
	return head
}

func (m *facts) listHeight() int { return max(m.body-len(m.head())-4, 1) }

func (m *facts) View() string {
	th, p := m.s.theme(), m.s.Plan
	if m.trusting {
		return m.trustView()
	}
	if len(p.Facts) == 0 {
		return c.Pad([]string{th.Muted.Render("The passport carries no facts.")}, m.w, m.body)
	}
	out := append(m.head(), "")
	from, to := m.list.Range(len(p.Facts), m.listHeight())
	for i := from; i < to; i++ {
		row := m.row(p.Facts[i])
		if i == m.list.Cur {
			out = append(out, th.Cursor.Render("▸ ")+c.Fit(row, m.w-2))
		} else {
			out = append(out, "  "+c.Fit(row, m.w-2))
		}
	}
	f := p.Facts[m.list.Cur]
	out = append(out, "")
	for _, ln := range c.Wrap(f.Claim, m.w-2) {
		out = append(out, " "+th.Text.Render(ln))
	}
	// The row above may be cut at the width; the detail is not.
	for _, ln := range c.Wrap(m.detail(f), m.w-2) {
		out = append(out, " "+th.Muted.Render(ln))
	}
	return c.Pad(out, m.w, m.body)
}

func (m *facts) row(f common.Fact) string {
	th := m.s.theme()
	scope := f.Scope
	if scope == "" {
		scope = "no scope → machine"
	}
	switch {
	case f.Sealed && f.Restorable && m.s.Trust:
		return th.Pass.Render("✓ ") + c.Line(f.Claim) + th.Warn.Render(" · restored by you, verified_on "+c.Line(f.VerifiedOn))
	case f.Sealed:
		return th.Warn.Render("⚠ ") + c.Line(f.Claim) + th.Muted.Render(" · sealed, verified_on "+c.Line(f.Where()))
	case f.Verified:
		return th.Pass.Render("✓ ") + c.Line(f.Claim) + th.Muted.Render(" · "+c.Line(scope))
	}
	return th.Muted.Render("· ") + c.Line(f.Claim) + th.Muted.Render(" · unproven, "+c.Line(scope))
}

func (m *facts) detail(f common.Fact) string {
	var d string
	switch {
	case f.Sealed && f.Restorable && m.s.Trust:
		d = "restored by you · verified_on " + f.VerifiedOn
	case f.Sealed:
		d = "sealed: proven only on " + f.Where() + " · re-verify here before relying on it"
	case f.Verified:
		d = "proven · scope " + f.Scope
	default:
		d = "unproven"
	}
	if f.Scope == "" {
		d += " · no scope (counts as machine)"
	} else if !f.Verified || f.Sealed {
		d += " · scope " + f.Scope
	}
	return d + c.FactWords(f)
}

func (m *facts) trustView() string {
	th := m.s.theme()
	ls := []string{th.Warn.Render("Restore ✓ on facts proven on this machine?"), ""}
	for _, f := range m.s.Plan.Facts {
		if f.Restorable {
			ls = append(ls, " "+th.Warn.Render("⚠ ")+c.Line(f.Claim)+th.Muted.Render(" · verified_on "+c.Line(f.VerifiedOn)))
		}
	}
	ls = append(ls, "")
	ls = append(ls, c.Wrap("§4.2: verified_on is written by whoever wrote the pack, like every other byte of it. A pack made by hand can name your machine. Matching it proves the pack says the fact was proven here, not that it was: restoring trusts the pack's whole journey, and belongs to packs you made yourself.", m.w-6)...)
	ls = append(ls, "", th.Key.Render("y")+" restore ✓ on these facts   "+th.Key.Render("n/esc")+" keep them sealed")
	return c.Pad(strings.Split(th.Dialog.Width(max(m.w-2, 10)).Render(strings.Join(ls, "\n")), "\n"), m.w, m.body)
}
