package ui

import (
	"testing"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/internal/uitest"
	"github.com/tp-dev/tp/ui/landing"
)

// hostile is untrusted text carrying every trick D11 must defuse (uitest.Hostile).
const hostile = uitest.Hostile

func noColorTheme(t testing.TB) *themes.Theme { return uitest.NoColorTheme(t) }

func colorTheme(t testing.TB, name string) *themes.Theme { return uitest.ColorTheme(t, name) }

func testCommon(t testing.TB, deps common.Deps) *common.Common { return uitest.Common(t, deps) }

func keyMsg(s string) tea.KeyMsg { return uitest.KeyMsg(s) }

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
func requireGolden(t *testing.T, view string) { t.Helper(); uitest.RequireGolden(t, view) }

// assertSafe fails when a view lets a raw control or bidi override through.
func assertSafe(t testing.TB, view string) { t.Helper(); uitest.AssertSafe(t, view) }

func editorText(l *landing.Landing) string { v, _ := l.Checks().Editor(); return v }

func editorOpen(l *landing.Landing) bool { _, open := l.Checks().Editor(); return open }

// hasLines fails unless view shows each of want on a row of its own, in order.
func hasLines(t *testing.T, view string, want ...string) {
	t.Helper()
	uitest.HasLines(t, view, want...)
}

// recordRunner records what it was asked to run and runs nothing.
type recordRunner = uitest.RecordRunner

const twoLineHow = uitest.TwoLineHow

func multiLinePlan(how string) *common.Plan { return uitest.PlanWithHow(how) }
