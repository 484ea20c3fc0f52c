package ui

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"
)

// hostile is untrusted text carrying every trick D11 must defuse: CSI
// clearing the screen, OSC 52 setting the clipboard, a bidi override, a bare
// CR and C1 CSI.
const hostile = "ok\x1b[2J\x1b]52;c;ZWNobyBwd25lZA==\x07\u202Eevil\rX\u009b31m"

func noColorTheme(t testing.TB) *themes.Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	th, err := themes.New(themes.NoColor, r)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func colorTheme(t testing.TB, name string) *themes.Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	th, err := themes.New(name, r)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func testCommon(t testing.TB, deps common.Deps) *common.Common {
	c := common.NewCommon(context.Background(), noColorTheme(t), deps, "/fake/here")
	return c
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "ctrl+s":
		return tea.KeyMsg{Type: tea.KeyCtrlS}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// driver runs a tea.Model synchronously: every command is executed and its
// message fed back, except spinner ticks (which would sleep) — so tests
// never sleep.
type driver struct {
	t     testing.TB
	m     tea.Model
	quit  bool
	trace []tea.Msg
}

func newDriver(t testing.TB, m tea.Model) *driver {
	d := &driver{t: t, m: m}
	d.run(m.Init(), 0)
	return d
}

func (d *driver) send(msgs ...tea.Msg) *driver {
	for _, msg := range msgs {
		var cmd tea.Cmd
		d.m, cmd = d.m.Update(msg)
		d.run(cmd, 0)
	}
	return d
}

func (d *driver) keys(ks ...string) *driver {
	for _, k := range ks {
		d.send(keyMsg(k))
	}
	return d
}

func (d *driver) typeText(s string) *driver {
	for _, r := range s {
		d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return d
}

func (d *driver) run(cmd tea.Cmd, depth int) {
	if cmd == nil {
		return
	}
	if depth > 10000 {
		d.t.Fatal("command loop")
	}
	msg := cmd()
	switch msg := msg.(type) {
	case nil:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c, depth+1)
		}
		return
	case spinner.TickMsg:
		return
	case tea.QuitMsg:
		d.quit = true
		return
	}
	d.trace = append(d.trace, msg)
	var next tea.Cmd
	d.m, next = d.m.Update(msg)
	d.run(next, depth+1)
}

func (d *driver) app() *App { return d.m.(*App) }

func (d *driver) view() string { return d.m.View() }

// requireGolden snapshots a view; -update rewrites it.
func requireGolden(t *testing.T, view string) {
	t.Helper()
	golden.RequireEqual(t, []byte(view+"\n"))
}

// assertSafe fails when a view lets a raw control or bidi override through.
func assertSafe(t testing.TB, view string) {
	t.Helper()
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\u202E", "\r", "\u009b", "\x07"} {
		if strings.Contains(view, bad) {
			t.Fatalf("view carries %q:\n%s", bad, view)
		}
	}
}

func editorText(l *landing.Landing) string { v, _ := l.Checks().Editor(); return v }

func editorOpen(l *landing.Landing) bool { _, open := l.Checks().Editor(); return open }
