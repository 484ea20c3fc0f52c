package components

import (
	"github.com/tp-dev/tp/display"

	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tp-dev/tp/themes"
)

// ShownCommand is a command as the person reads it: each line sanitised on
// its own (D11), so the newlines the shell will see stay real lines and a CR
// before one is shown as \r rather than silently dropped.
func ShownCommand(s string) string {
	ls := strings.Split(s, "\n")
	for i, x := range ls {
		ls[i] = Text(x)
	}
	return strings.Join(ls, "\n")
}

// HidesPart reports whether the screen shows part of s as a placeholder
// instead of its text: a credential-like part, which D5 never shows.
// Escaped control characters are shown, as escapes; this part is not.
func HidesPart(s string) bool { return display.Redact(s) != s }

// CutRows cuts one line of a command into rows of at most w cells that
// join back to exactly that line.
func CutRows(ln string, w int) []string {
	return strings.Split(ansi.Hardwrap(ln, max(w, 1), true), "\n")
}

// ContMark starts a row that continues the command's line above.
const ContMark = "↪ "

// SenderBox frames a command that came from the sender, labelled as theirs
// (or as the person's once edited).
func SenderBox(th *themes.Theme, how, label string, width int) string {
	inner := max(width-4, 10)
	var body []string
	wrapped := false
	for _, ln := range strings.Split(ShownCommand(how), "\n") {
		if ansi.StringWidth(ln) <= inner {
			body = append(body, ln)
			continue
		}
		// A line too long for the box is cut at the width, every space
		// kept, and its continuations marked: a row the screen wrapped
		// must not read as a newline the shell would see (D12).
		wrapped = true
		for i, seg := range CutRows(ln, inner-2) {
			if i > 0 {
				seg = th.Muted.Render(ContMark) + seg
			}
			body = append(body, seg)
		}
	}
	if wrapped {
		body = append(body, th.Muted.Render("("+strings.TrimSpace(ContMark)+" continues the line above, it is not a new line)"))
	}
	return th.SenderBox.Width(inner + 2).Render(th.Sender.Render(label) + "\n" + strings.Join(body, "\n"))
}
