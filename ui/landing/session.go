// Package landing is the landing walkthrough of tp's terminal interface
// (`tp land FILE`, TaskPack 0.1 §3–§4.5): one component per step — summary,
// checks, facts, asks, passport, luggage, confirm — over one shared
// Session holding the plan and what the person decided, and the receipt
// screen a pack of kind receipt opens instead (§4.4.1).
//
// The checks step stands alone as the checks of a stored passport (`tp
// checks ID`); a landing check's `how` runs only through internal/howrun,
// only after the confirmation dialog in howdialog.go (D12).
// Nothing here decides a rule: the plan is the core's.
package landing

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/internal/howrun"
	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui/common"
)

// Session is what every step of one landing shares: the plan and the
// person's decisions so far.
type Session struct {
	C    *common.Common
	Plan *common.Plan
	// Checks, Answers, Trust and Again are the decisions (see Decisions).
	Checks  map[string]common.CheckDecision
	Answers map[string]string
	Trust   bool
	Again   bool
	// Judging is true while C0–C10 are being judged; JudgeErr is why they
	// could not be.
	Judging  bool
	JudgeErr error
	// Dir is where a confirmed command runs: the staging folder the
	// luggage was unpacked into, else the folder tp was started in.
	Dir string
	// Staged is set once the luggage was unpacked into Dir.
	Staged bool
}

// NewSession starts a session over plan (nil while it is being built).
func NewSession(c *common.Common, plan *common.Plan) *Session {
	s := &Session{C: c, Checks: map[string]common.CheckDecision{}, Answers: map[string]string{}, Dir: c.WorkDir}
	if plan != nil {
		s.SetPlan(plan)
	}
	return s
}

// SetPlan takes the plan, with the statuses its checks already have.
func (s *Session) SetPlan(p *common.Plan) {
	s.Plan = p
	for _, ch := range p.Checks {
		if ch.Status != "" && ch.Status != "pending" {
			s.Checks[ch.ID] = common.CheckDecision{Status: ch.Status}
		}
	}
}

func (s *Session) theme() *themes.Theme { return s.C.Theme }

// Decisions returns what the person chose so far.
func (s *Session) Decisions() common.Decisions {
	d := common.Decisions{Checks: map[string]common.CheckDecision{}, Answers: map[string]string{}, TrustOwnFacts: s.Trust, Again: s.Again}
	for k, v := range s.Checks {
		d.Checks[k] = v
	}
	for k, v := range s.Answers {
		d.Answers[k] = v
	}
	return d
}

// HowTimeout bounds a landing check's command.
func (s *Session) HowTimeout() time.Duration {
	if s.C.Deps.HowTimeout > 0 {
		return s.C.Deps.HowTimeout
	}
	return howrun.DefaultTimeout
}

// Status is a check's status as attested so far.
func (s *Session) Status(c common.Check) string {
	if d, ok := s.Checks[c.ID]; ok && d.Status != "" {
		return d.Status
	}
	if c.Status != "" {
		return c.Status
	}
	return "pending"
}

// PendingRequired counts the required checks still pending.
func (s *Session) PendingRequired() int {
	n := 0
	for _, c := range s.Plan.Checks {
		if c.Required && s.Status(c) == "pending" {
			n++
		}
	}
	return n
}

// Restorable counts the sealed facts whose ✓ may be restored by choice
// (§4.2), as the core decided.
func (s *Session) Restorable() int {
	n := 0
	for _, f := range s.Plan.Facts {
		if f.Restorable {
			n++
		}
	}
	return n
}

// step is one screen of the walkthrough. Update gets every key while the
// step is current and every other message always; View only reads.
type step interface {
	// SetSize gives the walkthrough's width and height and the rows left
	// for the step under the step bar.
	SetSize(w, h, body int)
	Update(msg tea.Msg) tea.Cmd
	View() string
	// Modal reports whether a dialog or an editor of the step is open: it
	// takes every key, and the walkthrough's own keys wait.
	Modal() bool
	Capturing() bool
	Busy() bool
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}
