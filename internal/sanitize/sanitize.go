// Package sanitize makes untrusted text safe to put on a terminal
// (D11).
//
// Every byte of a pack, a record or a state document is data. Before any
// rendering — the TUI, --plain output, Markdown, an error message — text from
// those sources goes through Text or Line: ESC and the other C0 and C1
// controls, DEL, and the bidirectional overrides and isolates are shown
// visibly (\x1b, ⟨U+202E⟩) instead of reaching the terminal, so a pack cannot
// move the cursor, rewrite the screen, set the clipboard (OSC 52) or reorder
// what the person reads.
package sanitize

import (
	"fmt"
	"strings"
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
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		i += size
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
// bidi controls, line and paragraph separators, TAG characters — are
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
		if r == 0x7f || (r >= 0x80 && r < 0xa0) || unsafeFormat(r) {
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
