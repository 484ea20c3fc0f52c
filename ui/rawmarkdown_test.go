package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"
)

// longPath is a path wider than a 60-column screen.
const longPath = "/srv/shared/tp-store/passports/backup-of-the-team/TP-YEBF-B4XJ.files/receipts/from-the-peer"

// joined is a view's text with the line breaks and indents a wrap adds
// taken out, so a wrapped path reads whole again.
func joined(v string) string {
	var b strings.Builder
	for _, ln := range strings.Split(v, "\n") {
		b.WriteString(strings.TrimSpace(ln))
	}
	return b.String()
}

// The landing's done screen and the asks screen's "receipt written" draw
// the Markdown their sentences are written in (no raw backticks or **…**),
// and wrap a path at 60 columns rather than cut it (issue 17).
func TestDoneScreensDrawMarkdownAndWholePaths(t *testing.T) {
	for _, w := range []int{60, 80, 100} {
		landed := sampleLanded()
		landed.FilesDir = longPath
		landed.NextSteps = append(landed.NextSteps, "run `make test` and **check** the output")
		landed.Warnings = []string{"the file `" + longPath + "` is **large**"}
		f := &fakeLander{plan: samplePlan(), landed: landed}
		c := testCommon(t, common.Deps{Lander: f})
		c.Theme = colorTheme(t, "default")
		d := newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
		d.send(tea.WindowSizeMsg{Width: w, Height: 40})
		for s := 0; s < landing.StepCount; s++ {
			d.keys("tab")
		}
		d.keys("enter")
		v := d.view()
		assertSafe(t, v)
		plain := stripANSI(v)
		if !strings.Contains(plain, "make test") || strings.Contains(plain, "`") || strings.Contains(plain, "**") {
			t.Errorf("at %d columns the done screen shows raw Markdown or lacks the step:\n%s", w, plain)
		}
		if !strings.Contains(joined(plain), longPath) || strings.Count(joined(plain), longPath) != 2 {
			t.Errorf("at %d columns the done screen cuts the path:\n%s", w, plain)
		}

		ac := testCommon(t, common.Deps{Asks: &fakeAsks{sheet: sampleSheet()}})
		ac.Theme = colorTheme(t, "default")
		ad := newDriver(t, New(ac, NewAsks(ac, "TP-AB23-CD45")))
		ad.send(tea.WindowSizeMsg{Width: w, Height: 24})
		ad.keys("d", "w", "y", "y")
		as := ad.app().Top().(*AsksScreen)
		as.path.SetValue(longPath + ".taskpack")
		ad.keys("enter")
		if v := stripANSI(ad.view()); !strings.Contains(joined(v), longPath+".taskpack") {
			t.Errorf("at %d columns the receipt's review cuts the path:\n%s", w, v)
		}
		ad.keys("enter")
		plain = stripANSI(ad.view())
		if !strings.Contains(plain, "receipt written") || strings.Contains(plain, "`") {
			t.Errorf("at %d columns the receipt screen shows raw Markdown:\n%s", w, plain)
		}
		if !strings.Contains(joined(plain), longPath+".taskpack") {
			t.Errorf("at %d columns the receipt screen cuts the path:\n%s", w, plain)
		}
	}
}

// stripANSI is v without its escape sequences.
func stripANSI(v string) string { return ansi.Strip(v) }

type pathPassport struct{}

func (pathPassport) LoadPassport(ctx context.Context, id string) (*common.PassportView, error) {
	return &common.PassportView{Text: common.PassportText{Title: "t", Goal: "g"}, Version: 1, FilesDir: longPath}, nil
}

// The passport screen and the landing's luggage step wrap a path wider
// than the screen rather than cut it (issue 17).
func TestPathsAreWrappedNotCut(t *testing.T) {
	for _, w := range []int{60, 80, 100} {
		c := testCommon(t, common.Deps{Passports: pathPassport{}})
		d := newDriver(t, New(c, NewPassport(c, "TP-AB23-CD45")))
		d.send(tea.WindowSizeMsg{Width: w, Height: 20})
		if v := d.view(); !strings.Contains(joined(v), longPath) {
			t.Errorf("at %d columns the passport screen cuts the path:\n%s", w, v)
		}
		plan := samplePlan()
		plan.Luggage = append(plan.Luggage, common.LuggageFile{Name: longPath[1:] + "/data.csv", Size: 10})
		lc := testCommon(t, common.Deps{Lander: &fakeLander{plan: plan}})
		ld := newDriver(t, New(lc, landing.New(lc, "handoff.taskpack")))
		ld.send(tea.WindowSizeMsg{Width: w, Height: 40})
		for s := 0; s < landing.StepLuggage; s++ {
			ld.keys("tab")
		}
		if v := ld.view(); !strings.Contains(joined(v), longPath[1:]+"/data.csv") {
			t.Errorf("at %d columns the luggage step cuts a file name:\n%s", w, v)
		}
	}
}
