package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// App is the root model: a stack of screens. It routes resizes to every
// screen and keys to the top one, draws the header and the help line, and
// owns the global keys (q, ?, esc, ctrl+c).
type App struct {
	c        *Common
	stack    []Component
	help     help.Model
	fullHelp bool
	// Quitting is set when the program is ending.
	Quitting bool
}

// New returns the root model showing first.
func New(c *Common, first Component) *App {
	h := help.New()
	h.Styles = help.Styles{
		ShortKey: c.Theme.Help.ShortKey, ShortDesc: c.Theme.Help.ShortDesc,
		ShortSeparator: c.Theme.Help.ShortSeparator, Ellipsis: c.Theme.Help.Ellipsis,
		FullKey: c.Theme.Help.FullKey, FullDesc: c.Theme.Help.FullDesc,
		FullSeparator: c.Theme.Help.FullSeparator,
	}
	a := &App{c: c, stack: []Component{first}, help: h}
	a.resize()
	return a
}

// Top returns the active screen.
func (a *App) Top() Component { return a.stack[len(a.stack)-1] }

// Init starts the first screen.
func (a *App) Init() tea.Cmd { return a.Top().Init() }

func (a *App) bodyHeight() int {
	h := a.c.Height - chrome
	if a.fullHelp {
		h -= a.fullHelpHeight() - 1
	}
	if h < 1 {
		h = 1
	}
	return h
}

func (a *App) fullHelpHeight() int { return len(a.fullHelpLines()) }

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
	case PushMsg:
		a.stack = append(a.stack, msg.Screen)
		a.resize()
		return a, msg.Screen.Init()
	case ReplaceMsg:
		a.stack[len(a.stack)-1] = msg.Screen
		a.resize()
		return a, msg.Screen.Init()
	case PopMsg:
		if len(a.stack) == 1 {
			a.Quitting = true
			return a, tea.Quit
		}
		a.stack = a.stack[:len(a.stack)-1]
		a.resize()
		return a.route(ResumedMsg{})
	case tea.KeyMsg:
		top := a.Top()
		switch {
		case key.Matches(msg, a.c.Keys.Interrupt):
			if top.Busy() {
				return a.route(CancelMsg{})
			}
			a.Quitting = true
			return a, tea.Quit
		case top.Capturing():
			// typing: every other key goes to the screen
		case key.Matches(msg, a.c.Keys.Quit):
			if top.Busy() {
				// Nothing may be left half-done: the person cancels first.
				return a.route(CancelMsg{})
			}
			a.Quitting = true
			return a, tea.Quit
		case key.Matches(msg, a.c.Keys.Help):
			a.fullHelp = !a.fullHelp
			a.resize()
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
	header := fit(th.Title.Render("tp")+th.Muted.Render(" · ")+th.Subtitle.Render(strings.Join(crumbs, " › ")), a.c.Width)
	body := top.View()
	var helpView string
	if a.fullHelp {
		helpView = strings.Join(a.fullHelpLines(), "\n")
	} else {
		helpView = a.help.ShortHelpView(append(top.ShortHelp(), a.c.Keys.Help, a.c.Keys.Quit))
	}
	hl := strings.Split(helpView, "\n")
	for i := range hl {
		hl[i] = fit(hl[i], a.c.Width)
	}
	// Whatever a screen drew, the frame never exceeds the terminal: on a
	// tiny one the body gives way first, then the header.
	bl := strings.Split(body, "\n")
	for i := range bl {
		bl[i] = fit(bl[i], a.c.Width)
	}
	head := []string{header, ""}
	if room := a.c.Height - len(hl) - len(head); len(bl) > room {
		bl = bl[:max(room, 0)]
	}
	all := append(append(head, bl...), hl...)
	if len(all) > a.c.Height && a.c.Height > 0 {
		all = all[len(all)-a.c.Height:]
	}
	return strings.Join(all, "\n")
}

func (a *App) fullHelpKeys() [][]key.Binding {
	cols := a.Top().FullHelp()
	return append(cols, []key.Binding{a.c.Keys.Back, a.c.Keys.Help, a.c.Keys.Quit, a.c.Keys.Interrupt})
}
