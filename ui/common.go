package ui

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/themes"
)

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
	// WorkDir is where tp was started: where a confirmed `how` runs and
	// where the home screen looks for packs.
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

// ReplaceMsg swaps the current screen for another (a pack turned out to be
// a receipt).
type ReplaceMsg struct{ Screen Component }

// ResumedMsg is sent by the root to the screen uncovered when the one above
// it closes, so it can refresh what the closed screen may have changed.
type ResumedMsg struct{}

// CancelMsg asks the active screen to cancel its running work (ctrl+c).
type CancelMsg struct{}

func push(c Component) tea.Cmd    { return func() tea.Msg { return PushMsg{c} } }
func pop() tea.Msg                { return PopMsg{} }
func replace(c Component) tea.Cmd { return func() tea.Msg { return ReplaceMsg{c} } }

// ---- text helpers ---------------------------------------------------------

// line makes untrusted text one safe line (D11).
func line(s string) string { return sanitize.Line(s) }

// text makes untrusted text safe, keeping newlines (D11).
func text(s string) string { return sanitize.Text(s) }

// fit truncates a rendered line to w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// wrap wraps untrusted text to w cells after sanitising it.
func wrap(s string, w int) []string {
	if w < 10 {
		w = 10
	}
	return strings.Split(ansi.Wrap(text(s), w, " -"), "\n")
}

// window returns the lines of ls that fit in h starting at off, clamping
// off so the view is always full when it can be.
func window(ls []string, off, h int) ([]string, int) {
	if h <= 0 {
		return nil, 0
	}
	if off > len(ls)-h {
		off = len(ls) - h
	}
	if off < 0 {
		off = 0
	}
	end := off + h
	if end > len(ls) {
		end = len(ls)
	}
	return ls[off:end], off
}

// follow returns an offset that keeps cursor visible in a window of h rows.
func follow(off, cursor, h, n int) int {
	if h <= 0 {
		return 0
	}
	if cursor < off {
		off = cursor
	}
	if cursor >= off+h {
		off = cursor - h + 1
	}
	if off > n-h {
		off = n - h
	}
	if off < 0 {
		off = 0
	}
	return off
}

// pad makes s exactly h lines, each cut to w cells.
func pad(ls []string, w, h int) string {
	h = max(h, 0)
	out := make([]string, 0, h)
	for i := 0; i < h; i++ {
		if i < len(ls) {
			out = append(out, fit(ls[i], w))
		} else {
			out = append(out, "")
		}
	}
	return strings.Join(out, "\n")
}

// humanBytes is a size for people.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return itoa(n) + " B"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	return ftoa1(v) + " " + string("KMGTPE"[exp]) + "iB"
}

func lipglossWidth(s string) int { return ansi.StringWidth(s) }

// newTextInput and newTextArea use a steady cursor (no blink timers, stable
// snapshots) and the theme's styles, so --theme no-color means no colour
// in the text fields either.
func newTextInput(th *themes.Theme) textinput.Model {
	ti := textinput.New()
	ti.Cursor.SetMode(cursor.CursorStatic)
	ti.PromptStyle, ti.TextStyle, ti.PlaceholderStyle = th.Key, th.Text, th.Muted
	ti.Cursor.Style, ti.Cursor.TextStyle = th.Cursor.Reverse(true), th.Text
	return ti
}

func newTextArea(th *themes.Theme) textarea.Model {
	ta := textarea.New()
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.ShowLineNumbers = false
	ta.CharLimit = 0
	st := textarea.Style{Base: th.Text, CursorLine: th.Text, CursorLineNumber: th.Muted, EndOfBuffer: th.Muted,
		LineNumber: th.Muted, Placeholder: th.Muted, Prompt: th.Key, Text: th.Text}
	ta.FocusedStyle, ta.BlurredStyle = st, st
	ta.Cursor.Style, ta.Cursor.TextStyle = th.Cursor.Reverse(true), th.Text
	return ta
}
