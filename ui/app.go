package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
)

// App is the root model: a stack of screens. It routes resizes to every
// screen and keys to the top one, draws the header and the help line, and
// owns the global keys (q, ?, esc, ctrl+c).
type App struct {
	c        *common.Common
	stack    []common.Component
	help     help.Model
	fullHelp bool
	helpOff  int // scroll offset of a help taller than the window
	helpKeys ListKeys
	// Quitting is set when the program is ending.
	Quitting bool
}

// New returns the root model showing first.
func New(c *common.Common, first common.Component) *App {
	h := help.New()
	h.Styles = help.Styles{
		ShortKey: c.Theme.Help.ShortKey, ShortDesc: c.Theme.Help.ShortDesc,
		ShortSeparator: c.Theme.Help.ShortSeparator, Ellipsis: c.Theme.Help.Ellipsis,
		FullKey: c.Theme.Help.FullKey, FullDesc: c.Theme.Help.FullDesc,
		FullSeparator: c.Theme.Help.FullSeparator,
	}
	a := &App{c: c, stack: []common.Component{first}, help: h, helpKeys: DefaultListKeys()}
	a.resize()
	return a
}

// Top returns the active screen.
func (a *App) Top() common.Component { return a.stack[len(a.stack)-1] }

// Init starts the first screen.
func (a *App) Init() tea.Cmd { return a.Top().Init() }

func (a *App) bodyHeight() int {
	h := a.c.Height - common.Chrome
	if a.fullHelp && !a.helpPage() {
		h -= a.fullHelpHeight() - 1
	}
	if h < 1 {
		h = 1
	}
	return h
}

func (a *App) fullHelpHeight() int { return len(a.fullHelpLines()) }

// helpPage reports whether the full help is too tall to sit under the
// screen: it then takes the whole body and scrolls.
func (a *App) helpPage() bool { return a.fullHelpHeight() > a.c.Height-common.Chrome }

// helpRoom is the rows a help page scrolls in: the body less its last line,
// which says how to scroll and close it.
func (a *App) helpRoom() int { return max(a.c.Height-common.Chrome, 1) }

// fullHelpLines lays the full help out in rows of columns that fit the
// width: on a narrow terminal the columns that do not fit go to a row
// below instead of being cut off (the global keys come last and would be
// the first to go).
func (a *App) fullHelpLines() []string {
	h := a.help
	h.Width = 0 // measure unbounded; fit() cuts only what cannot wrap
	var lines []string
	var row [][]key.Binding
	flush := func() {
		if len(row) > 0 {
			if v := h.FullHelpView(row); v != "" {
				lines = append(lines, strings.Split(v, "\n")...)
			}
			row = nil
		}
	}
	for _, g := range a.fullHelpKeys() {
		try := append(append([][]key.Binding{}, row...), g)
		if len(row) > 0 && lipgloss.Width(h.FullHelpView(try)) > a.c.Width {
			flush()
			try = [][]key.Binding{g}
		}
		row = try
	}
	flush()
	return lines
}

func (a *App) resize() {
	a.help.Width = a.c.Width
	h := a.bodyHeight()
	for _, s := range a.stack {
		s.SetSize(a.c.Width, h)
	}
}

// Update routes messages.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.c.Width, a.c.Height = msg.Width, msg.Height
		a.resize()
		return a, nil
	case common.PushMsg:
		a.stack = append(a.stack, msg.Screen)
		a.resize()
		return a, msg.Screen.Init()
	case common.ReplaceMsg:
		a.stack[len(a.stack)-1] = msg.Screen
		a.resize()
		return a, msg.Screen.Init()
	case common.BackMsg:
		if len(a.stack) == 1 {
			return a, nil
		}
		return a.Update(common.PopMsg{})
	case common.PopMsg:
		if len(a.stack) == 1 {
			a.Quitting = true
			return a, tea.Quit
		}
		a.stack = a.stack[:len(a.stack)-1]
		a.resize()
		return a.route(common.ResumedMsg{})
	case tea.KeyMsg:
		top := a.Top()
		switch {
		case key.Matches(msg, a.c.Keys.Interrupt):
			if top.Busy() {
				return a.route(common.CancelMsg{})
			}
			a.Quitting = true
			return a, tea.Quit
		case top.Capturing():
			// typing: every other key goes to the screen
		case key.Matches(msg, a.c.Keys.Quit):
			if top.Busy() {
				// Nothing may be left half-done: the person cancels first.
				return a.route(common.CancelMsg{})
			}
			a.Quitting = true
			return a, tea.Quit
		case key.Matches(msg, a.c.Keys.Help):
			a.fullHelp, a.helpOff = !a.fullHelp, 0
			a.resize()
			return a, nil
		case a.fullHelp && a.helpPage():
			// The help page has the screen: it scrolls, esc closes it.
			if off, ok := a.helpKeys.move(msg, a.helpOff, 1<<30, a.helpRoom()); ok {
				a.helpOff = components.Clamp(off, a.fullHelpHeight(), a.helpRoom())
			} else if key.Matches(msg, a.c.Keys.Back) {
				a.fullHelp = false
				a.resize()
			}
			return a, nil
		}
	}
	return a.route(msg)
}

func (a *App) route(msg tea.Msg) (tea.Model, tea.Cmd) {
	i := len(a.stack) - 1
	s, cmd := a.stack[i].Update(msg)
	a.stack[i] = s
	return a, cmd
}

// View draws header, the screen and help.
func (a *App) View() string {
	if a.Quitting {
		return ""
	}
	th := a.c.Theme
	top := a.Top()
	var crumbs []string
	for _, s := range a.stack {
		crumbs = append(crumbs, s.Title())
	}
	header := components.Fit(th.Title.Render("tp")+th.Muted.Render(" · ")+th.Subtitle.Render(strings.Join(crumbs, " › ")), a.c.Width)
	body := top.View()
	var helpView string
	if a.fullHelp && a.helpPage() {
		ls := a.fullHelpLines()
		vis, off := components.Window(ls, a.helpOff, a.helpRoom())
		body = strings.Join(vis, "\n")
		helpView = a.c.Theme.Muted.Render(fmt.Sprintf("keys %d–%d of %d · ↑/↓ scroll · ? or esc closes", off+1, off+len(vis), len(ls)))
	} else if a.fullHelp {
		helpView = strings.Join(a.fullHelpLines(), "\n")
	} else {
		helpView = a.shortHelp(top.ShortHelp())
	}
	hl := strings.Split(helpView, "\n")
	for i := range hl {
		hl[i] = components.Fit(hl[i], a.c.Width)
	}
	// Whatever a screen drew, the frame never exceeds the terminal: on a
	// tiny one the body gives way first, then the header.
	bl := strings.Split(body, "\n")
	for i := range bl {
		bl[i] = components.Fit(bl[i], a.c.Width)
	}
	head := []string{header, ""}
	if room := a.c.Height - len(hl) - len(head); len(bl) > room {
		if room > 0 {
			bl = append(bl[:room-1:room-1], components.Fit(components.MoreMark(len(bl)-(room-1)), a.c.Width))
		} else {
			bl = bl[:0]
		}
	}
	all := append(append(head, bl...), hl...)
	if len(all) > a.c.Height && a.c.Height > 0 {
		all = all[len(all)-a.c.Height:]
	}
	return strings.Join(all, "\n")
}

// fullHelpKeys are the current screen's keys, then the global ones; a key
// listed twice (a screen's esc and the global esc) is shown once, where it
// first appears.
func (a *App) fullHelpKeys() [][]key.Binding {
	cols := append(a.Top().FullHelp(), []key.Binding{a.c.Keys.Back, a.c.Keys.Help, a.c.Keys.Quit, a.c.Keys.Interrupt})
	seen := map[string]bool{}
	var out [][]key.Binding
	for _, col := range cols {
		var keep []key.Binding
		for _, b := range col {
			k := b.Help().Key
			if k == "" || seen[k] || !b.Enabled() {
				continue
			}
			seen[k] = true
			keep = append(keep, b)
		}
		if len(keep) > 0 {
			out = append(out, keep)
		}
	}
	return out
}

// shortHelp is the help line: the screen's keys, then ? and q, which are
// always shown whole — when the screen's keys do not all fit, the last ones
// give way to an ellipsis so that the key to the full list stays in sight.
// (help.Model's own cut lets everything through once an item ends exactly
// at the width, so the line is laid out here.)
func (a *App) shortHelp(keys []key.Binding) string {
	st := a.help.Styles
	sep := st.ShortSeparator.Inline(true).Render(a.help.ShortSeparator)
	item := func(b key.Binding) string {
		return st.ShortKey.Inline(true).Render(b.Help().Key) + " " + st.ShortDesc.Inline(true).Render(b.Help().Desc)
	}
	q := a.c.Keys.Quit
	q.SetHelp(q.Help().Key, "quit")
	globals := item(a.c.Keys.Help) + sep + item(q)
	if a.Top().Capturing() {
		// Typing: ? and q are letters in the field, not keys (issue 17).
		i := a.c.Keys.Interrupt
		i.SetHelp(i.Help().Key, "quit")
		globals = item(i)
	}
	room := a.c.Width - lipgloss.Width(globals) - lipgloss.Width(sep)
	var parts []string
	used, cut := 0, false
	for _, b := range keys {
		if !b.Enabled() || b.Help().Key == "" {
			continue
		}
		w := lipgloss.Width(item(b))
		if len(parts) > 0 {
			w += lipgloss.Width(sep)
		}
		if used+w > room {
			cut = true
			break
		}
		parts, used = append(parts, item(b)), used+w
	}
	tail := " " + st.Ellipsis.Inline(true).Render("…")
	for cut && len(parts) > 0 && used+lipgloss.Width(tail) > room {
		last := parts[len(parts)-1]
		parts = parts[:len(parts)-1]
		used -= lipgloss.Width(last)
		if len(parts) > 0 {
			used -= lipgloss.Width(sep)
		}
	}
	line := strings.Join(parts, sep)
	if cut {
		line += tail
	}
	if line == "" {
		return globals
	}
	return line + sep + globals
}
