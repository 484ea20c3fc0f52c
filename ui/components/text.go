// Package components holds the pieces the screens of tp's terminal
// interface are built from: safe text (every piece of untrusted text goes
// through internal/sanitize first, D11), scrolling (windows,
// pages and cursors that never let a view write state), the key maps every
// list and dialog shares, the framed box a sender's command is shown in,
// Markdown, and the ask list shared by the asks screen and the landing's
// asks step.
package components

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/ui/common"
)

// Line makes untrusted text one safe line (D11).
func Line(s string) string { return display.Line(s) }

// Text makes untrusted text safe, keeping newlines (D11).
func Text(s string) string { return display.Text(s) }

// Fit truncates a rendered line to w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// Wrap wraps untrusted text to w cells after sanitising it.
func Wrap(s string, w int) []string {
	if w < 10 {
		w = 10
	}
	return strings.Split(ansi.Wrap(Text(s), w, " -"), "\n")
}

// WrapPath wraps a path to w cells, breaking after a separator where it
// can and inside a name where it must: a path is never cut (issue 17).
func WrapPath(s string, w int) []string {
	if w < 10 {
		w = 10
	}
	return strings.Split(ansi.Wrap(Line(s), w, "/\\ -"), "\n")
}

// PathRows is prefix then the path p, wrapped to w cells with the
// continuation lines under the path's first cell: a file name in a list is
// never cut (issue 17). prefix is rendered text.
func PathRows(prefix, p string, w int) []string {
	ind := Width(prefix)
	ws := WrapPath(p, max(w-ind, 10))
	out := []string{prefix + ws[0]}
	for _, ln := range ws[1:] {
		out = append(out, strings.Repeat(" ", ind)+ln)
	}
	return out
}

// Width is the number of cells s takes on a terminal.
func Width(s string) int { return ansi.StringWidth(s) }

// Pad makes ls exactly h lines, each cut to w cells. When ls holds more
// than h lines, the last row says how many are not shown: a screen never
// cuts its content silently (issue 17). Screens that scroll use Scrolled,
// which also says where the window is and how to move it.
func Pad(ls []string, w, h int) string {
	h = max(h, 0)
	if len(ls) > h && h > 0 {
		ls = append(ls[:h-1:h-1], MoreMark(len(ls)-(h-1)))
	}
	out := make([]string, 0, h)
	for i := 0; i < h; i++ {
		if i < len(ls) {
			out = append(out, Fit(ls[i], w))
		} else {
			out = append(out, "")
		}
	}
	return strings.Join(out, "\n")
}

// PadRight pads s with spaces to w cells.
func PadRight(s string, w int) string {
	if n := Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// LabelWidth is the column a labelled row's value starts at.
const LabelWidth = 12

// Label is a row's label, padded to LabelWidth and styled.
func Label(st lipgloss.Style, s string) string {
	return st.Render(fmt.Sprintf("%-*s", LabelWidth, s))
}

// HumanBytes is a size for people.
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + string("KMGTPE"[exp]) + "iB"
}

// Count is n and its noun, singular or plural: "1 file", "2 files" — the
// same helper the plain and JSON output use (internal/plural).
func Count(n int, one, many string) string { return plural.N(n, one, many) }

// LabelRows is a labelled row whose value hangs under itself when it does
// not fit w: the value's words wrap, none is cut. v is rendered text (its
// untrusted parts sanitised already); wrapping keeps its styles.
func LabelRows(st lipgloss.Style, name, v string, w int) []string {
	vs := strings.Split(ansi.Wrap(v, max(w-LabelWidth, 10), " "), "\n")
	out := []string{Label(st, name) + vs[0]}
	for _, x := range vs[1:] {
		out = append(out, strings.Repeat(" ", LabelWidth)+x)
	}
	return out
}

// WrapStyled wraps rendered text to w cells at spaces, keeping its styles.
func WrapStyled(v string, w int) []string {
	return strings.Split(ansi.Wrap(v, max(w, 10), " "), "\n")
}

// MoreMark is the row that stands for n rows a screen had no room for.
func MoreMark(n int) string {
	return "↓ " + Count(n, "more line", "more lines") + " not shown (a taller window shows them)"
}

// Scrolled shows ls in h rows from off: everything when it fits; otherwise
// h-1 rows and a last row "lines x–y of n · hint", so what is off screen is
// counted. It returns the rows and the offset used.
func Scrolled(ls []string, off, h int, hint string) ([]string, int) {
	if len(ls) <= h || h < 2 {
		vis, o := Window(ls, off, h)
		return vis, o
	}
	vis, o := Window(ls, off, h-1)
	mark := fmt.Sprintf("lines %d–%d of %d", o+1, o+len(vis), len(ls))
	if hint != "" {
		mark += " · " + hint
	}
	return append(vis[:len(vis):len(vis)], mark), o
}

// FactWords is what a fact says of itself beyond its claim: how it was
// proven (evidence, source) and who asserted it (source_actor), as
// " · evidence: …" parts, sanitised; "" when it says nothing. Screens show
// it wherever they show the fact, so no part of a fact is left off.
func FactWords(f common.Fact) string {
	var b strings.Builder
	for _, w := range [...]struct{ label, v string }{{"evidence", f.Evidence}, {"source", f.Source}, {"asserted by", f.SourceActor}} {
		if strings.TrimSpace(w.v) != "" {
			b.WriteString(" · " + w.label + ": " + Line(w.v))
		}
	}
	return b.String()
}
