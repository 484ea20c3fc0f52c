package ui

import (
	"context"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
	"github.com/tp-dev/tp/ui/landing"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/internal/howrun"
)

// recordRunner is a RunHow that records what it was asked to run and runs
// nothing.
type recordRunner struct{ got []howrun.Confirmed }

func (r *recordRunner) run(ctx context.Context, c howrun.Confirmed, o howrun.Options) (howrun.Result, error) {
	r.got = append(r.got, c)
	return howrun.Result{Command: c.Command}, nil
}

const twoLineHow = "echo first-line\necho second-line"

func multiLinePlan(how string) *common.Plan {
	p := samplePlan()
	p.Checks[0].How = how
	return p
}

// hasLines reports whether view shows each of want on its own row, in order,
// and never the flattened form with a literal \n.
func hasLines(t *testing.T, view string, want ...string) {
	t.Helper()
	if strings.Contains(view, `first-line\n`) {
		t.Fatalf("command shown flattened:\n%s", view)
	}
	rows := strings.Split(view, "\n")
	at := -1
	for _, w := range want {
		found := false
		for i := at + 1; i < len(rows); i++ {
			if strings.Contains(rows[i], w) {
				at, found = i, true
				break
			}
		}
		if !found {
			t.Fatalf("%q not on a row of its own after the previous line:\n%s", w, view)
		}
	}
}

// D12: editing a command that spans lines edits its real text; confirming it
// runs exactly those bytes, the newline a real one, and the review before y
// shows every line as it will run.
func TestMultiLineHowEditRunsExactText(t *testing.T) {
	for _, tc := range []struct {
		name  string
		keys  []string
		typed string
		after []string
		want  string
	}{
		{"edit unchanged", []string{"r", "e", "ctrl+s"}, "", nil, twoLineHow},
		{"edit key from the list", []string{"e", "ctrl+s"}, "", nil, twoLineHow},
		{"add a third line", []string{"r", "e", "enter"}, "echo third-line", nil, twoLineHow + "\necho third-line"},
		{"join the lines", []string{"r", "e", "up", "end", "delete"}, "; ", nil, "echo first-line; echo second-line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rr := &recordRunner{}
			c := testCommon(t, common.Deps{Lander: &fakeLander{plan: multiLinePlan(twoLineHow)}, RunHow: rr.run})
			d := newDriver(t, New(c, landing.New(c, "x")))
			d.keys("tab")
			d.keys(tc.keys...)
			l := landingOf(d)
			if !l.Capturing() && tc.typed != "" {
				t.Fatal("the editor is not open")
			}
			if tc.typed != "" {
				d.typeText(tc.typed)
				d.keys("ctrl+s")
			}
			if editorOpen(l) {
				t.Fatal("ctrl+s did not end editing")
			}
			v := d.view()
			if !strings.Contains(v, "You edited it") {
				t.Fatalf("no review after editing:\n%s", v)
			}
			hasLines(t, v, strings.Split(tc.want, "\n")...)
			d.keys("y")
			if len(rr.got) != 1 {
				t.Fatalf("ran %d commands", len(rr.got))
			}
			if got := rr.got[0]; got.Command != tc.want || got.FromSender {
				t.Fatalf("ran %q (from sender %v), want %q", got.Command, got.FromSender, tc.want)
			}
		})
	}
}

// The sender's two-line command, unedited, is shown on two rows and runs
// as they wrote it.
func TestMultiLineHowConfirmUnedited(t *testing.T) {
	rr := &recordRunner{}
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: multiLinePlan(twoLineHow)}, RunHow: rr.run})
	d := newDriver(t, New(c, landing.New(c, "x")))
	d.keys("tab", "r")
	v := d.view()
	hasLines(t, v, "Run this command", "echo first-line", "echo second-line", "y run it")
	if strings.Contains(v, "control or bidi") {
		t.Fatalf("a plain two-line command is warned about:\n%s", v)
	}
	d.keys("y")
	if len(rr.got) != 1 || rr.got[0].Command != twoLineHow || !rr.got[0].FromSender {
		t.Fatalf("ran %+v", rr.got)
	}
}

// The editor itself shows the command on its lines, and enter there is a
// new line, not the end of editing; the help says which key reviews.
func TestMultiLineHowEditorView(t *testing.T) {
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: multiLinePlan(twoLineHow)}})
	d := newDriver(t, New(c, landing.New(c, "x")))
	d.keys("tab", "r", "e")
	l := landingOf(d)
	if got := editorText(l); got != twoLineHow {
		t.Fatalf("editor holds %q, want %q", got, twoLineHow)
	}
	v := d.view()
	hasLines(t, v, "Edit the command", "echo first-line", "echo second-line", "ctrl+s: review")
	d.keys("enter")
	if !editorOpen(l) {
		t.Fatal("enter ended editing instead of starting a new line")
	}
	var help []string
	for _, b := range l.ShortHelp() {
		help = append(help, b.Help().Key+" "+b.Help().Desc)
	}
	h := strings.Join(help, " · ")
	if !strings.Contains(h, "ctrl+s review") || !strings.Contains(h, "enter new line") {
		t.Fatalf("editing help: %s", h)
	}
	full := false
	for _, col := range l.FullHelp() {
		for _, b := range col {
			if b.Help().Key == "ctrl+s" && strings.Contains(b.Help().Desc, "command") {
				full = true
			}
		}
	}
	if !full {
		t.Fatal("? does not list the key that reviews an edited command")
	}
}

// D11 with D12: a CR before a line end cannot be shown as it is; it is
// shown as \r (not silently dropped), the dialog warns, and editing starts
// from the text as shown, so what runs after editing is what was read.
func TestMultiLineHowWithCR(t *testing.T) {
	rr := &recordRunner{}
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: multiLinePlan("echo a\r\necho b")}, RunHow: rr.run})
	d := newDriver(t, New(c, landing.New(c, "x")))
	d.keys("tab", "r")
	v := d.view()
	assertSafe(t, v)
	hasLines(t, v, `echo a\r`, "echo b", "control or bidi")
	d.keys("e", "ctrl+s")
	if v := d.view(); strings.Contains(v, "control or bidi") {
		t.Fatalf("warned about a command with no control characters left:\n%s", v)
	}
	d.keys("y")
	if len(rr.got) != 1 || rr.got[0].Command != "echo a\\r\necho b" {
		t.Fatalf("ran %+v", rr.got)
	}
}

// `tp checks ID` shares the walkthrough's dialog: the same edit runs the
// same exact text there.
func TestChecksScreenMultiLineEdit(t *testing.T) {
	rr := &recordRunner{}
	sh := sampleCheckSheet()
	sh.Checks[0].How = twoLineHow
	f := &fakeChecks{sheet: sh}
	c := testCommon(t, common.Deps{Checks: f, RunHow: rr.run})
	d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
	d.keys("e", "enter")
	d.typeText("echo third-line")
	d.keys("ctrl+s")
	want := twoLineHow + "\necho third-line"
	hasLines(t, d.view(), strings.Split(want, "\n")...)
	d.keys("y", "p", "w", "y")
	if len(rr.got) != 1 || rr.got[0].Command != want {
		t.Fatalf("ran %+v", rr.got)
	}
	if len(f.saved) != 1 || f.saved[0]["c1"].Command != want {
		t.Fatalf("saved %+v", f.saved)
	}
}

// Golden: the editor and the review of a two-line command at 80×24.
func TestMultiLineHowGoldens(t *testing.T) {
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: multiLinePlan(twoLineHow)}})
	c.WorkDir = "/fake/here"
	d := newDriver(t, New(c, landing.New(c, "x")))
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.keys("tab", "r")
	t.Run("confirm", func(t *testing.T) { requireGolden(t, d.view()) })
	d.keys("e")
	t.Run("edit", func(t *testing.T) { requireGolden(t, d.view()) })
	d.keys("enter")
	d.typeText("echo third-line")
	d.keys("ctrl+s")
	t.Run("review", func(t *testing.T) { requireGolden(t, d.view()) })
}

// A command line cut to fit the box joins back to exactly that line: no
// space is dropped at a cut.
func TestCutRowsKeepsEveryByte(t *testing.T) {
	for _, ln := range []string{
		strings.Repeat("echo step; ", 20) + "echo LAST",
		"a" + strings.Repeat(" ", 30) + "b  c   d" + strings.Repeat("x", 50),
		strings.Repeat("这是数据 ", 15),
		"short",
	} {
		for _, w := range []int{8, 13, 40} {
			rows := components.CutRows(ln, w)
			if got := strings.Join(rows, ""); got != ln {
				t.Fatalf("w=%d: rows join to %q, want %q", w, got, ln)
			}
			for _, r := range rows {
				if components.Width(r) > w {
					t.Fatalf("w=%d: row %q is %d cells", w, r, components.Width(r))
				}
			}
		}
	}
}

// A row the screen wrapped is marked as continuing its line, so it cannot
// be taken for a newline the shell would see.
func TestLongLineContinuationMarked(t *testing.T) {
	how := "echo " + strings.Repeat("word ", 30) + "END\necho next"
	c := testCommon(t, common.Deps{Lander: &fakeLander{plan: multiLinePlan(how)}})
	d := newDriver(t, New(c, landing.New(c, "x")))
	d.keys("tab", "r")
	v := d.view()
	hasRow := func(pred func(string) bool) bool {
		for _, r := range strings.Split(v, "\n") {
			if pred(r) {
				return true
			}
		}
		return false
	}
	if !hasRow(func(r string) bool { return strings.Contains(r, components.ContMark) && strings.Contains(r, "END") }) {
		t.Fatalf("the wrapped end of line 1 is not marked as its continuation:\n%s", v)
	}
	if hasRow(func(r string) bool { return strings.Contains(r, components.ContMark+"echo next") }) {
		t.Fatalf("a real second line is marked as a continuation:\n%s", v)
	}
	if !strings.Contains(v, "continues the line above") {
		t.Fatalf("no legend for the mark:\n%s", v)
	}
}
