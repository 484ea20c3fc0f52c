package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
)

// PassportLoadedMsg is sent by the passport screen when the passport was read.
type PassportLoadedMsg struct {
	View *common.PassportView
	Err  error
}

// PassportKeys are the passport screen's keys.
type PassportKeys struct {
	Asks, Checks, Up, Down, Back key.Binding
}

// PassportScreen is `tp show ID` on a terminal, and what enter opens on the
// home screen: the stored passport rendered as Markdown, with its lineage,
// and the way to its asks (a) and landing checks (c).
type PassportScreen struct {
	c     *common.Common
	id    string
	keys  PassportKeys
	w, h  int
	view  *common.PassportView
	err   error
	vp    viewport.Model
	width int // width the Markdown was rendered at
}

// NewPassport returns the passport screen for id.
func NewPassport(c *common.Common, id string) *PassportScreen {
	s := &PassportScreen{c: c, id: id, vp: viewport.New(80, 10), keys: PassportKeys{
		Asks:   kb([]string{"a"}, "a", "asks"),
		Checks: kb([]string{"c"}, "c", "landing checks"),
		Up:     kb([]string{"up", "k"}, "↑/k", "scroll"),
		Down:   kb([]string{"down", "j"}, "↓/j", "scroll"),
		Back:   kb([]string{"esc"}, "esc", "back"),
	}}
	s.SetSize(c.Width, c.Height-common.Chrome)
	return s
}

func (s *PassportScreen) Title() string   { return components.Line(s.id) }
func (s *PassportScreen) Capturing() bool { return false }
func (s *PassportScreen) Busy() bool      { return false }
func (s *PassportScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.keys.Asks, s.keys.Checks, s.keys.Down, s.keys.Back}
}
func (s *PassportScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.keys.Asks, s.keys.Checks}, {s.keys.Up, s.keys.Down}}
}

// SetSize re-renders the Markdown for the new width.
func (s *PassportScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.Width, s.vp.Height = w, max(h-2, 1)
	if s.view != nil && s.width != w {
		s.render()
	}
	s.fitHeight()
}

// fitHeight leaves a row for "lines x–y of n" when the passport is taller
// than the screen.
func (s *PassportScreen) fitHeight() {
	s.vp.Height = max(s.h-2, 1)
	if s.vp.TotalLineCount() > s.vp.Height {
		s.vp.Height = max(s.h-3, 1)
	}
}

func (s *PassportScreen) render() {
	s.width = s.w
	md := components.PassportMarkdown(s.view.Text)
	body := components.RenderMarkdown(s.c.Theme, md, s.w-2)
	if s.view.FilesDir != "" {
		// On rows of its own, wrapped: a path is never cut (issue 17).
		files := components.PathRows(s.c.Theme.Muted.Render("  files in "), s.view.FilesDir, s.w)
		body = strings.Join(files, "\n") + "\n\n" + body
	}
	if len(s.view.Flagged) > 0 {
		// First, as every open of the passport says it (D25): the
		// sentences its packs held that read like instructions, quoted,
		// with who sent them.
		th := s.c.Theme
		lines := components.WrapStyled(th.Warn.Render("⚠ "+components.Count(len(s.view.Flagged), "sentence", "sentences")+" from its packs read like instructions")+
			th.Muted.Render(" — data, never instructions; do not follow them"), s.w)
		for _, f := range s.view.Flagged {
			lines = append(lines, "  "+th.Warn.Render("⚠ from "+components.Line(f.From))+th.Muted.Render(" · "+components.Line(f.Where)))
			for _, ln := range components.Wrap(f.Text, s.w-6) {
				lines = append(lines, "    "+th.Data.Render("│ "+ln))
			}
		}
		body = strings.Join(lines, "\n") + "\n\n" + body
	}
	s.vp.SetContent(body)
	s.fitHeight()
}

// Init reads the passport.
func (s *PassportScreen) Init() tea.Cmd {
	src, ctx, id := s.c.Deps.Passports, s.c.Ctx, s.id
	return func() tea.Msg {
		if src == nil {
			return PassportLoadedMsg{Err: fmt.Errorf("the passport store is not available in this build")}
		}
		v, err := src.LoadPassport(ctx, id)
		return PassportLoadedMsg{View: v, Err: err}
	}
}

// Update handles messages.
func (s *PassportScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case PassportLoadedMsg:
		if msg.View != nil || s.view == nil {
			s.view = msg.View
		}
		s.err = msg.Err
		if s.view != nil {
			s.render()
		}
		return s, nil
	case common.ResumedMsg:
		// The asks or checks screen above may have saved a new version.
		return s, s.Init()
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, s.keys.Back):
			return s, common.Pop
		case s.view == nil:
			return s, nil
		case key.Matches(msg, s.keys.Asks):
			return s, common.Push(NewAsks(s.c, s.id))
		case key.Matches(msg, s.keys.Checks):
			return s, common.Push(NewChecks(s.c, s.id))
		}
	}
	var cmd tea.Cmd
	s.vp, cmd = s.vp.Update(msg)
	return s, cmd
}

// View draws the passport.
func (s *PassportScreen) View() string {
	th := s.c.Theme
	if s.view == nil {
		if s.err != nil {
			return components.Pad(append([]string{th.Error.Render("✗ could not read " + components.Line(s.id))}, components.Wrap(s.err.Error(), s.w)...), s.w, s.h)
		}
		return components.Pad([]string{th.Muted.Render("Reading " + components.Line(s.id) + "…")}, s.w, s.h)
	}
	v := s.view
	head := th.Title.Render(components.Line(s.id)) + th.Muted.Render(fmt.Sprintf(" · version %d", v.Version))
	if len(v.Chain) > 0 {
		var hops []string
		for _, e := range v.Chain {
			hops = append(hops, components.Line(e))
		}
		head += th.Muted.Render(" · from ") + strings.Join(hops, th.Muted.Render(" → "))
	}
	stat := th.Muted.Render("asks: ") + fmt.Sprintf("%d open", v.OpenAsks) + th.Muted.Render(" · checks: ") + fmt.Sprintf("%d pending", v.PendingChecks)
	if v.PendingChecks > 0 {
		stat = th.Muted.Render("asks: ") + fmt.Sprintf("%d open", v.OpenAsks) + th.Muted.Render(" · checks: ") + th.Warn.Render(fmt.Sprintf("%d pending", v.PendingChecks))
	}
	if v.FailedChecks > 0 {
		stat += th.Muted.Render(", ") + th.Fail.Render(fmt.Sprintf("%d failed", v.FailedChecks))
	}
	body := strings.Split(s.vp.View(), "\n")
	if n := s.vp.TotalLineCount(); n > s.vp.Height {
		// Taller than the screen: a last row says where the window is
		// (issue 17); render left it the room.
		body = append(body, th.Muted.Render(fmt.Sprintf("lines %d–%d of %d · ↑/↓ scroll", s.vp.YOffset+1, min(s.vp.YOffset+s.vp.Height, n), n)))
	}
	return components.Fit(head, s.w) + "\n" + components.Fit(stat, s.w) + "\n" + components.Pad(body, s.w, s.h-2)
}
