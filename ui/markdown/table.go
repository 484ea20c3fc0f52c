package markdown

import (
	"strings"

	"github.com/tp-dev/tp/display"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// A GitHub-style table is a paragraph to CommonMark; it is recognised here,
// from the paragraph's lines, rather than by goldmark's table extension,
// whose package compiles its regular expressions when tp starts.

type align int

const (
	alignLeft align = iota
	alignRight
	alignCenter
)

type table struct {
	// lead is the paragraph's text before the table, when the header
	// is not its first line ("Totals:" then the table, no blank line).
	lead   string
	aligns []align
	rows   [][][]word // rows[0] is the header
}

// table returns the table a paragraph is, or nil: a header row, a
// delimiter row (---, :--, --:, :-:) of as many cells, then body rows.
func (r *renderer) table(p *ast.Paragraph) *table {
	lines := p.Lines()
	if lines.Len() < 2 {
		return nil
	}
	raw := make([]string, lines.Len())
	for i := range raw {
		raw[i] = strings.TrimSpace(string(segValue(lines, i, r.src)))
	}
	// The header may follow lines of text: GitHub starts a table
	// wherever a row is followed by a delimiter row of as many cells.
	var t *table
	at := -1
	for i := 0; i+1 < len(raw) && t == nil; i++ {
		t, at = header(raw[i], raw[i+1]), i
	}
	if t == nil {
		return nil
	}
	if at > 0 {
		raw0 := make([]string, at)
		for i := range raw0 {
			raw0[i] = string(segValue(lines, i, r.src))
		}
		t.lead = strings.TrimSpace(strings.Join(raw0, ""))
	}
	for i, l := range raw[at:] {
		if i == 1 {
			continue
		}
		var f flags
		if i == 0 {
			f = fTableHead
		}
		var row [][]word
		for _, c := range splitRow(l) {
			row = append(row, r.cell(c, f))
		}
		// GitHub drops the cells past the header's; text from a pack is
		// never hidden, so the table grows a column instead.
		for len(t.aligns) < len(row) {
			t.aligns = append(t.aligns, alignLeft)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// header returns the table a header line and a delimiter line begin, its
// alignments set, or nil.
func header(head, delim string) *table {
	if !strings.Contains(head, "|") {
		return nil
	}
	hs, ds := splitRow(head), splitRow(delim)
	if len(hs) != len(ds) {
		return nil
	}
	t := &table{}
	for _, d := range ds {
		a, ok := delimiter(d)
		if !ok {
			return nil
		}
		t.aligns = append(t.aligns, a)
	}
	return t
}

// delimiter reads one cell of the delimiter row.
func delimiter(s string) (align, bool) {
	left, right := strings.HasPrefix(s, ":"), strings.HasSuffix(s, ":")
	s = strings.TrimSuffix(strings.TrimPrefix(s, ":"), ":")
	if s == "" || strings.Trim(s, "-") != "" {
		return 0, false
	}
	switch {
	case left && right:
		return alignCenter, true
	case right:
		return alignRight, true
	}
	return alignLeft, true
}

// splitRow cuts a row at the pipes that are not escaped and not inside a
// code span; the outer pipes are optional.
func splitRow(l string) []string {
	var cells []string
	start, ticks := 0, 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '\\':
			i++
		case '`':
			ticks ^= 1
		case '|':
			if ticks == 0 {
				cells = append(cells, strings.TrimSpace(l[start:i]))
				start = i + 1
			}
		}
	}
	cells = append(cells, strings.TrimSpace(l[min(start, len(l)):]))
	if strings.HasPrefix(l, "|") {
		cells = cells[1:]
	}
	if len(cells) > 1 && strings.HasSuffix(l, "|") && !strings.HasSuffix(l, `\|`) && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1]
	}
	return cells
}

// cell parses a cell's text as inline Markdown. A cell cannot hold a
// block, so when the text would start one (#, >, -, a list number…) its
// first mark is escaped; failing that, the cell is its plain text.
func (r *renderer) cell(s string, f flags) []word {
	return r.inlineWords(strings.ReplaceAll(s, `\|`, "|"), f)
}

// inlineWords parses s as one paragraph of inline Markdown; see cell.
func (r *renderer) inlineWords(s string, f flags) []word {
	if s == "" {
		return nil
	}
	saved := r.src
	defer func() { r.src = saved }()
	for _, src := range []string{s, escapeBlockStart(s)} {
		r.src = []byte(src)
		doc := newParser().Parse(text.NewReader(r.src))
		if doc.ChildCount() == 1 && doc.FirstChild().Kind() == ast.KindParagraph {
			return r.inline(doc.FirstChild(), f)
		}
	}
	c := &collector{}
	c.add(display.Text(s), f)
	c.space()
	return c.words
}

// escapeBlockStart escapes the mark that makes s a block other than a
// paragraph: its first punctuation character, or the dot of a list number.
func escapeBlockStart(s string) string {
	if isPunct(s[0]) {
		return `\` + s
	}
	i := strings.IndexFunc(s, func(c rune) bool { return c < '0' || c > '9' })
	if i > 0 && (s[i] == '.' || s[i] == ')') {
		return s[:i] + `\` + s[i:]
	}
	return s
}

func isPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// minCell is the narrowest a column is squeezed to before a table gives up
// its grid.
const minCell = 6

// draw lays the table out as a grid: when the natural widths do not fit,
// the widest columns give up cells until they do and their cells wrap,
// the rows then divided by rules so a wrapped cell reads as one. A table
// with too many columns for even that is drawn as one wrapped line per row,
// cells divided by │. Nothing is cut off either way.
func (t *table) draw(r *renderer, width int) []string {
	cols := len(t.aligns)
	widths := make([]int, cols)
	for _, row := range t.rows {
		for j := range cols {
			if j < len(row) {
				widths[j] = max(widths[j], lineWidth(row[j]))
			}
		}
	}
	total := 3 * (cols - 1)
	for _, w := range widths {
		total += w
	}
	if total > width && 3*(cols-1)+minCell*cols > width {
		return t.drawLines(r, width)
	}
	wrapped := total > width
	for total > width {
		big := 0
		for j := range widths {
			if widths[j] > widths[big] {
				big = j
			}
		}
		widths[big]--
		total--
	}
	sep := r.paint(fTableRule, " │ ")
	rule := make([]string, cols)
	for j, w := range widths {
		rule[j] = strings.Repeat("─", w)
	}
	ruleLine := r.paint(fTableRule, strings.Join(rule, "─┼─"))
	var out []string
	for i, row := range t.rows {
		// Each cell's lines: one when it fits its column, more when not.
		cell := make([][]string, cols)
		cellW := make([][]int, cols)
		height := 1
		for j := range cols {
			if j >= len(row) || len(row[j]) == 0 {
				continue
			}
			if lineWidth(row[j]) <= widths[j] {
				cell[j], cellW[j] = []string{r.line(row[j])}, []int{lineWidth(row[j])}
			} else {
				for _, fs := range wrapFrags(row[j], widths[j]) {
					cell[j] = append(cell[j], r.draw(fs))
					cellW[j] = append(cellW[j], fragsWidth(fs))
				}
			}
			height = max(height, len(cell[j]))
		}
		if wrapped && i > 1 {
			out = append(out, ruleLine)
		}
		for k := 0; k < height; k++ {
			parts := make([]string, cols)
			for j := range cols {
				text, w := "", 0
				if k < len(cell[j]) {
					text, w = cell[j][k], cellW[j][k]
				}
				gap := max(widths[j]-w, 0)
				switch t.aligns[j] {
				case alignRight:
					parts[j] = strings.Repeat(" ", gap) + text
				case alignCenter:
					parts[j] = strings.Repeat(" ", gap/2) + text + strings.Repeat(" ", gap-gap/2)
				default:
					parts[j] = text + strings.Repeat(" ", gap)
				}
			}
			out = append(out, strings.TrimRight(strings.Join(parts, sep), " "))
		}
		if i == 0 {
			out = append(out, ruleLine)
		}
	}
	return out
}

// drawLines draws each row as one wrapped line, cells divided by │.
func (t *table) drawLines(r *renderer, width int) []string {
	var out []string
	for _, row := range t.rows {
		var words []word
		for j, c := range row {
			if j > 0 {
				words = append(words, word{{text: "│", f: fTableRule}})
			}
			words = append(words, c...)
		}
		for k, l := range r.wrap(words, max(width-2, MinWidth/2)) {
			if k > 0 {
				l = "  " + l
			}
			out = append(out, l)
		}
	}
	return out
}

// line draws words on one line, however long.
func (r *renderer) line(words []word) string {
	var fr []frag
	for _, w := range words {
		if isBreak(w) {
			continue
		}
		if len(fr) > 0 {
			fr = append(fr, frag{" ", spaceFlags(fr[len(fr)-1].f, w[0].f)})
		}
		fr = append(fr, w...)
	}
	return r.draw(fr)
}

func lineWidth(words []word) int {
	n := -1
	for _, w := range words {
		if !isBreak(w) {
			n += 1 + wordWidth(w)
		}
	}
	return max(n, 0)
}
