package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// View draws the walkthrough in l.w × l.h.
func (l *Landing) View() string {
	th := l.c.Theme
	switch l.phase {
	case PhaseLoading:
		return pad(l.progressLines("Reading "+line(l.file)), l.w, l.h)
	case PhaseFailed:
		return pad(append([]string{th.Error.Render("✗ could not open " + line(l.file))}, wrap(l.err.Error(), l.w)...), l.w, l.h)
	case PhaseCancelled:
		return pad([]string{th.Warn.Render("Cancelled. Nothing was written."), "", th.Muted.Render("esc or q to leave")}, l.w, l.h)
	case PhaseDone:
		// The next steps of a pack with many asks and checks run longer
		// than the screen: they scroll, and how to leave stays in sight.
		ls := l.doneLines()
		if len(ls) <= l.h {
			return pad(ls, l.w, l.h)
		}
		vis, off := window(ls[:len(ls)-1], l.doneOff, l.h-1)
		l.doneOff = off
		more := fmt.Sprintf("lines %d–%d of %d · ↑/↓ pgup/pgdn scroll · enter or esc to finish", off+1, off+len(vis), len(ls)-1)
		return pad(append(vis, th.Muted.Render(more)), l.w, l.h)
	}
	bar := l.stepBar()
	bodyH := l.h - 2
	if l.checksOnly {
		bar, bodyH = "", l.h
	}
	var body string
	switch {
	case l.dialog.open:
		body = l.dialogView(bodyH)
	case l.phase == PhaseLanding:
		body = pad(append(l.confirmLines(), append([]string{""}, l.progressLines("Landing")...)...), l.w, bodyH)
	default:
		body = l.stepView(bodyH)
	}
	if l.checksOnly {
		return body
	}
	return bar + "\n\n" + body
}

func (l *Landing) stepBar() string {
	th := l.c.Theme
	parts := make([]string, stepCount)
	for i := 0; i < stepCount; i++ {
		name := fmt.Sprintf("%d %s", i+1, stepNames[i])
		if i == StepChecks && l.plan != nil {
			if n := l.pendingRequired(); n > 0 {
				name += fmt.Sprintf(" (%d)", n)
			}
		}
		if i == l.step {
			parts[i] = th.TabOn.Render(name)
		} else {
			parts[i] = th.Tab.Render(name)
		}
	}
	return fit(strings.Join(parts, th.Muted.Render(" › ")), l.w)
}

func (l *Landing) pendingRequired() int {
	n := 0
	for _, c := range l.plan.Checks {
		if c.Required && l.status(c) == "pending" {
			n++
		}
	}
	return n
}

func (l *Landing) status(c Check) string {
	if d, ok := l.checks[c.ID]; ok && d.Status != "" {
		return d.Status
	}
	if c.Status != "" {
		return c.Status
	}
	return "pending"
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
			th.Muted.Render(fmt.Sprintf("%s: %s of %s", line(phase), humanBytes(l.pDone), humanBytes(l.pTotal))))
	} else if l.pDone > 0 {
		out = append(out, "", th.Muted.Render(fmt.Sprintf("%s: %s", line(phase), humanBytes(l.pDone))))
	}
	if l.cancelled {
		out = append(out, "", th.Warn.Render("cancelling… nothing will be left half-written"))
	} else {
		out = append(out, "", th.Muted.Render("ctrl+c cancels; nothing is written until you confirm"))
	}
	return out
}

func (l *Landing) stepView(h int) string {
	switch l.step {
	case StepSummary:
		ls := l.summaryLines()
		vis, off := window(ls, l.sumOff, h)
		l.sumOff = off
		return pad(vis, l.w, h)
	case StepChecks:
		return l.checksView(h)
	case StepFacts:
		return l.factsView(h)
	case StepAsks:
		return l.asksView(h)
	case StepPassport:
		return pad(strings.Split(l.pass.View(), "\n"), l.w, h)
	case StepLuggage:
		ls := l.luggageLines()
		vis, off := window(ls, l.lugOff, h)
		l.lugOff = off
		return pad(vis, l.w, h)
	case StepConfirm:
		ls := l.confirmLines()
		if l.err != nil {
			ls = append(ls, "", l.c.Theme.Error.Render("✗ ")+line(l.err.Error()))
		}
		return pad(ls, l.w, h)
	}
	return ""
}

func label(th lipgloss.Style, s string) string { return th.Render(fmt.Sprintf("%-12s", s)) }

// ---- summary --------------------------------------------------------------

func (l *Landing) summaryLines() []string {
	th, p := l.c.Theme, l.plan
	lb := func(s string) string { return label(th.Muted, s) }
	o := p.Origin
	from := th.Sender.Render(line(o.By()))
	if o.Harness != "" {
		from += th.Muted.Render(" · harness ") + th.Sender.Render(line(o.Harness))
	}
	// A labelled row hangs its value under itself when it does not fit:
	// the ends of these rows (the note, the manifests) are not to be cut.
	// Values are sanitised already; ansi.Wrap only keeps tp's own styles.
	var out []string
	row := func(name, v string) {
		vs := strings.Split(ansi.Wrap(v, max(l.w-12, 10), " "), "\n")
		out = append(out, lb(name)+vs[0])
		for _, x := range vs[1:] {
			out = append(out, strings.Repeat(" ", 12)+x)
		}
	}
	row("From", from)
	row("Packed", line(p.PackedAt)+th.Muted.Render(" · ")+line(p.Kind))
	if p.Note != "" {
		row("Note", th.Data.Render("“"+line(p.Note)+"”"))
	}
	row("Lineage", l.hops())
	row("Integrity", l.integrity())
	row("Conformance", l.conformanceGlance())
	for _, c := range p.Conformance {
		if !c.Pass {
			row("", th.Fail.Render("✗ "+line(c.ID))+" "+line(c.Reason))
		}
	}
	sealed := 0
	for _, f := range p.Facts {
		if f.Sealed {
			sealed++
		}
	}
	req := 0
	for _, c := range p.Checks {
		if c.Required {
			req++
		}
	}
	open := 0
	for _, a := range p.Asks {
		if a.Status == "" || a.Status == "open" {
			open++
		}
	}
	row("Contents", fmt.Sprintf("%d/%d checks required · %d/%d facts sealed · %d/%d asks open",
		req, len(p.Checks), sealed, len(p.Facts), open, len(p.Asks)))
	if p.AlreadyLanded != "" {
		out = append(out, "", th.Warn.Render("⚠ this exact file was already landed as "+line(p.AlreadyLanded)))
	}
	if len(p.Warnings) > 0 {
		out = append(out, "", th.Warn.Render(fmt.Sprintf("⚠ %d warnings", len(p.Warnings)))+th.Muted.Render(" — quoted from the pack; data, not instructions (§4.5)"))
		for _, w := range p.Warnings {
			out = append(out, "  "+th.Warn.Render("⚠ "+warningKind(w.Kind))+th.Muted.Render(" · "+line(w.Where)))
			if w.Text != "" {
				for _, ln := range wrap(w.Text, l.w-6) {
					out = append(out, "    "+th.Data.Render("│ "+ln))
				}
			}
		}
	}
	out = append(out, "", th.Muted.Render("Next: the required landing checks, before anything else (§4.4)."))
	return out
}

func warningKind(k string) string {
	switch k {
	case "instruction":
		return "reads like an instruction"
	case "instruction-field":
		return "instruction field"
	case "repair":
		return "repaired on reading"
	case "credential":
		return "looks like a credential"
	case "transcript":
		return "looks like a chat transcript"
	}
	return line(k)
}

func (l *Landing) hops() string {
	th := l.c.Theme
	var parts []string
	for _, e := range l.plan.Lineage.Chain {
		parts = append(parts, th.Sender.Render(line(e)))
	}
	if l.plan.Kind != "receipt" {
		parts = append(parts, th.Key.Render("(here: a new id)"))
	}
	if len(l.plan.Lineage.Chain) == 0 {
		return th.Warn.Render("no chain") + th.Muted.Render(" · root "+line(l.plan.Lineage.RootID))
	}
	return strings.Join(parts, th.Muted.Render(" → "))
}

func (l *Landing) integrity() string {
	th, in := l.c.Theme, l.plan.Integrity
	s := th.Fail.Render("✗ not verified")
	if in.Verified {
		s = th.Pass.Render("✓ verified")
	}
	s += th.Muted.Render(fmt.Sprintf(" · %d files · %s", in.Files, humanBytes(in.Bytes)))
	if in.Encoding != "" {
		s += th.Muted.Render(" · ." + line(in.Encoding))
	}
	if in.Detail != "" {
		s += th.Muted.Render(" · " + line(in.Detail))
	}
	return s
}

func (l *Landing) conformanceGlance() string {
	th := l.c.Theme
	if len(l.plan.Conformance) == 0 {
		switch {
		case l.judging:
			return th.Muted.Render("judging…")
		case l.judgeErr != nil:
			return th.Fail.Render("✗ ") + line(l.judgeErr.Error())
		}
		return th.Muted.Render("not judged")
	}
	var parts []string
	for _, c := range l.plan.Conformance {
		if c.Pass {
			parts = append(parts, th.Pass.Render(line(c.ID)+"✓"))
		} else {
			parts = append(parts, th.Fail.Render(line(c.ID)+"✗"))
		}
	}
	return strings.Join(parts, " ")
}

// ---- checks ---------------------------------------------------------------

func (l *Landing) checkListHeight() int {
	n := len(l.plan.Checks)
	return max(min(n, (l.h-2)/3), 1)
}

func (l *Landing) checkIcon(s string) string {
	th := l.c.Theme
	switch s {
	case "passed":
		return th.Pass.Render("✓ passed ")
	case "failed":
		return th.Fail.Render("✗ failed ")
	case "skipped":
		return th.Warn.Render("– skipped")
	}
	return th.Muted.Render("○ pending")
}

func (l *Landing) checksView(h int) string {
	th, p := l.c.Theme, l.plan
	if len(p.Checks) == 0 {
		return pad([]string{th.Muted.Render("This pack asks for no landing checks.")}, l.w, h)
	}
	lh := l.checkListHeight()
	l.checkOff = follow(l.checkOff, l.checkCur, lh, len(p.Checks))
	var out []string
	for i := l.checkOff; i < min(l.checkOff+lh, len(p.Checks)); i++ {
		c := p.Checks[i]
		req := th.Muted.Render("optional")
		if c.Required {
			req = th.Warn.Render("required")
		}
		row := fmt.Sprintf("%s %s  %s", l.checkIcon(l.status(c)), req, line(c.Check))
		if i == l.checkCur {
			out = append(out, th.Cursor.Render("▸ ")+fit(row, l.w-2))
		} else {
			out = append(out, "  "+fit(row, l.w-2))
		}
	}
	out = append(out, th.Muted.Render(strings.Repeat("─", max(l.w, 1))))
	c := p.Checks[l.checkCur]
	out = append(out, th.Subtitle.Render("Check ")+th.Muted.Render(line(c.ID)+" · ")+l.checkIcon(l.status(c)))
	for _, ln := range wrap(c.Check, l.w-2) {
		out = append(out, " "+ln)
	}
	if c.How != "" {
		out = append(out, strings.Split(l.senderBox(c.How, "suggested by "+line(p.Origin.By()), l.w), "\n")...)
	} else {
		out = append(out, th.Muted.Render(" The sender suggested no command. Check it your own way, or press e to run one of yours."))
	}
	if l.running == c.ID {
		out = append(out, l.spin.View()+" "+th.Text.Render("running in "+line(l.c.WorkDir)+"…")+th.Muted.Render(" ctrl+c stops it"))
		if l.cancelled {
			out = append(out, th.Warn.Render("stopping…"))
		}
	} else if r, ok := l.results[c.ID]; ok {
		who := "the sender's command"
		if d := l.checks[c.ID]; d.Command != c.How {
			who = "your command"
		}
		st := th.Pass.Render("✓ " + r.Summary())
		if !r.OK() {
			st = th.Fail.Render("✗ " + r.Summary())
		}
		if r.Truncated {
			st += th.Muted.Render(" · output cut")
		}
		out = append(out, th.Muted.Render("Ran "+who+": ")+st)
		rest := h - len(out) - 1
		if rest > 0 {
			l.out.Height = rest
			out = append(out, strings.Split(l.out.View(), "\n")...)
		}
		out = append(out, th.Muted.Render("Mark it as you judge it: p passed · f failed · s skipped"))
	}
	return pad(out, l.w, h)
}

// shownCommand is a command as the person reads it: each line sanitised on
// its own (D11), so the newlines the shell will see stay real lines and a CR
// before one is shown as \r rather than silently dropped.
func shownCommand(s string) string {
	ls := strings.Split(s, "\n")
	for i, x := range ls {
		ls[i] = text(x)
	}
	return strings.Join(ls, "\n")
}

// cutRows cuts one line of a command into rows of at most w cells that
// join back to exactly that line.
func cutRows(ln string, w int) []string {
	return strings.Split(ansi.Hardwrap(ln, max(w, 1), true), "\n")
}

// contMark starts a row that continues the command's line above.
const contMark = "↪ "

// senderBox frames text that came from the sender, labelled as theirs.
func (l *Landing) senderBox(how, label string, width int) string {
	th := l.c.Theme
	inner := max(width-4, 10)
	var body []string
	wrapped := false
	for _, ln := range strings.Split(shownCommand(how), "\n") {
		if ansi.StringWidth(ln) <= inner {
			body = append(body, ln)
			continue
		}
		// A line too long for the box is cut at the width, every space
		// kept, and its continuations marked: a row the screen wrapped
		// must not read as a newline the shell would see (D12).
		wrapped = true
		for i, seg := range cutRows(ln, inner-2) {
			if i > 0 {
				seg = th.Muted.Render(contMark) + seg
			}
			body = append(body, seg)
		}
	}
	if wrapped {
		body = append(body, th.Muted.Render("("+strings.TrimSpace(contMark)+" continues the line above, it is not a new line)"))
	}
	return th.SenderBox.Width(inner + 2).Render(th.Sender.Render(label) + "\n" + strings.Join(body, "\n"))
}

func (l *Landing) dialogView(h int) string {
	th := l.c.Theme
	d := l.dialog
	var ls []string
	if d.trusting {
		ls = append(ls, th.Warn.Render("Restore ✓ on facts proven on this machine?"), "")
		for _, f := range l.plan.Facts {
			if f.Restorable {
				ls = append(ls, " "+th.Warn.Render("⚠ ")+line(f.Claim)+th.Muted.Render(" · verified_on "+line(f.VerifiedOn)))
			}
		}
		ls = append(ls, "")
		ls = append(ls, wrap("§4.2: verified_on is written by whoever wrote the pack, like every other byte of it. A pack made by hand can name your machine. Matching it proves the pack says the fact was proven here, not that it was: restoring trusts the pack's whole journey, and belongs to packs you made yourself.", l.w-6)...)
		ls = append(ls, "", th.Key.Render("y")+" restore ✓ on these facts   "+th.Key.Render("n/esc")+" keep them sealed")
		return pad(strings.Split(th.Dialog.Width(max(l.w-2, 10)).Render(strings.Join(ls, "\n")), "\n"), l.w, h)
	}
	c := l.plan.Checks[d.check]
	if d.editing {
		ls = append(ls, th.Subtitle.Render("Edit the command for: ")+line(c.Check), "")
		ls = append(ls, d.input.View(), "")
		ls = append(ls, th.Muted.Render("Once edited, the command is yours, not the sender's. ctrl+s: review · enter: new line · esc: cancel"))
		return pad(strings.Split(th.Dialog.Width(max(l.w-2, 10)).Render(strings.Join(ls, "\n")), "\n"), l.w, h)
	}
	ls = append(ls, th.Warn.Render("Run this command on your machine?"), "")
	who := "It was written by the sender, " + line(l.plan.Origin.By()) + ", and came in the pack: it is their suggestion, not tp's advice."
	lab := "suggested by " + line(l.plan.Origin.By())
	if d.edited {
		who = "You edited it: it is your command now."
		lab = "your command (edited from " + line(l.plan.Origin.By()) + "'s suggestion)"
	}
	ls = append(ls, strings.Split(l.senderBox(d.command, lab, l.w-6), "\n")...)
	if shownCommand(d.command) != d.command {
		// What is shown escaped is not what runs: say so before y (D11, D12).
		for _, ln := range wrap("⚠ It contains control or bidi characters, shown escaped above (\\x1b, ⟨U+202E⟩…); they run as the pack wrote them, not as shown. Press e to edit them out.", l.w-6) {
			ls = append(ls, th.Warn.Render(ln))
		}
	}
	ls = append(ls, wrap(who, l.w-6)...)
	ls = append(ls, th.Muted.Render("folder   ")+line(l.c.WorkDir))
	ls = append(ls, th.Muted.Render("runs as  ")+fmt.Sprintf("sh -c, no input, timeout %s, output kept up to 256 KiB", l.howTimeout()))
	box := strings.Split(th.Dialog.Width(max(l.w-2, 10)).Render(strings.Join(ls, "\n")), "\n")
	keys := th.Key.Render("y") + " run it   " + th.Key.Render("e") + " edit first   " + th.Key.Render("n/esc") + " cancel"
	if len(box) <= h-1 {
		return pad(append(box, keys), l.w, h)
	}
	// A command too long for the screen scrolls: the person must be able to
	// read every byte of it before y.
	room := max(h-2, 1)
	vis, off := window(box, l.dialog.off, room)
	l.dialog.off = off
	more := th.Warn.Render(fmt.Sprintf("lines %d–%d of %d · ↑/↓ to read it all", off+1, off+len(vis), len(box)))
	return pad(append(append(vis, more), keys), l.w, h)
}

// ---- facts ----------------------------------------------------------------

func (l *Landing) factsView(h int) string {
	th, p := l.c.Theme, l.plan
	if len(p.Facts) == 0 {
		return pad([]string{th.Muted.Render("The passport carries no facts.")}, l.w, h)
	}
	// The legend and the restore state are wrapped, never cut: at 80
	// columns their ends (§4.2, "t to change") are what matter.
	var head []string
	for _, ln := range wrap("✓ proven and kept across machines (universal, org) · ⚠ sealed: re-verify here (§4.2)", l.w) {
		head = append(head, th.Muted.Render(ln))
	}
	if n := l.restorable(); n > 0 {
		state := "kept sealed"
		if l.trust {
			state = "✓ will be restored (your choice)"
		}
		for _, ln := range wrap(fmt.Sprintf("%d sealed facts say they were proven on this machine (%s): %s · t to change", n, p.ThisMachine, state), l.w) {
			head = append(head, th.Warn.Render(ln))
		}
	}
	lh := max(h-len(head)-4, 1)
	l.factOff = follow(l.factOff, l.factCur, lh, len(p.Facts))
	out := append([]string{}, head...)
	out = append(out, "")
	for i := l.factOff; i < min(l.factOff+lh, len(p.Facts)); i++ {
		f := p.Facts[i]
		var row string
		scope := f.Scope
		if scope == "" {
			scope = "no scope → machine"
		}
		switch {
		case f.Sealed && f.Restorable && l.trust:
			row = th.Pass.Render("✓ ") + line(f.Claim) + th.Warn.Render(" · restored by you, verified_on "+line(f.VerifiedOn))
		case f.Sealed:
			on := f.VerifiedOn
			if on == "" {
				on = "unknown"
			}
			row = th.Warn.Render("⚠ ") + line(f.Claim) + th.Muted.Render(" · sealed, verified_on "+line(on))
		case f.Verified:
			row = th.Pass.Render("✓ ") + line(f.Claim) + th.Muted.Render(" · "+line(scope))
		default:
			row = th.Muted.Render("· ") + line(f.Claim) + th.Muted.Render(" · unproven, "+line(scope))
		}
		if i == l.factCur {
			out = append(out, th.Cursor.Render("▸ ")+fit(row, l.w-2))
		} else {
			out = append(out, "  "+fit(row, l.w-2))
		}
	}
	if len(p.Facts) > 0 {
		f := p.Facts[l.factCur]
		out = append(out, "")
		for _, ln := range wrap(f.Claim, l.w-2) {
			out = append(out, " "+th.Text.Render(ln))
		}
		// The row above may be cut at the width; the detail is not.
		var d string
		switch {
		case f.Sealed && f.Restorable && l.trust:
			d = "restored by you · verified_on " + f.VerifiedOn
		case f.Sealed:
			on := f.VerifiedOn
			if on == "" {
				on = "unknown"
			}
			d = "sealed: proven only on " + on + " · re-verify here before relying on it"
		case f.Verified:
			d = "proven · scope " + f.Scope
		default:
			d = "unproven"
		}
		if f.Scope == "" {
			d += " · no scope (counts as machine)"
		} else if !f.Verified || f.Sealed {
			d += " · scope " + f.Scope
		}
		for _, ln := range wrap(d, l.w-2) {
			out = append(out, " "+th.Muted.Render(ln))
		}
	}
	return pad(out, l.w, h)
}

// ---- asks -----------------------------------------------------------------

func (l *Landing) asksView(h int) string {
	th, p := l.c.Theme, l.plan
	if len(p.Asks) == 0 {
		return pad([]string{th.Muted.Render("The sender asks nothing of you.")}, l.w, h)
	}
	lh := max(min(len(p.Asks), (h-2)/3), 1)
	l.askOff = follow(l.askOff, l.askCur, lh, len(p.Asks))
	var out []string
	for i := l.askOff; i < min(l.askOff+lh, len(p.Asks)); i++ {
		a := p.Asks[i]
		st := th.Muted.Render("open    ")
		if _, ok := l.answers[a.ID]; ok {
			st = th.Pass.Render("answered")
		} else if a.Status == "answered" {
			st = th.Pass.Render("answered")
		}
		row := st + " " + th.Muted.Render(line(a.ID)) + " " + line(a.What)
		if i == l.askCur {
			out = append(out, th.Cursor.Render("▸ ")+fit(row, l.w-2))
		} else {
			out = append(out, "  "+fit(row, l.w-2))
		}
	}
	out = append(out, th.Muted.Render(strings.Repeat("─", max(l.w, 1))))
	a := p.Asks[l.askCur]
	field := func(name, v string) {
		if v == "" {
			return
		}
		ws := wrap(v, l.w-10)
		out = append(out, th.Muted.Render(fmt.Sprintf("%-8s", name))+th.Data.Render(ws[0]))
		for _, ln := range ws[1:] {
			out = append(out, strings.Repeat(" ", 8)+th.Data.Render(ln))
		}
	}
	field("what", a.What)
	field("why", a.Why)
	field("accept", a.Accept)
	if l.answering {
		out = append(out, "", th.Subtitle.Render("Your answer")+th.Muted.Render(" (ctrl+s keep · esc discard)"))
		out = append(out, strings.Split(l.ta.View(), "\n")...)
	} else if ans, ok := l.answers[a.ID]; ok {
		field("answer", ans)
	} else if a.Answer != "" {
		field("answer", a.Answer)
	} else {
		out = append(out, th.Muted.Render("Left open. enter answers it now; a receipt can carry the answer home later."))
	}
	return pad(out, l.w, h)
}

// ---- passport -------------------------------------------------------------

// passportMarkdown builds the passport's Markdown from sanitised parts
// (D11): the sender's text may use Markdown, but never terminal controls.
func passportMarkdown(p PassportText) string {
	var b strings.Builder
	title := p.Title
	if title == "" {
		title = "Passport"
	}
	fmt.Fprintf(&b, "# %s\n\n", line(title))
	if p.ID != "" {
		fmt.Fprintf(&b, "*sender's id: %s*\n\n", line(p.ID))
	}
	if p.Goal != "" {
		fmt.Fprintf(&b, "## Goal\n\n%s\n\n", text(p.Goal))
	}
	if p.CurrentState != "" {
		fmt.Fprintf(&b, "## Current state\n\n%s\n\n", text(p.CurrentState))
	}
	if len(p.Decisions) > 0 {
		b.WriteString("## Decisions\n\n")
		for _, d := range p.Decisions {
			fmt.Fprintf(&b, "- %s\n", line(d))
		}
		b.WriteString("\n")
	}
	if len(p.NextSteps) > 0 {
		if p.ID != "" {
			b.WriteString("## Next steps (the sender's)\n\n")
		} else {
			b.WriteString("## Next steps\n\n")
		}
		for i, s := range p.NextSteps {
			fmt.Fprintf(&b, "%d. %s\n", i+1, line(s))
		}
	}
	return b.String()
}

func (l *Landing) renderPassport() {
	l.passWidth = l.w
	if l.plan == nil {
		return
	}
	md := passportMarkdown(l.plan.Passport)
	out, err := renderMarkdown(l.c.Theme, md, l.w-2)
	if err != nil {
		out = md
	}
	l.pass.SetContent(out)
}

// ---- luggage --------------------------------------------------------------

func (l *Landing) luggageLines() []string {
	th, p := l.c.Theme, l.plan
	if len(p.Luggage) == 0 {
		return []string{th.Muted.Render("No luggage: the pack carries no files.")}
	}
	var total int64
	for _, f := range p.Luggage {
		total += f.Size
	}
	dest := p.FilesDir
	if dest == "" {
		dest = "<store>/<new id>.files/"
	}
	out := []string{
		th.Subtitle.Render(fmt.Sprintf("%d files, %s", len(p.Luggage), humanBytes(total))) + th.Muted.Render(" → ") + line(dest),
		th.Muted.Render("extracted only inside that new folder, without execute bits, after you confirm"),
		"",
	}
	for _, f := range p.Luggage {
		out = append(out, fmt.Sprintf("%10s  %s", humanBytes(f.Size), line(f.Name)))
	}
	return out
}

// ---- confirm and done -----------------------------------------------------

func (l *Landing) confirmLines() []string {
	th, p := l.c.Theme, l.plan
	var passed, failed, skipped, pending int
	for _, c := range p.Checks {
		if !c.Required {
			continue
		}
		switch l.status(c) {
		case "passed":
			passed++
		case "failed":
			failed++
		case "skipped":
			skipped++
		default:
			pending++
		}
	}
	sealed := 0
	for _, f := range p.Facts {
		if f.Sealed {
			sealed++
		}
	}
	var total int64
	for _, f := range p.Luggage {
		total += f.Size
	}
	lb := func(s string) string { return label(th.Muted, s) }
	out := []string{
		th.Subtitle.Render("Land this pack as a new passport"),
		th.Muted.Render("You get a new local id; the sender's chain is kept (§3.1)."),
		"",
		lb("Checks") + fmt.Sprintf("%d required: %d passed, %d failed, %d skipped, %d pending", passed+failed+skipped+pending, passed, failed, skipped, pending),
		lb("") + th.Muted.Render("required checks go first in the next steps"),
		lb("Asks") + fmt.Sprintf("%d answered now, %d left open", len(l.answers), len(p.Asks)-len(l.answers)),
		lb("Facts") + fmt.Sprintf("%d sealed", sealed) + map[bool]string{true: th.Warn.Render(" · ✓ restored on facts proven here (your choice)"), false: ""}[l.trust],
		lb("Luggage") + fmt.Sprintf("%d files, %s", len(p.Luggage), humanBytes(total)),
	}
	out = append(out, l.runLines()...)
	if pending > 0 {
		out = append(out, "", th.Warn.Render(fmt.Sprintf("⚠ %d required checks are still pending: they land as pending, first in line.", pending)))
	}
	if p.AlreadyLanded != "" && !l.again {
		out = append(out, "", th.Warn.Render("⚠ already landed as "+line(p.AlreadyLanded)+". Press A to land it again as another passport."))
	} else if l.phase == PhaseWalk {
		out = append(out, "", th.Key.Render("enter")+" land it · "+th.Key.Render("esc")+" back · "+th.Key.Render("q")+" quit without landing")
	}
	return out
}

// maxRunLines bounds the recap's list of commands run, so the confirm step
// still fits a small terminal when many checks were run.
const maxRunLines = 5

// runLines recaps the commands the person confirmed and ran: each is recorded
// on its check beside the status they attest (D12), so they see it before
// landing.
func (l *Landing) runLines() []string {
	th := l.c.Theme
	var out []string
	n := 0
	for _, c := range l.plan.Checks {
		d := l.checks[c.ID]
		if !d.Ran {
			continue
		}
		n++
		if n > maxRunLines {
			continue
		}
		who := "the sender's command"
		if d.Command != c.How {
			who = "your command"
		}
		st := d.Status
		if st == "" {
			st = "pending"
		}
		row := fmt.Sprintf("%s %s · ran %s, exit %d", line(c.ID), st, who, d.Exit)
		out = append(out, label(th.Muted, "")+fit(row, max(l.w-12, 1)))
	}
	if n > maxRunLines {
		out = append(out, label(th.Muted, "")+th.Muted.Render(fmt.Sprintf("… and %d more", n-maxRunLines)))
	}
	if n > 0 {
		out = append(out, label(th.Muted, "")+th.Muted.Render("each run is recorded with its check (command, exit)"))
	}
	return out
}

func (l *Landing) doneLines() []string {
	th, r := l.c.Theme, l.landed
	out := []string{th.Pass.Render("✓ Landed as ") + th.Title.Render(line(r.ID)), ""}
	if r.FilesDir != "" {
		out = append(out, th.Muted.Render("luggage in ")+line(r.FilesDir), "")
	}
	out = append(out, th.Subtitle.Render("Next steps, in order"))
	for i, s := range r.NextSteps {
		ws := wrap(s, l.w-6)
		out = append(out, fmt.Sprintf("%3d. %s", i+1, ws[0]))
		for _, ln := range ws[1:] {
			out = append(out, "     "+ln)
		}
	}
	for _, w := range r.Warnings {
		out = append(out, th.Warn.Render("⚠ ")+line(w))
	}
	out = append(out, "", th.Muted.Render("enter or esc to finish"))
	return out
}
