package landing

import (
	"fmt"
	"strings"

	c "github.com/tp-dev/tp/ui/components"
)

// The walkthrough's drawing: the step bar, progress, and the landed screen.
// View only reads.

// View draws the walkthrough in l.w × l.h.
func (l *Landing) View() string {
	th := l.c.Theme
	switch l.phase {
	case PhaseLoading:
		return c.Pad(l.progressLines("Reading "+c.Line(l.file)), l.w, l.h)
	case PhaseFailed:
		return c.Pad(append([]string{th.Error.Render("✗ could not open " + c.Line(l.file))}, c.Wrap(l.err.Error(), l.w)...), l.w, l.h)
	case PhaseCancelled:
		return c.Pad([]string{th.Warn.Render("Cancelled. Nothing was written."), "", th.Muted.Render("esc or q to leave")}, l.w, l.h)
	case PhaseDone:
		// The next steps of a pack with many asks and checks run longer
		// than the screen: they scroll, and how to leave stays in sight.
		ls := l.doneLines()
		if len(ls) <= l.h {
			return c.Pad(ls, l.w, l.h)
		}
		vis, _ := l.doneOff.View(ls[:len(ls)-1], l.h)
		vis[len(vis)-1] = th.Muted.Render(vis[len(vis)-1])
		return c.Pad(vis, l.w, l.h)
	}
	body := l.steps[l.step].View()
	if l.notice != "" && l.step == StepSummary {
		ls := strings.Split(body, "\n")
		body = c.Pad(append([]string{th.Warn.Render(l.notice)}, ls...), l.w, l.h-2)
	}
	if l.phase == PhaseStaging {
		body = c.Pad(l.progressLines("Unpacking the luggage, so the checks run where its files are"), l.w, l.h-2)
	}
	if l.phase == PhaseLanding {
		cf := l.steps[StepConfirm].(*confirm)
		body = c.Pad(append(cf.lines(false), append([]string{""}, l.progressLines("Landing")...)...), l.w, l.h-2)
	}
	return l.stepBar() + "\n\n" + body
}

// stepBar names every step; when that does not fit the width, the others
// shrink to their numbers, and at the narrowest only the current step is
// named — it is never the part cut off.
func (l *Landing) stepBar() string {
	for _, short := range []bool{false, true} {
		if bar := l.stepBarOf(short); c.Width(bar) <= l.w {
			return bar
		}
	}
	th := l.c.Theme
	return c.Fit(th.TabOn.Render(fmt.Sprintf("%d/%d %s", l.step+1, StepCount, StepNames[l.step])), l.w)
}

func (l *Landing) stepBarOf(short bool) string {
	th := l.c.Theme
	parts := make([]string, StepCount)
	for i := 0; i < StepCount; i++ {
		name := fmt.Sprintf("%d %s", i+1, StepNames[i])
		if short && i != l.step {
			name = fmt.Sprintf("%d", i+1)
		}
		if i == StepChecks {
			if n := l.s.PendingRequired(); n > 0 {
				name += fmt.Sprintf(" (%d)", n)
			}
		}
		if i == l.step {
			parts[i] = th.TabOn.Render(name)
		} else {
			parts[i] = th.Tab.Render(name)
		}
	}
	return strings.Join(parts, th.Muted.Render(" › "))
}

func (l *Landing) progressLines(what string) []string {
	th := l.c.Theme
	out := []string{l.spin.View() + " " + th.Text.Render(what)}
	phase := l.pPhase
	if phase == "" {
		phase = "working"
	}
	if l.pTotal > 0 {
		pct := float64(l.pDone) / float64(l.pTotal)
		out = append(out, "", l.prog.ViewAs(pct),
			th.Muted.Render(fmt.Sprintf("%s: %s of %s", c.Line(phase), c.HumanBytes(l.pDone), c.HumanBytes(l.pTotal))))
	} else if l.pDone > 0 {
		out = append(out, "", th.Muted.Render(fmt.Sprintf("%s: %s", c.Line(phase), c.HumanBytes(l.pDone))))
	}
	if l.cancelled {
		out = append(out, "", th.Warn.Render("cancelling… nothing will be left half-written"))
	} else {
		out = append(out, "", th.Muted.Render("ctrl+c cancels; nothing is written until you confirm"))
	}
	return out
}

func (l *Landing) doneLines() []string {
	th, r := l.c.Theme, l.landed
	out := []string{th.Pass.Render("✓ Landed as ") + th.Title.Render(c.Line(r.ID)), ""}
	if r.FilesDir != "" {
		// A path is wrapped, never cut (issue 17).
		out = append(out, th.Muted.Render("luggage in"))
		for _, ln := range c.WrapPath(r.FilesDir, l.w-2) {
			out = append(out, "  "+ln)
		}
		out = append(out, "")
	}
	out = append(out, th.Subtitle.Render("Next steps, in order"))
	for i, s := range r.NextSteps {
		// Drawn as the inline Markdown they are written in: no raw
		// backticks or **…** (issue 17).
		ws := c.Inline(th, s, l.w-6)
		out = append(out, fmt.Sprintf("%3d. %s", i+1, ws[0]))
		for _, ln := range ws[1:] {
			out = append(out, "     "+ln)
		}
	}
	for _, w := range r.Warnings {
		ws := c.Inline(th, w, l.w-2)
		out = append(out, th.Warn.Render("⚠ ")+ws[0])
		for _, ln := range ws[1:] {
			out = append(out, "  "+ln)
		}
	}
	out = append(out, "", th.Muted.Render("enter or esc to finish"))
	return out
}
