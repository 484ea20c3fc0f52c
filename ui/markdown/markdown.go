// Package markdown draws the Markdown a passport carries on the terminal, in
// a theme's styles, wrapped to a width.
//
// The text is untrusted (D11): it is sanitised before it is parsed, and every
// piece of text the parser hands back — after backslash escapes and HTML
// entities are decoded, so "&#x1b;" is ESC again — is sanitised once more
// before it is drawn. The only escape sequences in the output are the SGR
// sequences of the theme's own styles. Raw HTML is shown as text, code is
// shown monochrome (no highlighting), and links show their text and address.
//
// It is built on goldmark's CommonMark parser alone (no extensions, no HTML
// renderer): every package Go links is initialised by every tp command, and
// glamour's highlighter and HTML sanitiser cost each of them ~13 ms.
package markdown

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/themes"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MinWidth is the narrowest width Render wraps to.
const MinWidth = 20

// maxDepth is the deepest nesting of quotes and lists that is drawn
// indented; deeper blocks are drawn at that depth, so hostile nesting costs
// linear, not quadratic, output.
const maxDepth = 16

// margin is the left margin of the whole document.
const margin = "  "

// newParser is built on first use, not at start-up.
var newParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(append(parser.DefaultInlineParsers(), util.Prioritized(strikeParser{}, 500))...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
})

// Render draws md in the styles st, no line wider than width cells (at
// least MinWidth) except where nesting leaves no room. The result has no
// trailing newline.
func Render(st *themes.Markdown, md string, width int) string {
	width = max(width, MinWidth)
	r := &renderer{st: st, sgrs: map[flags]sgr{}}
	lines := r.document(display.Text(md), width-len(margin))
	for i, l := range lines {
		if l != "" {
			lines[i] = margin + l
		}
	}
	return strings.Join(lines, "\n")
}

type renderer struct {
	st   *themes.Markdown
	src  []byte
	sgrs map[flags]sgr
}

// document parses src and draws its blocks.
func (r *renderer) document(src string, width int) []string {
	saved := r.src
	r.src = []byte(src)
	pc := parser.NewContext()
	doc := newParser().Parse(text.NewReader(r.src), parser.WithContext(pc))
	lines := r.blocks(doc, width, false, 0)
	if notes := r.footnotes(pc, width); len(notes) > 0 {
		lines = append(append(lines, ""), notes...)
	}
	r.src = saved
	return lines
}

// footnotes draws the footnotes ("[^1]: …") CommonMark read as link
// reference definitions, which it never shows: at the end, in order, as
// they were written (issue 17).
func (r *renderer) footnotes(pc parser.Context, width int) []string {
	var refs []parser.Reference
	for _, ref := range pc.References() {
		if strings.HasPrefix(string(ref.Label()), "^") {
			refs = append(refs, ref)
		}
	}
	sort.Slice(refs, func(i, j int) bool {
		a, b := string(refs[i].Label()[1:]), string(refs[j].Label()[1:])
		x, errA := strconv.Atoi(a)
		y, errB := strconv.Atoi(b)
		if errA == nil && errB == nil && x != y {
			return x < y
		}
		return a < b
	})
	var out []string
	for _, ref := range refs {
		c := &collector{}
		c.add("["+display.Line(string(ref.Label()))+"]:", fLink)
		c.space()
		c.add(decode(ref.Destination()), fURL)
		c.space()
		if t := ref.Title(); len(t) > 0 {
			c.add(decode(t), 0)
			c.space()
		}
		for k, l := range r.wrap(c.words, max(width-2, MinWidth/2)) {
			if k > 0 {
				l = "  " + l
			}
			out = append(out, l)
		}
	}
	return out
}

// blocks draws the children of a container, a blank line between them
// unless tight (the items of a tight list).
func (r *renderer) blocks(parent ast.Node, width int, tight bool, depth int) []string {
	var out []string
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		b := r.block(n, width, depth)
		if len(b) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, b...)
	}
	return out
}

func (r *renderer) block(n ast.Node, width, depth int) []string {
	switch n := n.(type) {
	case *ast.Paragraph:
		if t := r.table(n); t != nil {
			if t.lead == "" {
				return t.draw(r, width)
			}
			return append(append(r.wrap(r.inlineWords(t.lead, 0), width), ""), t.draw(r, width)...)
		}
		return r.wrap(r.inline(n, 0), width)
	case *ast.TextBlock:
		return r.wrap(r.inline(n, 0), width)
	case *ast.Heading:
		return r.heading(n, width)
	case *ast.ThematicBreak:
		return []string{r.paint(fRule, strings.Repeat("─", width))}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		return r.code(n.Lines(), width)
	case *ast.HTMLBlock:
		// Shown as the text it is, never interpreted.
		var raw strings.Builder
		for i := 0; i < n.Lines().Len(); i++ {
			raw.Write(segValue(n.Lines(), i, r.src))
		}
		if n.HasClosure() {
			raw.Write(n.ClosureLine.Value(r.src))
		}
		return r.verbatim(raw.String(), width, 0, false)
	case *ast.Blockquote:
		if depth >= maxDepth {
			return r.blocks(n, width, false, depth+1)
		}
		inner := r.blocks(n, max(width-2, MinWidth/2), false, depth+1)
		bar := r.paint(fQuote, "│")
		for i, l := range inner {
			if l == "" {
				inner[i] = bar
			} else {
				inner[i] = bar + " " + l
			}
		}
		return inner
	case *ast.List:
		return r.list(n, width, depth)
	}
	return r.blocks(n, width, false, depth)
}

func (r *renderer) heading(n *ast.Heading, width int) []string {
	f := fH3
	switch n.Level {
	case 1:
		f = fH1
	case 2:
		f = fH2
	}
	words := r.inline(n, f)
	if r.st.Marks {
		words = append([]word{{{text: strings.Repeat("#", n.Level), f: f}}}, words...)
	}
	return r.wrap(words, width)
}

// bullets are the markers of unordered lists, by depth.
var bullets = []string{"•", "◦", "▪"}

func (r *renderer) list(n *ast.List, width, depth int) []string {
	var markers []string
	num := n.Start
	wide := 0
	var tasks [][]word // a task item's first paragraph, its box taken off
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		m := bullets[min(depth, len(bullets)-1)]
		if n.IsOrdered() {
			m = strconv.Itoa(num) + string(n.Marker)
			num++
		}
		box, rest := task(r, it)
		if box != "" {
			m = box
		}
		tasks = append(tasks, rest)
		markers = append(markers, m)
		wide = max(wide, ansi.StringWidth(m))
	}
	indent := wide + 1
	if depth >= maxDepth {
		indent = 0
	}
	var out []string
	i := 0
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		var body []string
		if rest := tasks[i]; rest != nil {
			// A task: its first paragraph without the box, then the rest.
			body = r.wrap(rest, max(width-indent, MinWidth/2))
			for c := it.FirstChild().NextSibling(); c != nil; c = c.NextSibling() {
				if b := r.block(c, max(width-indent, MinWidth/2), depth+1); len(b) > 0 {
					if !n.IsTight {
						body = append(body, "")
					}
					body = append(body, b...)
				}
			}
		} else {
			body = r.blocks(it, max(width-indent, MinWidth/2), n.IsTight, depth+1)
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		m := markers[i]
		i++
		// Numbers align on their right, as in a printed list.
		first := r.paint(fBullet, strings.Repeat(" ", wide-ansi.StringWidth(m))+m) + " "
		if !n.IsOrdered() {
			first = r.paint(fBullet, m) + strings.Repeat(" ", wide-ansi.StringWidth(m)+1)
		}
		if len(body) == 0 {
			out = append(out, strings.TrimRight(first, " "))
			continue
		}
		pad := strings.Repeat(" ", indent)
		for j, l := range body {
			switch {
			case j == 0 && indent == 0:
				out = append(out, first, l)
			case j == 0:
				out = append(out, first+l)
			case l == "":
				out = append(out, "")
			default:
				out = append(out, pad+l)
			}
		}
	}
	return out
}

// task reads a GitHub task item ("- [ ] x", "- [x] x"): the box to draw
// instead of the bullet, "[ ]" or "[✓]", and the words of its first
// paragraph after the box. A plain item gives "", nil.
func task(r *renderer, it ast.Node) (string, []word) {
	first := it.FirstChild()
	if first == nil || (first.Kind() != ast.KindParagraph && first.Kind() != ast.KindTextBlock) {
		return "", nil
	}
	lines := first.Lines()
	if lines.Len() == 0 {
		return "", nil
	}
	src := string(segValue(lines, 0, r.src))
	box := ""
	switch {
	case strings.HasPrefix(src, "[ ] "):
		box = "[ ]"
	case strings.HasPrefix(src, "[x] "), strings.HasPrefix(src, "[X] "):
		box = "[✓]"
	default:
		return "", nil
	}
	words := r.inline(first, 0)
	// The box is the first words ("[", "]" or "[x]"); take them off.
	text := ""
	for k, w := range words {
		for _, f := range w {
			text += f.text
		}
		if text == "[]" || text == "[x]" || text == "[X]" {
			rest := words[k+1:]
			if rest == nil {
				rest = []word{}
			}
			return box, rest
		}
		if len(text) >= 3 {
			break
		}
	}
	return "", nil
}

// code draws a code block's lines as they are: no highlighting, tabs
// expanded, long lines broken at the width rather than reflowed.
func (r *renderer) code(lines *text.Segments, width int) []string {
	var raw strings.Builder
	for i := 0; i < lines.Len(); i++ {
		raw.Write(segValue(lines, i, r.src))
	}
	return r.verbatim(strings.TrimRight(raw.String(), "\n"), width, fCodeBlock, true)
}

// verbatim draws text line by line in the style for f, breaking lines longer than the
// width; indented code is set two cells in.
func (r *renderer) verbatim(s string, width int, f flags, indent bool) []string {
	pad := ""
	if indent {
		pad = "  "
	}
	w := max(width-len(pad), 1)
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		l = display.Line(expandTabs(strings.TrimSuffix(l, "\r")))
		if l == "" {
			out = append(out, "")
			continue
		}
		for _, piece := range breakWidth(l, w) {
			out = append(out, pad+r.paint(f, piece))
		}
	}
	return out
}

// expandTabs replaces tabs with spaces to the next multiple of four cells.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, c := range s {
		if c == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(c)
		col += ansi.StringWidth(string(c))
	}
	return b.String()
}

// breakWidth cuts s into pieces of at most w cells: after the last space
// that fits when there is one (the space stays at the end of its piece, so
// the code's spacing is kept), else between grapheme clusters — never
// inside one (a cluster wider than w gets a piece of its own).
func breakWidth(s string, w int) []string {
	if ansi.StringWidth(s) <= w {
		return []string{s}
	}
	var out []string
	var piece []string
	cur, space := 0, -1 // space: index in piece after the last space
	for _, c := range graphemes(s) {
		cw := ansi.StringWidth(c)
		if cur+cw > w && cur > 0 {
			keep := piece
			if space > 0 && space < len(piece) {
				keep = piece[:space]
			}
			out = append(out, strings.Join(keep, ""))
			piece = append([]string(nil), piece[len(keep):]...)
			cur = ansi.StringWidth(strings.Join(piece, ""))
			space = -1
		}
		piece = append(piece, c)
		cur += cw
		if c == " " {
			space = len(piece)
		}
	}
	if len(piece) > 0 {
		out = append(out, strings.Join(piece, ""))
	}
	return out
}

// decode turns a text segment into the text it stands for — backslash
// escapes removed, entity and numeric references resolved — and sanitises
// the result, since "&#x1b;" decodes to ESC (D11).
func decode(b []byte) string {
	return display.Text(string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(b)))))
}

func segValue(s *text.Segments, i int, src []byte) []byte {
	seg := s.At(i)
	return seg.Value(src)
}

// Inline draws one line of text as inline Markdown (code spans, emphasis,
// links), wrapped to width, with no margin: for a sentence on a screen,
// such as a next step or a status line, that may use backticks or **…**
// (issue 17). Text that would start a block (a heading, a list, a quote)
// is drawn as the sentence it is.
func Inline(st *themes.Markdown, s string, width int) []string {
	width = max(width, 10)
	s = strings.TrimSpace(display.Line(s))
	if s == "" {
		return []string{""}
	}
	r := &renderer{st: st, sgrs: map[flags]sgr{}}
	out := r.wrap(r.inlineWords(s, 0), width)
	if len(out) == 0 {
		return []string{""}
	}
	return out
}
