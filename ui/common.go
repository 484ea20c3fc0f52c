package ui

import (
	"context"

	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
)

// What every screen shares is declared in ui/common, so that the screens'
// own packages (ui/landing) can share it too; these names keep the
// package's surface for cmd/tp and ui/backend.
type (
	// Common is what every screen shares (see common.Common).
	Common = common.Common
	// Component is one screen (see common.Component).
	Component = common.Component
	// GlobalKeys are handled by the root for every screen.
	GlobalKeys = common.GlobalKeys
	// PushMsg opens a screen on top of the current one.
	PushMsg = common.PushMsg
	// PopMsg closes the current screen.
	PopMsg = common.PopMsg
	// ReplaceMsg swaps the current screen for another.
	ReplaceMsg = common.ReplaceMsg
	// ResumedMsg tells the uncovered screen that the one above closed.
	ResumedMsg = common.ResumedMsg
	// CancelMsg asks the active screen to cancel its running work.
	CancelMsg = common.CancelMsg
	// ProgressMsg reports progress of a screen's running work.
	ProgressMsg = common.ProgressMsg
	// WorkDoneMsg carries the result of a screen's running work.
	WorkDoneMsg = common.WorkDoneMsg
)

const chrome = common.Chrome

// NewCommon builds a Common with the default keys at 80×24.
func NewCommon(ctx context.Context, th *themes.Theme, deps Deps, workDir string) *Common {
	return common.NewCommon(ctx, th, deps, workDir)
}

// DefaultGlobalKeys returns the keys every screen shares.
func DefaultGlobalKeys() GlobalKeys { return common.DefaultGlobalKeys() }

func push(c Component) tea.Cmd    { return common.Push(c) }
func pop() tea.Msg                { return common.Pop() }
func replace(c Component) tea.Cmd { return common.Replace(c) }

// ---- text helpers (see ui/components) ----------------------------------------

func line(s string) string                          { return components.Line(s) }
func text(s string) string                          { return components.Text(s) }
func fit(s string, w int) string                    { return components.Fit(s, w) }
func wrap(s string, w int) []string                 { return components.Wrap(s, w) }
func pad(ls []string, w, h int) string              { return components.Pad(ls, w, h) }
func follow(off, cursor, h, n int) int              { return components.Follow(off, cursor, h, n) }
func humanBytes(n int64) string                     { return components.HumanBytes(n) }
func lipglossWidth(s string) int                    { return components.Width(s) }
func newTextInput(th *themes.Theme) textinput.Model { return components.NewTextInput(th) }
func newTextArea(th *themes.Theme) textarea.Model   { return components.NewTextArea(th) }

// window returns the lines of ls that fit in h from off; it changes nothing.
func window(ls []string, off, h int) ([]string, int) { return components.Window(ls, off, h) }
