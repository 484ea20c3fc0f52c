package markdown

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
	"github.com/tp-dev/tp/display"
	"github.com/yuin/goldmark/ast"
)

// flags say what a piece of inline text is inside of; the style drawn is
// the theme's styles for those flags layered together.
type flags uint16

const (
	fEmph flags = 1 << iota
	fStrong
	fCode
	fLink
	fURL
	fTableHead
	fTableRule
	fQuote
	fBullet
	fRule
	fCodeBlock
	fH1
	fH2
	fH3 // levels 3–6
	fStrike
)

// frag is a run of text without spaces in one style; a word is the frags
// between two spaces ("**bo**ld" is one word of two frags).
type frag struct {
	text string
	f    flags
}

type word []frag

// brk is the word that stands for a hard line break.
var brk = word{{text: "\n"}}

func isBreak(w word) bool { return len(w) == 1 && w[0].text == "\n" }

// inline collects the words of n's inline children.
func (r *renderer) inline(n ast.Node, base flags) []word {
	c := &collector{}
	r.collect(c, n, base)
	c.space()
	return c.words
}

type collector struct {
	words []word
	cur   word
}

// add appends text, splitting it into words at whitespace.
func (c *collector) add(s string, f flags) {
	for s != "" {
		i := strings.IndexAny(s, " \t\n")
		if i < 0 {
			c.cur = append(c.cur, frag{s, f})
			return
		}
		if i > 0 {
			c.cur = append(c.cur, frag{s[:i], f})
		}
		c.space()
		s = s[i+1:]
	}
}

// space ends the current word.
func (c *collector) space() {
	if len(c.cur) > 0 {
		c.words = append(c.words, c.cur)
		c.cur = nil
	}
}

func (r *renderer) collect(c *collector, parent ast.Node, f flags) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Text:
			v := n.Segment.Value(r.src)
			if n.IsRaw() {
				c.add(display.Text(string(v)), f)
			} else {
				c.add(decode(v), f)
			}
			switch {
			case n.HardLineBreak():
				c.space()
				c.words = append(c.words, brk)
			case n.SoftLineBreak():
				c.space()
			}
		case *ast.String:
			c.add(display.Text(string(n.Value)), f)
		case *ast.CodeSpan:
			r.mark(c, "`", f|fCode)
			r.collect(c, n, f|fCode)
			r.mark(c, "`", f|fCode)
		case *strikeNode:
			r.mark(c, strings.Repeat("~", n.tildes), f|fStrike)
			r.collect(c, n, f|fStrike)
			r.mark(c, strings.Repeat("~", n.tildes), f|fStrike)
		case *ast.Emphasis:
			g, m := fEmph, "*"
			if n.Level >= 2 {
				g, m = fStrong, "**"
			}
			r.mark(c, m, f|g)
			r.collect(c, n, f|g)
			r.mark(c, m, f|g)
		case *ast.Link:
			if t, ok := n.FirstChild().(*ast.Text); ok && n.FirstChild() == n.LastChild() && strings.HasPrefix(string(t.Segment.Value(r.src)), "^") {
				// A footnote reference: shown as written, its note at the
				// end of the document.
				c.add("["+decode(t.Segment.Value(r.src))+"]", f|fLink)
				continue
			}
			start := len(c.words)
			r.collect(c, n, f|fLink)
			r.url(c, n.Destination, c.textSince(start), f)
		case *ast.Image:
			c.add("[image:", f)
			c.space()
			r.collect(c, n, f)
			c.add("]", f)
			r.url(c, n.Destination, "", f)
		case *ast.AutoLink:
			c.add(decode(n.URL(r.src)), f|fLink)
		case *ast.RawHTML:
			// Shown as the text it is, never interpreted.
			for i := 0; i < n.Segments.Len(); i++ {
				c.add(display.Text(string(segValue(n.Segments, i, r.src))), f)
			}
		default:
			r.collect(c, n, f)
		}
	}
}

// mark adds a Markdown mark (*, **, `) where the theme shows marks.
func (r *renderer) mark(c *collector, m string, f flags) {
	if r.st.Marks {
		c.add(m, f)
	}
}

// url shows a link's address after its text, unless the text is the
// address already.
func (r *renderer) url(c *collector, dest []byte, label string, f flags) {
	u := strings.Join(strings.Fields(decode(dest)), "")
	if u == "" || u == label {
		return
	}
	c.space()
	c.add("("+u+")", f|fURL)
}

// textSince is the plain text of the words collected from index start on.
func (c *collector) textSince(start int) string {
	var b strings.Builder
	for _, w := range append(c.words[start:len(c.words):len(c.words)], c.cur) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		for _, fr := range w {
			b.WriteString(fr.text)
		}
	}
	return strings.TrimSpace(b.String())
}

// wrap fills lines of at most width cells with words, greedily; a word
// longer than the width is broken.
func (r *renderer) wrap(words []word, width int) []string {
	lines := wrapFrags(words, width)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = r.draw(l)
	}
	return out
}

// wrapFrags is wrap's lines before they are drawn.
func wrapFrags(words []word, width int) [][]frag {
	var out [][]frag
	var line []frag
	cur := 0
	flush := func() {
		out = append(out, line)
		line, cur = nil, 0
	}
	for _, w := range words {
		if isBreak(w) {
			flush()
			continue
		}
		ww := wordWidth(w)
		if cur > 0 && cur+1+ww > width {
			flush()
		}
		if ww > width {
			for _, piece := range breakWord(w, width) {
				if cur > 0 {
					flush()
				}
				line = append(line, piece...)
				cur = wordWidth(piece)
			}
			continue
		}
		if cur > 0 {
			line = append(line, frag{" ", spaceFlags(line[len(line)-1].f, w[0].f)})
			cur++
		}
		line = append(line, w...)
		cur += ww
	}
	if len(line) > 0 {
		flush()
	}
	return out
}

// spaceFlags styles the space between two words: underlined between two
// words of one link, plain between different things.
func spaceFlags(a, b flags) flags {
	if a == b {
		return a
	}
	return 0
}

// fragsWidth is the cells a line of frags takes.
func fragsWidth(fs []frag) int {
	n := 0
	for _, f := range fs {
		n += ansi.StringWidth(f.text)
	}
	return n
}

func wordWidth(w word) int {
	n := 0
	for _, fr := range w {
		n += ansi.StringWidth(fr.text)
	}
	return n
}

// breakWord cuts a word wider than width into words of at most width cells.
func breakWord(w word, width int) []word {
	var out []word
	var cur word
	n := 0
	for _, fr := range w {
		// By grapheme cluster, not by rune: an emoji joined by ZWJ, a
		// letter and its combining marks, stay whole (issue 17).
		for _, c := range graphemes(fr.text) {
			cw := ansi.StringWidth(c)
			if n+cw > width && n > 0 {
				out = append(out, cur)
				cur, n = nil, 0
			}
			if len(cur) > 0 && cur[len(cur)-1].f == fr.f {
				cur[len(cur)-1].text += c
			} else {
				cur = append(cur, frag{c, fr.f})
			}
			n += cw
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// graphemes cuts s into its grapheme clusters (UAX #29).
func graphemes(s string) []string {
	var out []string
	state := -1
	for s != "" {
		var c string
		c, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		out = append(out, c)
	}
	return out
}

// draw renders one line, one style call per run of equal flags.
func (r *renderer) draw(line []frag) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		j := i
		var run strings.Builder
		for j < len(line) && line[j].f == line[i].f {
			run.WriteString(line[j].text)
			j++
		}
		sg := r.sgr(line[i].f)
		b.WriteString(sg.pre)
		b.WriteString(run.String())
		b.WriteString(sg.post)
		i = j
	}
	return b.String()
}

// sgr is what a style writes before and after a run of text. The theme's
// Markdown styles set attributes and colours only (no width, padding or
// border), so a run drawn by the style is pre + run + post; asking lipgloss
// once per style rather than once per run makes long documents fast.
type sgr struct{ pre, post string }

func (r *renderer) sgr(f flags) sgr {
	if f == 0 {
		return sgr{}
	}
	if s, ok := r.sgrs[f]; ok {
		return s
	}
	// "X" cannot occur in an SGR sequence (ESC [ digits ; m).
	pre, post, _ := strings.Cut(r.style(f).Render("X"), "X")
	r.sgrs[f] = sgr{pre, post}
	return r.sgrs[f]
}

// paint draws s in the style for f.
func (r *renderer) paint(f flags, s string) string {
	sg := r.sgr(f)
	return sg.pre + s + sg.post
}

// style layers the theme's styles for f: the innermost meaning (code, a
// URL) first, then strong, emphasis, a link, a table's head, a heading.
func (r *renderer) style(f flags) lipgloss.Style {
	var s lipgloss.Style
	first := true
	layer := func(bit flags, st lipgloss.Style) {
		if f&bit == 0 {
			return
		}
		if first {
			s, first = st, false
			return
		}
		s = s.Inherit(st)
	}
	layer(fURL, r.st.URL)
	layer(fCode, r.st.Code)
	layer(fStrong, r.st.Strong)
	layer(fEmph, r.st.Emph)
	layer(fStrike, r.st.Strike)
	layer(fLink, r.st.Link)
	layer(fTableHead, r.st.TableHead)
	layer(fTableRule, r.st.TableRule)
	layer(fQuote, r.st.Quote)
	layer(fBullet, r.st.Bullet)
	layer(fRule, r.st.Rule)
	layer(fCodeBlock, r.st.CodeBlock)
	layer(fH1, r.st.H1)
	layer(fH2, r.st.H2)
	layer(fH3, r.st.H3)
	return s
}
