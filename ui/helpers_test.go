package ui

import (
	"testing"

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

// driver is uitest.Driver with the short lower-case names this package's
// tests were written with: every command is executed and its message fed
// back, except spinner ticks — so tests never sleep.
type driver struct{ *uitest.Driver }

func newDriver(t testing.TB, m tea.Model) *driver { return &driver{uitest.NewDriver(t, m)} }

func (d *driver) send(msgs ...tea.Msg) *driver { d.Send(msgs...); return d }

func (d *driver) keys(ks ...string) *driver { d.Keys(ks...); return d }

func (d *driver) typeText(s string) *driver { d.TypeText(s); return d }

func (d *driver) app() *App { return d.M.(*App) }

func (d *driver) view() string { return d.View() }

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
