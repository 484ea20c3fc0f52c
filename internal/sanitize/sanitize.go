// Package sanitize makes untrusted text safe to put on a terminal
// (D11).
//
// Every byte of a pack, a record or a state document is data. Before any
// rendering — the TUI, --plain output, Markdown, an error message — text from
// those sources goes through Text or Line: ESC and the other C0 and C1
// controls, DEL, and the bidirectional overrides and isolates are shown
// visibly (\x1b, ⟨U+202E⟩) instead of reaching the terminal, so a pack cannot
// move the cursor, rewrite the screen, set the clipboard (OSC 52) or reorder
// what the person reads. Default-ignorable code points (U+200B, U+2060,
// U+00AD, U+3164, the variation selectors …) draw nothing, so "run\u200b.sh"
// would print as "run.sh": they are shown as ⟨U+200B⟩ too, except the
// joiners and selectors that draw an emoji or join letters of a script that
// needs them (ZWJ between pictographs, one VS15/VS16 after one, ZWNJ between
// two non-Latin letters).
package sanitize

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Text returns s with every unsafe rune made visible. Newlines and tabs are
// kept: use Line where the text must stay on one line.
func Text(s string) string { return clean(s, true) }

// Line is Text for one-line contexts: newlines and tabs are shown as \n, \t.
func Line(s string) string { return clean(s, false) }

func clean(s string, multiline bool) string {
	if isPlain(s, multiline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	prev := rune(-1)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			prev = -1
			continue
		}
		i += size
		before := prev
		prev = r
		switch {
		case r == '\n' && multiline, r == '\t' && multiline:
			b.WriteRune(r)
		case r == '\r' && multiline:
			// A bare CR lets later text overwrite the line on screen.
			if i < len(s) && s[i] == '\n' {
				continue
			}
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		case unsafeFormat(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		case Ignorable(r) && !joins(r, before, s[i:]):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeFormat lists the format characters that change how a terminal or a
// reader orders or hides text: bidi embeddings, overrides and isolates, the
// marks, line and paragraph separators, the BOM inside text, and the
// Unicode TAG characters (U+E0000–U+E007F).
func unsafeFormat(r rune) bool {
	switch {
	case r >= 0x202A && r <= 0x202E: // LRE RLE PDF LRO RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI RLI FSI PDI
		return true
	case r == 0x200E || r == 0x200F || r == 0x061C: // LRM RLM ALM
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r == 0xFEFF:
		return true
	case r >= 0xE0000 && r <= 0xE007F:
		// Unicode TAG characters: invisible, yet a model reads them as
		// ASCII — a way to hide instructions in plain sight.
		return true
	}
	return false
}

// Ignorable reports whether r is a Unicode Default_Ignorable_Code_Point
// (DerivedCoreProperties.txt): a code point a terminal draws as nothing.
func Ignorable(r rune) bool {
	switch {
	case r < 0xAD:
		return false
	case r == 0x00AD, r == 0x034F, r == 0x061C, r == 0x115F, r == 0x1160,
		r == 0x17B4, r == 0x17B5, r == 0x3164, r == 0xFEFF, r == 0xFFA0:
		return true
	case r >= 0x180B && r <= 0x180F, r >= 0x200B && r <= 0x200F,
		r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x206F,
		r >= 0xFE00 && r <= 0xFE0F, r >= 0xFFF0 && r <= 0xFFF8,
		r >= 0x1BCA0 && r <= 0x1BCA3, r >= 0x1D173 && r <= 0x1D17A,
		r >= 0xE0000 && r <= 0xE0FFF:
		return true
	}
	return false
}

// joins reports whether the ignorable r, after before and followed by rest,
// draws something a reader sees: a ZWJ between two pictographs (👨‍👩‍👧), one
// text or emoji presentation selector after a pictograph or a keycap base
// (⚠️, 1️⃣), a ZWNJ between two letters of a script that uses it (Persian,
// the Indic scripts). Everywhere else it hides, and is shown.
func joins(r, before rune, rest string) bool {
	next, _ := utf8.DecodeRuneInString(rest)
	if rest == "" {
		next = -1
	}
	switch r {
	case 0x200D:
		return (pictograph(before) || before == 0xFE0F || (before >= 0x1F3FB && before <= 0x1F3FF)) && pictograph(next)
	case 0xFE0E, 0xFE0F:
		return pictograph(before) || (before >= '0' && before <= '9') || before == '#' || before == '*'
	case 0x200C:
		return before > 0x24F && next > 0x24F && letter(before) && letter(next)
	}
	return false
}

func pictograph(r rune) bool { return r > 0x7f && unicode.Is(unicode.So, r) }

func letter(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// isPlain is the fast path: printable ASCII (plus newline/tab when
// multiline) and runes that need no checking.
func isPlain(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if multiline && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

// JSON makes a JSON document safe to show on a terminal and still the same
// JSON: inside strings (the only place a JSON text holds anything but
// ASCII), DEL, the C1 controls, and every rune Text would make visible —
// bidi controls, line and paragraph separators, TAG characters, every
// default-ignorable code point — are
// written as \u escapes (a surrogate pair beyond the BMP). C0 controls are
// escaped by every JSON encoder already. The parsed value does not change.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < 0x7f {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			out = append(out, c) // not UTF-8: left as it is
			i++
			continue
		}
		if r == 0x7f || (r >= 0x80 && r < 0xa0) || unsafeFormat(r) || Ignorable(r) {
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}
