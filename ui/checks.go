package ui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/landing"
)

// ChecksLoadedMsg is sent by the checks screen when the passport was read.
type ChecksLoadedMsg struct {
	Sheet *CheckSheet
	Err   error
}

// ChecksSavedMsg is sent by the checks screen when the statuses were saved.
type ChecksSavedMsg struct {
	Saved int
	Err   error
}

// ChecksScreenKeys are the checks screen's own keys, beside the step's.
type ChecksScreenKeys struct {
	Save, Back key.Binding
}

// ChecksScreen is `tp checks ID` on a terminal: the landing walkthrough's
// checks step over a stored passport, with the sender's `how` run only
// after the same confirmation as when landing (D12), and the statuses the
// person attests saved with w.
type ChecksScreen struct {
	c       *Common
	id      string
	keys    ChecksScreenKeys
	w, h    int
	sheet   *CheckSheet
	session *landing.Session
	step    *landing.ChecksStep
	err     error
	status  string
}

// NewChecks returns the checks screen for passport id.
func NewChecks(c *Common, id string) *ChecksScreen {
	s := &ChecksScreen{c: c, id: id, keys: ChecksScreenKeys{
		Save: kb([]string{"w"}, "w", "save statuses"),
		Back: kb([]string{"esc"}, "esc", "back"),
	}}
	s.SetSize(c.Width, c.Height-chrome)
	return s
}

func (s *ChecksScreen) Title() string { return "checks " + line(s.id) }
func (s *ChecksScreen) Capturing() bool {
	return s.step != nil && s.step.Capturing()
}
func (s *ChecksScreen) Busy() bool { return s.step != nil && s.step.Busy() }
func (s *ChecksScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	if s.step != nil {
		s.step.SetSize(w, h-2, h-2)
	}
}
func (s *ChecksScreen) ShortHelp() []key.Binding {
	if s.step == nil {
		return nil
	}
	if s.step.Modal() || s.step.Busy() {
		return s.step.ShortHelp()
	}
	return append(s.step.ShortHelp(), s.keys.Save)
}
func (s *ChecksScreen) FullHelp() [][]key.Binding {
	if s.step == nil {
		return nil
	}
	return append(s.step.FullHelp(), []key.Binding{s.keys.Save})
}

// Decisions are the statuses attested so far.
func (s *ChecksScreen) Decisions() map[string]CheckDecision {
	if s.session == nil {
		return nil
	}
	return s.session.Decisions().Checks
}

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
func (s *ChecksScreen) changes() map[string]CheckDecision {
	out := map[string]CheckDecision{}
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

// Update handles messages.
func (s *ChecksScreen) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case ChecksLoadedMsg:
		s.sheet, s.err = msg.Sheet, msg.Err
		if s.sheet != nil {
			s.session = landing.NewSession(s.c, &Plan{File: s.id, Origin: s.sheet.Origin, Checks: s.sheet.Checks})
			if s.sheet.FilesDir != "" {
				s.session.Dir = s.sheet.FilesDir // where the luggage is
			}
			s.step = landing.NewChecksStep(s.session)
			s.SetSize(s.w, s.h)
		}
		return s, nil
	case ChecksSavedMsg:
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.err = nil
		s.status = fmt.Sprintf("✓ saved (checks changed: %d)", msg.Saved)
		for i, c := range s.sheet.Checks {
			if d, ok := s.session.Checks[c.ID]; ok && d.Status != "" {
				s.sheet.Checks[i].Status = d.Status
			}
			// A run is saved once; another run makes it a change again.
			if d, ok := s.session.Checks[c.ID]; ok && d.Ran {
				d.Ran = false
				s.session.Checks[c.ID] = d
			}
		}
		return s, nil
	case tea.KeyMsg:
		if s.step == nil {
			if key.Matches(msg, s.keys.Back) || msg.Type == tea.KeyEnter {
				return s, pop
			}
			return s, nil
		}
		if !s.step.Modal() && !s.step.Busy() {
			switch {
			case key.Matches(msg, s.keys.Save):
				ch := s.changes()
				if len(ch) == 0 {
					s.status = "nothing to save"
					return s, nil
				}
				src, ctx, id := s.c.Deps.Checks, s.c.Ctx, s.id
				return s, func() tea.Msg { return ChecksSavedMsg{Saved: len(ch), Err: src.SaveChecks(ctx, id, ch)} }
			case key.Matches(msg, s.keys.Back):
				return s, pop
			}
		}
		s.status = ""
	}
	if s.step == nil {
		return s, nil
	}
	return s, s.step.Update(msg)
}

// View draws the passport line, the checks and the save state.
func (s *ChecksScreen) View() string {
	th := s.c.Theme
	if s.sheet == nil {
		if s.err != nil {
			return pad(append([]string{th.Error.Render("✗ could not read " + line(s.id))}, wrap(s.err.Error(), s.w)...), s.w, s.h)
		}
		return pad([]string{th.Muted.Render("Reading " + line(s.id) + "…")}, s.w, s.h)
	}
	head := th.Title.Render(line(s.sheet.ID)) + " " + line(s.sheet.Title)
	if n := len(s.changes()); n > 0 {
		head += th.Warn.Render(fmt.Sprintf(" · %d unsaved (w saves, q quits without saving)", n))
	}
	foot := ""
	switch {
	case s.err != nil:
		foot = th.Error.Render("✗ ") + line(s.err.Error())
	case s.status != "":
		foot = th.Pass.Render(s.status)
	}
	return fit(head, s.w) + "\n" + s.step.View() + "\n" + fit(foot, s.w)
}
