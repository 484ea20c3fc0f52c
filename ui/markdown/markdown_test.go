package markdown

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/tp-dev/tp/themes"
)

// theme builds a theme on a true-colour renderer, so every style that can
// emit an escape sequence does.
func theme(t testing.TB, name string) *themes.Markdown {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	th, err := themes.New(name, r)
	if err != nil {
		t.Fatal(err)
	}
	return &th.Markdown
}

func TestRender(t *testing.T) {
	tests := []struct {
		name, md string
		width    int
		want     string
	}{
		{"heading marks", "# One\n\n## Two\n\n#### Four", 40, "# One\n\n## Two\n\n#### Four"},
		{"setext heading", "Title\n=====", 40, "# Title"},
		{"paragraph wraps at the width", "one two three four five six seven eight nine ten eleven twelve", 22,
			"one two three four\nfive six seven eight\nnine ten eleven twelve"},
		{"soft breaks are spaces", "one\ntwo", 40, "one two"},
		{"hard break", "one  \ntwo\\\nthree", 40, "one\ntwo\nthree"},
		{"emphasis, strong, code keep their marks", "*a* **b** `c d` ***e***", 40, "*a* **b** `c d` ***e***"},
		{"word longer than the width is broken", strings.Repeat("x", 45), 20,
			strings.Repeat("x", 20) + "\n" + strings.Repeat("x", 20) + "\n" + "xxxxx"},
		{"link shows its address", "see [the guide](https://g.example/a \"t\")", 40, "see the guide (https://g.example/a)"},
		{"link whose text is its address", "[https://a.example](https://a.example)", 40, "https://a.example"},
		{"autolink", "<https://a.example/x>", 40, "https://a.example/x"},
		{"reference link", "[x][r]\n\n[r]: /u", 40, "x (/u)"},
		{"image", "![alt text](i.png)", 40, "[image: alt text] (i.png)"},
		{"entities decode", "&amp; &lt;b&gt; &copy; \\*", 40, "& <b> © *"},
		{"raw inline HTML is text", "a <b onclick=\"x\">b</b> c", 40, "a <b onclick=\"x\">b</b> c"},
		{"HTML block is text", "<script>\nalert(1)\n</script>", 40, "<script>\nalert(1)\n</script>"},
		{"bullets nest", "- a\n- b\n  - c\n    - d\n      - e", 40, "• a\n• b\n  ◦ c\n    ▪ d\n      ▪ e"},
		{"list item wraps under its text", "- one two three four five six", 18, "• one two three\n  four five six"},
		{"ordered list keeps its start and aligns", "9. nine\n10. ten", 40, " 9. nine\n10. ten"},
		{"ordered with paren", "1) a\n2) b", 40, "1) a\n2) b"},
		{"loose list", "- a\n\n- b", 40, "• a\n\n• b"},
		{"block quote", "> a\n>\n> > b", 40, "│ a\n│\n│ │ b"},
		{"fenced code as it is", "```go\nfunc  f() {\n\tx()\n}\n```", 40, "  func  f() {\n      x()\n  }"},
		{"indented code", "    a  b\n\n    c", 40, "  a  b\n\n  c"},
		{"code is broken, not wrapped", "```\n" + strings.Repeat("y", 25) + "\n```", 20,
			"  " + strings.Repeat("y", 18) + "\n  " + strings.Repeat("y", 7)},
		{"thematic break fills the width", "a\n\n---\n\nb", 20, "a\n\n" + strings.Repeat("─", 20) + "\n\nb"},
		{"table as a grid", "| a | bb |\n|---|---:|\n| ccc | d |", 40, "a   │ bb\n────┼───\nccc │  d"},
		{"table centre alignment", "| x | y |\n|:-:|---|\n| long | z |", 40, " x   │ y\n─────┼──\nlong │ z"},
		{"table escaped pipe and code", "| a | b |\n|---|---|\n| `x\\|y` | **z** |", 40, "a     │ b\n──────┼──────\n`x|y` │ **z**"},
		{"table cell that looks like a block", "| a | b |\n|---|---|\n| # h | 1. n |", 40, "a   │ b\n────┼─────\n# h │ 1. n"},
		{"table row longer than the header grows a column", "| a |\n|---|\n| b | c |", 40, "a │\n──┼──\nb │ c"},
		{"table too wide keeps its columns and wraps its cells", "| aaaa | bbbb |\n|---|---|\n| cccc dddd eeee | ffff gggg |\n| x | y |", 18,
			"aaaa    │ bbbb\n────────┼─────────\ncccc    │ ffff\ndddd    │ gggg\neeee    │\n────────┼─────────\nx       │ y"},
		{"table far too wide: one line per row", "| a | b | c | d | e |\n|---|---|---|---|---|\n| aaaa | bbbb | cccc | dddd | eeee |", 20,
			"a │ b │ c │ d │ e\naaaa │ bbbb │ cccc\n  │ dddd │ eeee"},
		{"table right after a paragraph line", "Intro line\n| a | b |\n|---|---|\n| c | d |", 40, "Intro line\n\na │ b\n──┼──\nc │ d"},
		{"table after two paragraph lines", "one\ntwo\n| a |\n|---|\n| c |", 40, "one two\n\na\n─\nc"},
		{"CJK aligns in a table", "| 名前 | x |\n|---|---|\n| 漢字です | y |", 40, "名前     │ x\n─────────┼──\n漢字です │ y"},
		{"strikethrough keeps its marks", "~~gone~~ kept ~one~", 40, "~~gone~~ kept ~one~"},
		{"task list", "- [ ] todo\n- [x] done\n- [X] also\n- plain", 40, "[ ] todo\n[✓] done\n[✓] also\n•   plain"},
		{"code wraps at spaces", "```\naaa bbb ccc ddd eee fff ggg hhh\n```", 18, "  aaa bbb ccc ddd \n  eee fff ggg hhh"},
		{"code breaks a word only when it has no space", "```\nab " + strings.Repeat("y", 20) + "\n```", 18, "  ab \n  " + strings.Repeat("y", 16) + "\n  yyyy"},
		{"a ZWJ emoji is never split", strings.Repeat("👩‍👩‍👧‍👦", 12), 19, strings.Repeat("👩‍👩‍👧‍👦", 9) + "\n" + strings.Repeat("👩‍👩‍👧‍👦", 3)},
		{"a ZWJ emoji in code is never split", "```\n" + strings.Repeat("👩‍👩‍👧‍👦", 12) + "\n```", 19, "  " + strings.Repeat("👩‍👩‍👧‍👦", 8) + "\n  " + strings.Repeat("👩‍👩‍👧‍👦", 4)},
		{"footnote reference and definition", "Said so[^1].\n\n[^1]: https://a.example/source", 40, "Said so[^1].\n\n[^1]: https://a.example/source"},
		{"footnotes are listed in order at the end", "a[^2] b[^10] c[^1]\n\n[^10]: /ten\n[^2]: /two \"Two\"\n[^1]: /one\n\nlast", 40,
			"a[^2] b[^10] c[^1]\n\nlast\n\n[^1]: /one\n[^2]: /two Two\n[^10]: /ten"},
		{"a footnote written as text is shown as written", "x[^n]\n\n[^n]: some words here", 40, "x[^n]\n\n[^n]: some words here"},
		{"not a table without a delimiter row", "| a | b |\n| c | d |", 40, "| a | b | | c | d |"},
	}
	st := theme(t, themes.NoColor)
	for _, tt := range tests {
		// The widths are the text's; Render's includes the margin, and
		// is at least MinWidth.
		t.Run(tt.name, func(t *testing.T) {
			got := Render(st, tt.md, tt.width+len(margin))
			want := indent(tt.want)
			if got != want {
				t.Errorf("Render(%q)\ngot:\n%s\nwant:\n%s", tt.md, got, want)
			}
		})
	}
}

// indent adds the document margin to the non-empty lines of s.
func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = margin + l
		}
	}
	return strings.Join(lines, "\n")
}

// The passport sample, drawn at the widths the screens use, in the theme
// the goldens use; every line fits.
func TestRenderGolden(t *testing.T) {
	md, err := os.ReadFile("testdata/passport.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{60, 80, 100} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			out := Render(theme(t, themes.NoColor), string(md), w)
			for _, l := range strings.Split(out, "\n") {
				if ansi.StringWidth(l) > w {
					t.Errorf("line wider than %d: %q", w, l)
				}
			}
			golden.RequireEqual(t, []byte(out+"\n"))
		})
	}
}

// The same sample in the default theme, as a dark terminal with 256
// colours shows it: the styling itself is pinned.
func TestRenderColourGolden(t *testing.T) {
	md, err := os.ReadFile("testdata/passport.md")
	if err != nil {
		t.Fatal(err)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	th, err := themes.New(themes.Default, r)
	if err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, []byte(Render(&th.Markdown, string(md), 80)+"\n"))
}

// In colour the same sample is styled, fits the width, and the text is the
// same as without colour but for the marks.
func TestRenderColourFits(t *testing.T) {
	md, err := os.ReadFile("testdata/passport.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{themes.Default, themes.HighContrast} {
		out := Render(theme(t, name), string(md), 60)
		if !strings.Contains(out, "\x1b[") {
			t.Fatalf("%s: no styling at all", name)
		}
		for _, l := range strings.Split(out, "\n") {
			if ansi.StringWidth(l) > 60 {
				t.Errorf("%s: line wider than 60: %q", name, l)
			}
		}
		if plain := ansi.Strip(out); !strings.Contains(plain, "Image pipeline") || strings.Contains(plain, "# Image") {
			t.Errorf("%s: heading drawn with marks or lost:\n%s", name, plain)
		}
		checkOnlySGR(t, out)
	}
}

// The parser decodes entities, so sanitising the Markdown before parsing
// is not enough: "&#x1b;]52;…" would become a live OSC 52 (D11). The
// renderer sanitises what the parser decoded, in every kind of text.
func TestEntitiesCannotBecomeControls(t *testing.T) {
	hostile := "&#x1b;]52;c;QUFBQQ==&#7; &#x202e;evil &#155;31m &#27;[2J &#0; &#13;x"
	places := map[string]string{
		"paragraph": "x " + hostile,
		"heading":   "# " + hostile,
		"emphasis":  "*" + hostile + "*",
		"link":      "[" + hostile + "](http://a/&#x1b;]52;c;QUFB&#7;)",
		"image":     "![" + hostile + "](&#x1b;[2J)",
		"list":      "- " + hostile,
		"quote":     "> " + hostile,
		"table":     "| a |\n|---|\n| " + hostile + " |",
		"raw":       "\x1b]52;c;QUFB\x07 \u202e \u009b31m \r",
		"code":      "```\n\x1b[2J\x07\n```",
	}
	for _, name := range themes.Names() {
		for place, md := range places {
			out := Render(theme(t, name), md, 60)
			checkOnlySGR(t, out)
			if strings.Contains(md, "52") && !strings.Contains(out, `\x1b]52`) {
				t.Errorf("%s/%s: the escape was not made visible: %q", name, place, out)
			}
		}
	}
}

// The no-colour theme draws Markdown with no escape sequence at all, even
// on a terminal that has colour.
func TestNoColorHasNoEscapes(t *testing.T) {
	md, err := os.ReadFile("testdata/passport.md")
	if err != nil {
		t.Fatal(err)
	}
	if out := Render(theme(t, themes.NoColor), string(md), 80); strings.ContainsRune(out, 0x1b) {
		t.Fatalf("ESC in the no-color theme's Markdown:\n%q", out)
	}
}

// checkOnlySGR fails when out has an ESC that does not start an SGR
// sequence (ESC [ digits and ; m), or any other C0/C1 control but newline,
// or a bidi override.
func checkOnlySGR(t testing.TB, out string) {
	t.Helper()
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		if r == 0x1b {
			j := i + 1
			if j >= len(out) || out[j] != '[' {
				t.Fatalf("bare ESC in %q", out)
			}
			j++
			for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';') {
				j++
			}
			if j >= len(out) || out[j] != 'm' {
				t.Fatalf("non-SGR sequence in %q", out)
			}
			i = j + 1
			continue
		}
		if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e || r == utf8.RuneError && n == 1 {
			t.Fatalf("control %U in %q", r, out)
		}
		i += n
	}
}

// FuzzRender: whatever the Markdown, Render does not panic, the colour
// theme's output carries no escape but SGR and no control, and the
// no-colour theme's carries no ESC at all.
func FuzzRender(f *testing.F) {
	md, err := os.ReadFile("testdata/passport.md")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{string(md), "&#x1b;]52;c;AA&#7;", "| a |\n|-|\n| `b\\|` |", "> - ```\n\x1b", "1. [x](<\x1b>)", "\xff\xfe", "***a*** `", "<a href='&#27;'>"} {
		f.Add(s, 40)
	}
	colour, plain := theme(f, themes.Default), theme(f, themes.NoColor)
	f.Fuzz(func(t *testing.T, s string, width int) {
		width = width%200 + 1
		checkOnlySGR(t, Render(colour, s, width))
		out := Render(plain, s, width)
		checkOnlySGR(t, out)
		if strings.ContainsRune(out, 0x1b) {
			t.Fatalf("ESC in the no-color theme's output: %q", out)
		}
	})
}

// Nesting deeper than maxDepth is drawn at maxDepth: the output stays
// linear in the input however deep a hostile document nests.
func TestDeepNestingIsCapped(t *testing.T) {
	out := Render(theme(t, themes.NoColor), strings.Repeat(">", 1000)+" deep", 80)
	if got := strings.Count(out, "│"); got != maxDepth {
		t.Fatalf("%d quote bars, want %d:\n%s", got, maxDepth, out)
	}
	if !strings.Contains(out, "deep") {
		t.Fatalf("the text is lost:\n%s", out)
	}
	var list strings.Builder
	for i := range 100 {
		fmt.Fprintf(&list, "%s- item %d\n", strings.Repeat("  ", i), i)
	}
	out = Render(theme(t, themes.NoColor), list.String(), 80)
	if !strings.Contains(out, "item 99") {
		t.Fatalf("the deepest item is lost:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Fatalf("line wider than 80: %q", l)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	md, err := os.ReadFile("testdata/passport.md")
	if err != nil {
		b.Fatal(err)
	}
	st := theme(b, themes.Default)
	for b.Loop() {
		Render(st, string(md), 80)
	}
}

// Inline draws a sentence's inline Markdown and never a block (issue 17).
func TestInline(t *testing.T) {
	for _, tt := range []struct {
		name, theme, s string
		width          int
		want           []string
	}{
		{"marks dropped where styles show them", themes.Default, "run `make test` and **check**", 40, []string{"run make test and check"}},
		{"marks kept without colour", themes.NoColor, "run `make test` and **check**", 40, []string{"run `make test` and **check**"}},
		{"wraps", themes.NoColor, "one two three four five six", 10, []string{"one two", "three four", "five six"}},
		{"a heading mark is text", themes.NoColor, "# not a heading", 40, []string{"# not a heading"}},
		{"a list number is text", themes.NoColor, "1. first", 40, []string{"1. first"}},
		{"a newline is shown, as display.Line shows it", themes.NoColor, "a\nb", 40, []string{`a\nb`}},
		{"empty", themes.NoColor, "", 40, []string{""}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Inline(theme(t, tt.theme), tt.s, tt.width)
			for i := range got {
				got[i] = ansi.Strip(got[i])
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Inline(%q) = %q, want %q", tt.s, got, tt.want)
			}
		})
	}
}

// In colour, struck text is drawn struck through (SGR 9) without its
// tildes, and a task's box replaces its bullet (issue 17).
func TestStrikeAndTasksInColour(t *testing.T) {
	st := theme(t, themes.Default)
	out := Render(st, "~~gone~~ kept\n\n- [x] done", 40)
	if !strings.Contains(out, "\x1b[9m") || strings.Contains(ansi.Strip(out), "~") {
		t.Errorf("strikethrough: %q", out)
	}
	if plain := ansi.Strip(out); !strings.Contains(plain, "[✓] done") || strings.Contains(plain, "•") {
		t.Errorf("task list: %q", plain)
	}
}
