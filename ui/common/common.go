// Package common is what every screen of tp's terminal interface shares:
// the Common context (size, theme, keys, the core), the Component contract
// a screen fulfils, the navigation messages between screens, background
// work with progress, and the small interfaces to the core (Deps) with the
// plain data the screens show.
//
// No rule of the specifications lives here or in any screen: every
// decision is made by the core behind Deps.
package common

import (
	"context"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/themes"
)

// Chrome is the rows the root draws around a screen: the header line, the
// blank line under it, and the help line.
const Chrome = 3

// Common is what every screen shares: size, theme, keys, the core and the
// folder tp was started in. It is built once by cmd/tp and passed by pointer.
type Common struct {
	Width, Height int
	Theme         *themes.Theme
	Keys          GlobalKeys
	Deps          Deps
	// Ctx is cancelled when the program ends; work started by a screen
	// derives from it.
	Ctx context.Context
	// WorkDir is where tp was started: where the home screen looks for
	// packs.
	WorkDir string
	// Now formats "now" for screens that show times (tests pin it).
	Now func() string
}

// NewCommon builds a Common with the default keys at 80×24.
func NewCommon(ctx context.Context, th *themes.Theme, deps Deps, workDir string) *Common {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Common{Width: 80, Height: 24, Theme: th, Keys: DefaultGlobalKeys(), Deps: deps, Ctx: ctx, WorkDir: workDir}
}

// Component is one screen: a bubbletea model with its own keys and help,
// resized by the root.
type Component interface {
	Init() tea.Cmd
	Update(tea.Msg) (Component, tea.Cmd)
	View() string
	SetSize(w, h int)
	help.KeyMap
	// Title names the screen in the header.
	Title() string
	// Capturing reports whether the screen is taking text input, so q and
	// ? are typed rather than acted on.
	Capturing() bool
	// Busy reports whether long work is running that ctrl+c should cancel
	// rather than quit.
	Busy() bool
}

// GlobalKeys are handled by the root for every screen.
type GlobalKeys struct {
	Quit      key.Binding
	Help      key.Binding
	Back      key.Binding
	Interrupt key.Binding
}

// DefaultGlobalKeys returns the keys every screen shares.
func DefaultGlobalKeys() GlobalKeys {
	return GlobalKeys{
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit (writes nothing unconfirmed)")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel / quit")),
	}
}

// ---- navigation messages --------------------------------------------------

// PushMsg opens a screen on top of the current one.
type PushMsg struct{ Screen Component }

// PopMsg closes the current screen; closing the last one quits.
type PopMsg struct{}

// BackMsg closes the current screen when another is under it, and does
// nothing on the first screen: esc goes back, it never quits (q does).
type BackMsg struct{}

// ReplaceMsg swaps the current screen for another (a pack turned out to be
// a receipt).
type ReplaceMsg struct{ Screen Component }

// ResumedMsg is sent by the root to the screen uncovered when the one above
// it closes, so it can refresh what the closed screen may have changed.
type ResumedMsg struct{}

// CancelMsg asks the active screen to cancel its running work (ctrl+c).
type CancelMsg struct{}

// Push opens c on top of the current screen.
func Push(c Component) tea.Cmd { return func() tea.Msg { return PushMsg{c} } }

// Pop closes the current screen.
func Pop() tea.Msg { return PopMsg{} }

// Back goes back to the screen under this one, if there is one.
func Back() tea.Msg { return BackMsg{} }

// Replace swaps the current screen for c.
func Replace(c Component) tea.Cmd { return func() tea.Msg { return ReplaceMsg{c} } }
