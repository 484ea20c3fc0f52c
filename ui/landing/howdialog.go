package landing

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	c "github.com/tp-dev/tp/ui/components"
)

// HowKeys are the keys of the confirmation before a command runs.
type HowKeys struct {
	List   c.ListKeys
	Dialog c.DialogKeys
	// Review ends editing a command; enter is a new line in it, since a
	// command may span lines (D12: the person edits the real text).
	Review, Newline, Cancel key.Binding
	Run                     key.Binding
}

// DefaultHowKeys returns the confirmation's keys.
func DefaultHowKeys() HowKeys {
	return HowKeys{
		List:    c.DefaultListKeys(),
		Dialog:  c.DefaultDialogKeys(),
		Review:  c.KB([]string{"ctrl+s"}, "ctrl+s", "review the command"),
		Newline: c.KB([]string{"enter"}, "enter", "new line"),
		Cancel:  c.KB([]string{"esc"}, "esc", "cancel"),
		Run:     c.KB([]string{"y"}, "y", "run it"),
	}
}

// howDialog is the confirmation before a command runs (D12): the exact
// command, whose it is, the folder and how it runs; and the editor that
// makes it the person's own.
type howDialog struct {
	s       *Session
	keys    HowKeys
	w, h    int
	body    int
	open    bool
	check   int
	command string
	edited  bool // the person changed it: it is theirs now
	// escapedOnly: kept from the editor unchanged but for the control
	// characters, which are now the text shown (\x1b…), not the bytes.
	escapedOnly bool
	before      string // the command when editing began, as it runs
	editing     bool
	input       textarea.Model // the command's real text, newlines included
	off         int            // scroll offset of a dialog taller than the screen
	// seen is set once the end of the command has been on screen: y runs
	// nothing before, so a line hidden below padding cannot run unread.
	seen  bool
	nudge bool // y was pressed too early: say why nothing ran
}

// confirmedRun is a command the person confirmed with y.
type confirmedRun struct {
	check      int
	command    string
	fromSender bool
}

func newHowDialog(s *Session) howDialog {
	ed := c.NewTextArea(s.theme())
	ed.Prompt = "┃ "
	ed.Placeholder = "the command to run…"
	ed.MaxHeight = 0 // a command has as many lines as it needs
	return howDialog{s: s, keys: DefaultHowKeys(), input: ed}
}

func (d *howDialog) setSize(w, h, body int) {
	d.w, d.h, d.body = w, h, body
	d.input.SetWidth(max(w-8, 10))
	d.fitEditor()
	d.see()
}

// fitEditor sizes the command editor to its lines, within the screen.
func (d *howDialog) fitEditor() {
	d.input.SetHeight(max(min(d.input.LineCount()+1, d.h-8), 2))
}

func (d *howDialog) close() {
	d.open, d.editing, d.edited, d.command, d.off = false, false, false, "", 0
	d.escapedOnly, d.before = false, ""
	d.seen, d.nudge = false, false
	d.input.Blur()
}

func (d *howDialog) openConfirm(check int, command string) {
	d.close()
	d.open, d.check, d.command = true, check, command
	d.see()
}

// see marks the end of the command as seen when the dialog shows it: all of
// it fits, or it was scrolled to its last row.
func (d *howDialog) see() {
	if !d.open || d.editing || d.seen {
		return
	}
	box := d.box()
	if len(box) <= d.body-1 || d.off+d.room() >= len(box) {
		d.seen = true
	}
}

func (d *howDialog) openEditing(check int, command string) tea.Cmd {
	d.close()
	d.open, d.check, d.command = true, check, command
	return d.startEditing(command)
}

// startEditing opens the editor on cmd as the person sees it: every line
// sanitised on its own (D11), its newlines kept, so what they edit and then
// confirm is the text they read, and is exactly what runs (D12).
func (d *howDialog) startEditing(cmd string) tea.Cmd {
	d.editing, d.before = true, cmd
	d.input.SetValue(c.ShownCommand(cmd))
	d.fitEditor()
	return d.input.Focus()
}

func (d *howDialog) updateEditor(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	d.fitEditor()
	return cmd
}

// key handles a key while the dialog is open; it returns the run the person
// confirmed, if they did.
func (d *howDialog) key(msg tea.KeyMsg) (*confirmedRun, tea.Cmd) {
	k := d.keys
	if d.editing {
		switch {
		case key.Matches(msg, k.Review):
			v := d.input.Value()
			switch {
			case v == d.before:
				// Nothing changed: still whoever's it was (issue 17).
			case v == c.ShownCommand(d.before) && !d.edited:
				// Only the escapes became text: say that, not "edited".
				d.command, d.edited, d.escapedOnly = v, true, true
			default:
				d.command, d.edited, d.escapedOnly = v, true, false
			}
			d.editing, d.off, d.seen, d.nudge = false, 0, false, false
			d.input.Blur()
			if strings.TrimSpace(d.command) == "" {
				d.close()
			}
			d.see()
			return nil, nil
		case key.Matches(msg, k.Cancel):
			d.close()
			return nil, nil
		}
		return nil, d.updateEditor(msg)
	}
	if off, ok := k.List.Move(msg, d.off, 1<<30, max(d.h-4, 1)); ok {
		d.off = c.Clamp(off, len(d.box()), d.room())
		d.see()
		return nil, nil
	}
	switch {
	case key.Matches(msg, k.Dialog.Yes) && d.hidesPart():
		// Nothing runs that the person could not read (D12): only an
		// edit, which starts from what is shown, makes it runnable.
		d.nudge = true
	case key.Matches(msg, k.Dialog.Yes) && !d.seen:
		d.nudge = true
	case key.Matches(msg, k.Dialog.Yes):
		run := &confirmedRun{check: d.check, command: d.command, fromSender: !d.edited}
		d.close()
		return run, nil
	case key.Matches(msg, k.Dialog.Edit):
		return nil, d.startEditing(d.command)
	case key.Matches(msg, k.Dialog.No):
		d.close()
	}
	return nil, nil
}

// hidesPart: the sender's command holds a part the screen does not show
// (a credential-like one, D5), so it cannot run as sent. A command the
// person edited began as the shown text, so what it holds they read or
// wrote.
func (d *howDialog) hidesPart() bool { return !d.edited && c.HidesPart(d.command) }

func (d *howDialog) shortHelp() []key.Binding {
	if d.editing {
		return []key.Binding{d.keys.Review, d.keys.Newline, d.keys.Cancel}
	}
	if d.hidesPart() {
		return []key.Binding{d.keys.Dialog.Edit, d.keys.Dialog.No}
	}
	if !d.seen {
		return []key.Binding{d.keys.List.Down, d.keys.List.Bottom, d.keys.Dialog.Edit, d.keys.Dialog.No}
	}
	return []key.Binding{d.keys.Run, d.keys.Dialog.Edit, d.keys.Dialog.No}
}

func (d *howDialog) fullHelp() [][]key.Binding {
	if d.editing {
		return [][]key.Binding{{d.keys.Review, d.keys.Newline, d.keys.Cancel}}
	}
	run := d.keys.Run
	if !d.seen {
		run = c.KB([]string{"y"}, "y", "run it, once you have read to the end")
	}
	return [][]key.Binding{{run, d.keys.Dialog.Edit, d.keys.Dialog.No}, d.keys.List.Bindings()}
}

// paddingRun is the longest run of spaces or tabs a command line may hold
// before the confirmation flags it as padding that can push text out of
// sight.
const paddingRun = 16

// commandShape says how many lines the command has, and flags what can hide
// part of it: blank lines and long runs of spaces (issue 11: `ls /tmp`, 80
// newlines, then the line that matters).
func commandShape(cmd string) string {
	ls := strings.Split(cmd, "\n")
	blank, longest := 0, 0
	for _, ln := range ls {
		if strings.TrimSpace(ln) == "" {
			blank++
		}
		run := 0
		for _, r := range ln {
			if r == ' ' || r == '\t' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	s := c.Count(len(ls), "line", "lines")
	var flags []string
	if blank > 0 {
		flags = append(flags, c.Count(blank, "blank line", "blank lines"))
	}
	if longest > paddingRun {
		flags = append(flags, fmt.Sprintf("a run of %d spaces", longest))
	}
	if len(flags) > 0 {
		s += " · ⚠ " + strings.Join(flags, " and ") + ": part of it may be out of sight — read it to the end"
	}
	return s
}

// room is the rows a dialog taller than the screen scrolls in.
func (d *howDialog) room() int { return max(d.body-2, 1) }

func (d *howDialog) frame(ls []string) []string {
	th := d.s.theme()
	return strings.Split(th.Dialog.Width(max(d.w-2, 10)).Render(strings.Join(ls, "\n")), "\n")
}

// box is the confirmation's framed text.
func (d *howDialog) box() []string {
	th, p := d.s.theme(), d.s.Plan
	ls := []string{th.Warn.Render("Run this command on your machine?")}
	for _, ln := range c.Wrap(commandShape(d.command), d.w-6) {
		ls = append(ls, th.Warn.Render(ln))
	}
	ls = append(ls, "")
	who := "It was written by the sender, " + c.Line(p.Origin.By()) + ", and came in the pack: it is their suggestion, not tp's advice."
	lab := "suggested by " + c.Line(p.Origin.By())
	if d.escapedOnly {
		who = "You changed nothing but its control characters, which are now the text shown (\\x1b, ⟨U+202E⟩…): it is your command now, not the sender's byte for byte."
		lab = "your command (the sender's with its escapes as text)"
	} else if d.edited {
		who = "You edited it: it is your command now."
		lab = "your command (edited from " + c.Line(p.Origin.By()) + "'s suggestion)"
	}
	ls = append(ls, strings.Split(c.SenderBox(th, d.command, lab, d.w-6), "\n")...)
	if d.hidesPart() {
		for _, ln := range c.Wrap("⚠ Part of it is credential-like and not shown above (⟨… not shown⟩), so you cannot read all of what would run: tp does not run it as sent. Press e to edit it; the editor starts from what is shown, and what you confirm then is what runs.", d.w-6) {
			ls = append(ls, th.Warn.Render(ln))
		}
	} else if c.ShownCommand(d.command) != d.command {
		// What is shown escaped is not what runs: say so before y (D11, D12).
		for _, ln := range c.Wrap("⚠ It contains control or bidi characters, shown escaped above (\\x1b, ⟨U+202E⟩…); they run as the pack wrote them, not as shown. Press e to edit them out.", d.w-6) {
			ls = append(ls, th.Warn.Render(ln))
		}
	}
	ls = append(ls, c.Wrap(who, d.w-6)...)
	if files := packFilesRun(d.command, d.s.Plan.Luggage); len(files) > 0 {
		// What the command runs from the pack is the sender's too, and
		// not on this screen (D12).
		for _, ln := range c.Wrap("⚠ It runs what came in the pack: "+strings.Join(files, ", ")+". That is the sender's too and not shown here: read it in the Luggage step before you run this.", d.w-6) {
			ls = append(ls, th.Warn.Render(ln))
		}
	}
	folder := c.Line(d.s.Dir)
	if d.s.Staged {
		folder += th.Muted.Render(" (the pack's luggage, unpacked to check it; it moves into place when you land)")
	}
	runs := fmt.Sprintf("sh -c, no input, timeout %s, output kept up to 256 KiB", d.s.HowTimeout())
	for _, f := range [][2]string{{"folder   ", folder}, {"runs as  ", runs}} {
		for i, ln := range c.WrapStyled(f[1], max(d.w-15, 10)) {
			lb := "         "
			if i == 0 {
				lb = f[0]
			}
			ls = append(ls, th.Muted.Render(lb)+ln)
		}
	}
	return d.frame(ls)
}

func (d *howDialog) view(h int) string {
	th := d.s.theme()
	ch := d.s.Plan.Checks[d.check]
	if d.editing {
		ls := []string{th.Subtitle.Render("Edit the command for: ") + c.Line(ch.Check), ""}
		ls = append(ls, d.input.View(), "")
		ls = append(ls, th.Muted.Render("Once edited, the command is yours, not the sender's. ctrl+s: review · enter: new line · esc: cancel"))
		return c.Pad(d.frame(ls), d.w, h)
	}
	box := d.box()
	keys := th.Key.Render("y") + " run it   " + th.Key.Render("e") + " edit first   " + th.Key.Render("n/esc") + " cancel"
	switch {
	case d.hidesPart():
		keys = th.Key.Render("e") + " edit it   " + th.Key.Render("n/esc") + " cancel"
		if d.nudge {
			keys = th.Warn.Render("Part of it is not shown: tp does not run it as sent.   ") + keys
		}
	case !d.seen:
		keys = th.Muted.Render("↓/G to the end, then y runs it   ") + th.Key.Render("e") + " edit first   " + th.Key.Render("n/esc") + " cancel"
		if d.nudge {
			keys = th.Warn.Render("Read it to the end first: G jumps there.   ") + th.Key.Render("n/esc") + " cancel"
		}
	}
	if len(box) <= h-1 {
		return c.Pad(append(box, keys), d.w, h)
	}
	// A command too long for the screen scrolls: the person must be able to
	// read every byte of it before y.
	vis, off := c.Window(box, d.off, d.room())
	more := th.Warn.Render(fmt.Sprintf("lines %d–%d of %d · ↑/↓ to read it all", off+1, off+len(vis), len(box)))
	return c.Pad(append(append(vis, more), keys), d.w, h)
}
