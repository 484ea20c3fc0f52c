package landing

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/internal/howrun"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
	"github.com/tp-dev/tp/ui/internal/uitest"
)

// D12 / §4.4: the sender's `how` never runs without the confirmation that
// shows it. The command would create a file; every way of not confirming
// must leave no file.
func TestHowNotRunUnlessConfirmed(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"decline with n", []string{"r", "n"}},
		{"decline with esc", []string{"r", "esc"}},
		{"edit then esc", []string{"r", "e", "esc"}},
		{"edit key then esc", []string{"e", "esc"}},
		{"edit, review, decline", []string{"e", "ctrl+s", "n"}},
		{"mark without running", []string{"p", "f", "s"}},
		{"quit from the dialog", []string{"r", "q"}},
		{"walk and land without running", []string{"tab", "tab", "tab", "tab", "tab", "enter"}},
		{"y outside a dialog", []string{"y"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f := &fakeLander{plan: uitest.SamplePlan(), landed: uitest.SampleLanded()}
			d := newLandingApp(t, f, dir)
			d.Keys("tab")
			d.Keys(tc.keys...)
			if _, err := os.Stat(filepath.Join(dir, "created-by-how")); err == nil {
				t.Fatal("the sender's command ran without confirmation")
			}
		})
	}
}

// Editing makes the command the person's own: what runs is the edited text.
func TestEditedCommandRuns(t *testing.T) {
	dir := t.TempDir()
	var got howrun.Confirmed
	f := &fakeLander{plan: uitest.SamplePlan(), landed: uitest.SampleLanded()}
	c := uitest.Common(t, common.Deps{Lander: f, RunHow: func(ctx context.Context, cf howrun.Confirmed, o howrun.Options) (howrun.Result, error) {
		got = cf
		return howrun.Run(ctx, cf, o)
	}})
	c.WorkDir = dir
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Keys("tab", "r", "e")
	for range len("created-by-how") {
		d.Keys("backspace")
	}
	d.TypeText("mine")
	d.Keys("ctrl+s")
	v := d.View()
	if !strings.Contains(v, "You edited it: it is your command now.") || !strings.Contains(v, "touch mine") {
		t.Fatalf("review after editing:\n%s", v)
	}
	d.Keys("y")
	if got.Command != "touch mine" || got.FromSender || got.Dir != dir {
		t.Fatalf("ran %+v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "mine")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "created-by-how")); err == nil {
		t.Fatal("the sender's command ran instead of the edited one")
	}
}

// A hostile `how` is shown defused, and editing starts from the defused
// text, so what the person sees is what runs.
func TestHostileHowShownSafely(t *testing.T) {
	p := uitest.SamplePlan()
	p.Checks[0].How = "echo hi " + uitest.Hostile
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: p}})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Keys("tab", "r")
	uitest.AssertSafe(t, d.View())
	d.Keys("e")
	uitest.AssertSafe(t, d.View())
	l := landingOf(d)
	if v := editorText(l); strings.ContainsRune(v, 0x1b) || !strings.Contains(v, `\x1b`) {
		t.Fatalf("edit field starts from %q", v)
	}
}

// A command longer than the screen can be read to its last byte before it
// is confirmed.
func TestLongHowScrolls(t *testing.T) {
	p := uitest.SamplePlan()
	p.Checks[0].How = strings.Repeat("echo step; ", 200) + "echo LAST-BYTE"
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: p}})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Keys("tab", "r")
	v := d.View()
	if strings.Contains(v, "LAST-BYTE") || !strings.Contains(v, "↑/↓ to read it all") || !strings.Contains(v, "↓/G to the end, then y runs it") {
		t.Fatalf("first page:\n%s", v)
	}
	d.Keys("G")
	if v := d.View(); !strings.Contains(v, "LAST-BYTE") || !strings.Contains(v, "y run it") {
		t.Fatalf("after scrolling:\n%s", v)
	}
}

// D11 + D12: a how with control or bidi characters is shown escaped in the
// confirmation, which says that the escaped bytes run as the pack wrote
// them; a plain how gets no such warning.
func TestConfirmWarnsOfEscapedCommand(t *testing.T) {
	for _, tc := range []struct {
		how  string
		warn bool
	}{
		{"echo \x1b[31mhi \u202eevil", true},
		{"echo hi", false},
	} {
		p := uitest.SamplePlan()
		p.Checks[0].How = tc.how
		d := newLandingApp(t, &fakeLander{plan: p}, t.TempDir())
		d.Keys("tab", "r")
		v := d.View()
		uitest.AssertSafe(t, v)
		if got := strings.Contains(v, "run as the pack wrote them"); got != tc.warn {
			t.Errorf("how %q: warning shown = %v, want %v:\n%s", tc.how, got, tc.warn, v)
		}
	}
}

// Issue 11: a how of `ls /tmp`, 80 blank lines, then the line that matters
// shows only `ls /tmp` at first. The confirmation says how many lines it
// has, flags the padding, and y runs nothing until the end was on screen.
func TestHowRunsOnlyAfterItsEndWasShown(t *testing.T) {
	for _, tc := range []struct {
		name, how string
		flags     []string
	}{
		{"blank lines", "ls /tmp" + strings.Repeat("\n", 80) + "touch hidden", []string{"81 lines", "79 blank lines"}},
		{"space padding", "ls /tmp" + strings.Repeat(" ", 3000) + "; touch hidden", []string{"1 line", "a run of 3000 spaces"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rr := &uitest.RecordRunner{}
			c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(tc.how)}, RunHow: rr.Run})
			d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
			d.Keys("tab", "r")
			v := d.View()
			for _, f := range tc.flags {
				if !strings.Contains(v, f) {
					t.Errorf("the confirmation does not say %q:\n%s", f, v)
				}
			}
			if strings.Contains(v, "touch hidden") {
				t.Fatalf("the hidden line is on the first page; the test proves nothing:\n%s", v)
			}
			d.Keys("y", "down", "y")
			if len(rr.Got) != 0 {
				t.Fatalf("y ran %q before the end was shown", rr.Got[0].Command)
			}
			if !strings.Contains(d.View(), "Read it to the end first") {
				t.Fatalf("y too early is not explained:\n%s", d.View())
			}
			d.Keys("G")
			if !strings.Contains(d.View(), "hidden") {
				t.Fatalf("G does not show the end:\n%s", d.View())
			}
			d.Keys("y")
			if len(rr.Got) != 1 || rr.Got[0].Command != tc.how {
				t.Fatalf("after reading to the end, y ran %+v", rr.Got)
			}
		})
	}
}

// A command that fits needs no scrolling: y runs it at once, and the
// confirmation still says how many lines it has.
func TestShortHowRunsAtOnce(t *testing.T) {
	rr := &uitest.RecordRunner{}
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(uitest.TwoLineHow)}, RunHow: rr.Run})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Keys("tab", "r")
	if v := d.View(); !strings.Contains(v, "2 lines") || strings.Contains(v, "blank") {
		t.Fatalf("confirmation:\n%s", v)
	}
	d.Keys("y")
	if len(rr.Got) != 1 {
		t.Fatal("y did not run a command shown whole")
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
		// Opening the editor and keeping it unchanged is no edit (issue 17).
		{"edit unchanged", []string{"r", "e", "ctrl+s"}, "", nil, uitest.TwoLineHow},
		{"edit key from the list", []string{"e", "ctrl+s"}, "", nil, uitest.TwoLineHow},
		{"add a third line", []string{"r", "e", "enter"}, "echo third-line", nil, uitest.TwoLineHow + "\necho third-line"},
		{"join the lines", []string{"r", "e", "up", "end", "delete"}, "; ", nil, "echo first-line; echo second-line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rr := &uitest.RecordRunner{}
			c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(uitest.TwoLineHow)}, RunHow: rr.Run})
			d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
			d.Keys("tab")
			d.Keys(tc.keys...)
			l := landingOf(d)
			if !l.Capturing() && tc.typed != "" {
				t.Fatal("the editor is not open")
			}
			if tc.typed != "" {
				d.TypeText(tc.typed)
				d.Keys("ctrl+s")
			}
			if editorOpen(l) {
				t.Fatal("ctrl+s did not end editing")
			}
			v := d.View()
			edited := tc.want != uitest.TwoLineHow
			if strings.Contains(v, "You edited it") != edited {
				t.Fatalf("the review after editing (edited: %v):\n%s", edited, v)
			}
			uitest.HasLines(t, v, strings.Split(tc.want, "\n")...)
			d.Keys("y")
			if len(rr.Got) != 1 {
				t.Fatalf("ran %d commands", len(rr.Got))
			}
			if got := rr.Got[0]; got.Command != tc.want || got.FromSender == edited {
				t.Fatalf("ran %q (from sender %v), want %q", got.Command, got.FromSender, tc.want)
			}
		})
	}
}

// The sender's two-line command, unedited, is shown on two rows and runs
// as they wrote it.
func TestMultiLineHowConfirmUnedited(t *testing.T) {
	rr := &uitest.RecordRunner{}
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(uitest.TwoLineHow)}, RunHow: rr.Run})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Keys("tab", "r")
	v := d.View()
	uitest.HasLines(t, v, "Run this command", "echo first-line", "echo second-line", "y run it")
	if strings.Contains(v, "control or bidi") {
		t.Fatalf("a plain two-line command is warned about:\n%s", v)
	}
	d.Keys("y")
	if len(rr.Got) != 1 || rr.Got[0].Command != uitest.TwoLineHow || !rr.Got[0].FromSender {
		t.Fatalf("ran %+v", rr.Got)
	}
}

// The editor itself shows the command on its lines, and enter there is a
// new line, not the end of editing; the help says which key reviews.
func TestMultiLineHowEditorView(t *testing.T) {
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(uitest.TwoLineHow)}})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Keys("tab", "r", "e")
	l := landingOf(d)
	if got := editorText(l); got != uitest.TwoLineHow {
		t.Fatalf("editor holds %q, want %q", got, uitest.TwoLineHow)
	}
	v := d.View()
	uitest.HasLines(t, v, "Edit the command", "echo first-line", "echo second-line", "ctrl+s: review")
	d.Keys("enter")
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
	rr := &uitest.RecordRunner{}
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow("echo a\r\necho b")}, RunHow: rr.Run})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Keys("tab", "r")
	v := d.View()
	uitest.AssertSafe(t, v)
	uitest.HasLines(t, v, `echo a\r`, "echo b", "control or bidi")
	d.Keys("e", "ctrl+s")
	if v := d.View(); strings.Contains(v, "control or bidi") {
		t.Fatalf("warned about a command with no control characters left:\n%s", v)
	}
	d.Keys("y")
	if len(rr.Got) != 1 || rr.Got[0].Command != "echo a\\r\necho b" {
		t.Fatalf("ran %+v", rr.Got)
	}
}

// At 60×20 a long command must be read to its end: the first page says
// how (↓/G), and its rows wrap under their labels.
func TestLongHowGolden60x20(t *testing.T) {
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow("ls /tmp" + strings.Repeat("\n", 30) + "echo END")}})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Send(tea.WindowSizeMsg{Width: 60, Height: 20})
	d.Keys("tab", "r")
	t.Run("first-page", func(t *testing.T) { uitest.RequireGolden(t, d.View()) })
	d.Keys("G")
	t.Run("end", func(t *testing.T) { uitest.RequireGolden(t, d.View()) })
}

// Golden: the editor and the review of a two-line command at 80×24.
func TestMultiLineHowGoldens(t *testing.T) {
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(uitest.TwoLineHow)}})
	c.WorkDir = "/fake/here"
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	d.Keys("tab", "r")
	t.Run("confirm", func(t *testing.T) { uitest.RequireGolden(t, d.View()) })
	d.Keys("e")
	t.Run("edit", func(t *testing.T) { uitest.RequireGolden(t, d.View()) })
	d.Keys("enter")
	d.TypeText("echo third-line")
	d.Keys("ctrl+s")
	t.Run("review", func(t *testing.T) { uitest.RequireGolden(t, d.View()) })
}

// A row the screen wrapped is marked as continuing its line, so it cannot
// be taken for a newline the shell would see.
func TestLongLineContinuationMarked(t *testing.T) {
	how := "echo " + strings.Repeat("word ", 30) + "END\necho next"
	c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(how)}})
	d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
	d.Keys("tab", "r")
	v := d.View()
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

// e then ctrl+s with no change is not an edit: the command stays the
// sender's, and says so; on a command with control characters only the
// escapes became text, and the dialog says that instead of "You edited
// it" (issue 17).
func TestEditWithoutChangeIsNotAnEdit(t *testing.T) {
	for _, tc := range []struct {
		how, want, not string
		fromSender     bool
	}{
		{"true unchanged", "It was written by the sender", "You edited it", true},
		{"printf '\x1b[2J'", "You changed nothing but its control characters", "You edited it", false},
	} {
		var got howrun.Confirmed
		c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(tc.how)}, RunHow: func(ctx context.Context, cf howrun.Confirmed, o howrun.Options) (howrun.Result, error) {
			got = cf
			return howrun.Result{Command: cf.Command}, nil
		}})
		c.WorkDir = t.TempDir()
		d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
		d.Keys("tab", "r", "e", "ctrl+s")
		v := d.View()
		if !strings.Contains(v, tc.want) || strings.Contains(v, tc.not) {
			t.Errorf("%q: review after e, ctrl+s:\n%s", tc.how, v)
		}
		d.Keys("y")
		if got.FromSender != tc.fromSender {
			t.Errorf("%q: ran %+v", tc.how, got)
		}
	}
}

// D12 + D5: the screen does not show a credential-like part of a command
// (D5 redacts it: "…⟨credential-like (url-password), not shown⟩"), so a
// sender could put what matters there, and y ran what the person never
// read: the rest of a line after a private key's BEGIN line, a command
// substitution as a URL's password. A sender's command with a part not
// shown does not run as sent; editing starts from what is shown, so what
// then runs is exactly text the person read or wrote.
func TestHowWithAPartNotShownDoesNotRun(t *testing.T) {
	for _, how := range []string{
		"echo start; -----BEGIN OPENSSH PRIVATE KEY----- ; touch hidden",
		"curl -s https://u:pa$(touch${IFS}hidden)ss@example.invalid/x",
		"echo start\n-----BEGIN OPENSSH PRIVATE KEY-----\ntouch hidden\n-----END OPENSSH PRIVATE KEY-----\necho end",
		"echo ghp_" + strings.Repeat("a", 36) + "; echo shown",
	} {
		rr := &uitest.RecordRunner{}
		c := uitest.Common(t, common.Deps{Lander: &fakeLander{plan: uitest.PlanWithHow(how)}, RunHow: rr.Run})
		d := uitest.NewDriver(t, &uitest.Screen{C: New(c, "x")})
		d.Keys("tab", "r", "G", "y")
		if len(rr.Got) != 0 {
			t.Fatalf("y ran %q, which the screen showed as:\n%s", rr.Got[0].Command, d.View())
		}
		v := d.View()
		if !strings.Contains(v, "not shown") || !strings.Contains(v, "tp does not run it as sent") {
			t.Fatalf("the confirmation does not say why y runs nothing:\n%s", v)
		}
		d.Keys("e", "ctrl+s", "G", "y")
		if len(rr.Got) != 1 || rr.Got[0].Command != components.ShownCommand(how) {
			t.Fatalf("after editing, ran %+v; the editor showed %q", rr.Got, components.ShownCommand(how))
		}
		if rr.Got[0].FromSender {
			t.Fatalf("the edited command is still called the sender's: %+v", rr.Got[0])
		}
	}
}
