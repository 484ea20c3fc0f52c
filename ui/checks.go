package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
	"github.com/tp-dev/tp/ui/landing"
)

// ChecksLoadedMsg is sent by the checks screen when the passport was read.
type ChecksLoadedMsg struct {
	Sheet *common.CheckSheet
	Err   error
}

// ChecksSavedMsg is sent by the checks screen when the statuses were saved.
type ChecksSavedMsg struct {
	Sheet *common.CheckSheet // the checks as saved
	Saved int
	Err   error
}

// ChecksScreenKeys are the checks screen's own keys, beside the step's: the
// same way to save as the asks screen (review, then confirm).
type ChecksScreenKeys struct {
	List        ListKeys // scroll a review longer than the screen
	Write, Back key.Binding
	Yes, No     key.Binding
	Finish      key.Binding
}

// DefaultChecksScreenKeys returns the checks screen's keys.
func DefaultChecksScreenKeys() ChecksScreenKeys {
	return ChecksScreenKeys{
		List:   DefaultListKeys(),
		Write:  kb([]string{"w"}, "w", "review and save…"),
		Back:   kb([]string{"esc"}, "esc", "back"),
		Yes:    kb([]string{"y"}, "y", "save"),
		No:     kb([]string{"n", "esc"}, "n/esc", "back, nothing saved"),
		Finish: kb([]string{"enter", "esc"}, "enter/esc", "back"),
	}
}

// ChecksScreen is `tp checks ID` on a terminal: the landing walkthrough's
// checks step over a stored passport, with the sender's `how` run only
// after the same confirmation as when landing (D12), and what the person
// attests reviewed with w and saved with y, as on the asks screen.
type ChecksScreen struct {
	c       *common.Common
	id      string
	keys    ChecksScreenKeys
	w, h    int
	sheet   *common.CheckSheet
	session *landing.Session
	step    *landing.ChecksStep
	err     error
	status  string
	review  bool // the changes are shown, waiting for y
	revOff  int  // scroll offset of the review
	saving  bool
}

// NewChecks returns the checks screen for passport id.
func NewChecks(c *common.Common, id string) *ChecksScreen {
	s := &ChecksScreen{c: c, id: id, keys: DefaultChecksScreenKeys()}
	s.SetSize(c.Width, c.Height-common.Chrome)
	return s
}

func (s *ChecksScreen) Title() string { return "checks " + components.Line(s.id) }
func (s *ChecksScreen) Capturing() bool {
	return !s.review && s.step != nil && s.step.Capturing()
}
func (s *ChecksScreen) Busy() bool { return s.step != nil && s.step.Busy() }
func (s *ChecksScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	if s.step != nil {
		s.step.SetSize(w, h-2, h-2)
	}
}

// ShortHelp lists the keys of what the screen shows now.
func (s *ChecksScreen) ShortHelp() []key.Binding {
	k := s.keys
	switch {
	case s.step == nil:
		return []key.Binding{k.Finish}
	case s.review:
		if len(s.changes()) > s.reviewHeight() {
			return []key.Binding{k.Yes, k.No, k.List.Down, k.List.Up}
		}
		return []key.Binding{k.Yes, k.No}
	case s.step.Modal() || s.step.Busy():
		return s.step.ShortHelp()
	}
	return append(s.step.ShortHelp(), k.Write, k.Back)
}

// FullHelp lists every key of what the screen shows now.
func (s *ChecksScreen) FullHelp() [][]key.Binding {
	k := s.keys
	switch {
	case s.step == nil:
		return [][]key.Binding{{k.Finish}}
	case s.review:
		return [][]key.Binding{{k.Yes, k.No}, {k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown}}
	case s.step.Modal() || s.step.Busy():
		return s.step.FullHelp()
	}
	return append(s.step.FullHelp(), []key.Binding{k.Write, k.Back})
}

// Decisions are the statuses attested so far.
func (s *ChecksScreen) Decisions() map[string]common.CheckDecision {
	if s.session == nil {
		return nil
	}
	return s.session.Decisions().Checks
}

// Sheet is the passport's checks as last read or saved.
func (s *ChecksScreen) Sheet() *common.CheckSheet { return s.sheet }

// Init reads the passport's checks.
func (s *ChecksScreen) Init() tea.Cmd {
	src, ctx, id := s.c.Deps.Checks, s.c.Ctx, s.id
	return func() tea.Msg {
		if src == nil {
			return ChecksLoadedMsg{Err: fmt.Errorf("the passport store is not available in this build")}
		}
		sh, err := src.LoadChecks(ctx, id)
		return ChecksLoadedMsg{Sheet: sh, Err: err}
	}
}

// changes are the checks whose status the person changed or for which they
// ran a command: a run is recorded with its check even when the status
// stays as it was (D12).
func (s *ChecksScreen) changes() map[string]common.CheckDecision {
	out := map[string]common.CheckDecision{}
	if s.sheet == nil {
		return out
	}
	for _, c := range s.sheet.Checks {
		d, ok := s.session.Checks[c.ID]
		if !ok {
			continue
		}
		if d.Status == c.Status {
			d.Status = ""
		}
		if d.Status != "" || d.Ran {
			out[c.ID] = d
		}
	}
	return out
}

// setSheet shows sh: the checks as read, or as saved — the new version, its
// statuses and recorded runs, with nothing left unsaved.
func (s *ChecksScreen) setSheet(sh *common.CheckSheet) {
	s.sheet = sh
	plan := &common.Plan{File: s.id, Origin: sh.Origin, Checks: sh.Checks}
	if s.session == nil {
		s.session = landing.NewSession(s.c, plan)
		if sh.FilesDir != "" {
			s.session.Dir = sh.FilesDir // where the luggage is
		}
		s.step = landing.NewChecksStep(s.session)
	} else {
		s.session.Checks = map[string]common.CheckDecision{}
		s.session.SetPlan(plan)
	}
	s.SetSize(s.w, s.h)
}

// Update handles messages.
func (s *ChecksScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case ChecksLoadedMsg:
		s.err = msg.Err
		if msg.Sheet != nil {
			s.setSheet(msg.Sheet)
		}
		return s, nil
	case ChecksSavedMsg:
		s.saving, s.review = false, false
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.err = nil
		if msg.Sheet != nil {
			s.setSheet(msg.Sheet)
		}
		s.status = fmt.Sprintf("✓ saved as version %d (%s changed)", s.sheet.Version, components.Count(msg.Saved, "check", "checks"))
		return s, nil
	case tea.KeyMsg:
		if s.step == nil {
			if key.Matches(msg, s.keys.Finish) {
				return s, common.Pop
			}
			return s, nil
		}
		if s.review {
			return s, s.reviewKey(msg)
		}
		if !s.step.Modal() && !s.step.Busy() {
			switch {
			case key.Matches(msg, s.keys.Write):
				if len(s.changes()) == 0 {
					s.status = "nothing to save"
					return s, nil
				}
				s.review, s.revOff, s.status = true, 0, ""
				return s, nil
			case key.Matches(msg, s.keys.Back):
				return s, common.Pop
			}
		}
		s.status = ""
	}
	if s.step == nil {
		return s, nil
	}
	return s, s.step.Update(msg)
}

func (s *ChecksScreen) reviewKey(msg tea.KeyMsg) tea.Cmd {
	k := s.keys
	switch {
	case key.Matches(msg, k.Yes) && !s.saving:
		s.saving = true
		ch := s.changes()
		src, ctx, id := s.c.Deps.Checks, s.c.Ctx, s.id
		return func() tea.Msg {
			sh, err := src.SaveChecks(ctx, id, ch)
			return ChecksSavedMsg{Sheet: sh, Saved: len(ch), Err: err}
		}
	case key.Matches(msg, k.No) && !s.saving:
		s.review = false
	default:
		n := len(s.reviewRows())
		if off, ok := k.List.move(msg, s.revOff, n, s.reviewHeight()); ok {
			s.revOff = components.Clamp(off, n, s.reviewHeight())
		}
	}
	return nil
}

// reviewHeight is how many changes the review shows at once: the screen less
// the header, the question, the "more" line and the closing prompt.
func (s *ChecksScreen) reviewHeight() int { return max(s.h-7, 1) }

// reviewRows are the changes, one or more rows each, in the sheet's order.
func (s *ChecksScreen) reviewRows() []string {
	th := s.c.Theme
	ch := s.changes()
	var rows []string
	for _, c := range s.sheet.Checks {
		d, ok := ch[c.ID]
		if !ok {
			continue
		}
		var what []string
		if d.Status != "" {
			what = append(what, components.Line(d.Status))
		}
		if d.Ran {
			ran := "ran the sender's command"
			if d.Command != c.How {
				ran = "ran your command"
			}
			what = append(what, fmt.Sprintf("%s (exit %d)", ran, d.Exit))
		}
		rows = append(rows, "  "+th.Muted.Render(components.Line(c.ID))+" → "+strings.Join(what, " · "))
		if d.Ran && d.Command != c.How {
			for _, ln := range components.Wrap(d.Command, s.w-6) {
				rows = append(rows, "      "+th.Data.Render(ln))
			}
		}
	}
	return rows
}

// View draws the passport line, the checks and the save state, or the
// review of the changes.
func (s *ChecksScreen) View() string {
	th := s.c.Theme
	if s.sheet == nil {
		if s.err != nil {
			return components.Pad(append([]string{th.Error.Render("✗ could not read " + components.Line(s.id))}, components.Wrap(s.err.Error(), s.w)...), s.w, s.h)
		}
		return components.Pad([]string{th.Muted.Render("Reading " + components.Line(s.id) + "…")}, s.w, s.h)
	}
	head := th.Title.Render(components.Line(s.sheet.ID)) + " " + components.Line(s.sheet.Title) + th.Muted.Render(fmt.Sprintf(" · version %d", s.sheet.Version))
	if s.review {
		out := []string{components.Fit(head, s.w), "", th.Warn.Render("Save these changes to " + components.Line(s.sheet.ID) + "?")}
		rows := s.reviewRows()
		vis, off := components.Window(rows, s.revOff, s.reviewHeight())
		out = append(out, vis...)
		if len(rows) > len(vis) {
			out = append(out, th.Muted.Render(fmt.Sprintf("  %d–%d of %d · ↑/↓ pgup/pgdn to scroll", off+1, off+len(vis), len(rows))))
		}
		out = append(out, "")
		for _, ln := range components.Wrap("checked_by and checked_at are recorded with each status; a command you ran is recorded with its exit status and when it ran. y saves · n/esc goes back", s.w) {
			out = append(out, th.Muted.Render(ln))
		}
		if s.err != nil {
			out = append(out, "", th.Error.Render("✗ ")+components.Line(s.err.Error()))
		}
		return components.Pad(out, s.w, s.h)
	}
	foot := ""
	switch n := len(s.changes()); {
	case s.err != nil:
		foot = th.Error.Render("✗ ") + components.Line(s.err.Error())
	case s.status != "":
		foot = th.Pass.Render(s.status)
	case n > 0:
		foot = th.Warn.Render(components.Count(n, "unsaved change", "unsaved changes")) + th.Muted.Render(" · w review and save · q quit unsaved")
	}
	return components.Fit(head, s.w) + "\n" + s.step.View() + "\n" + components.Fit(foot, s.w)
}
