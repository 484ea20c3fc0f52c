package scan

import (
	"strings"
	"unicode/utf8"
)

// Text can hide words from a person and still carry them to a model: Unicode
// TAG characters (U+E0000–U+E007F) are invisible and read as ASCII, and
// zero-width characters interleaved in a phrase ("ig\u200bnore previous
// instructions") break every pattern without changing what a model reads.
// The instruction scan therefore also reads the text with those characters
// removed, and the text the TAG characters spell; a pack that carries TAG
// text is reported on its own (rule "hidden-tag-text"), with what it says.

// invisible reports the characters removed before scanning: TAG characters,
// zero-width space/joiners, word joiner, soft hyphen, the Mongolian vowel
// separator, and a BOM inside text.
func invisible(r rune) bool {
	switch {
	case r >= 0xE0000 && r <= 0xE007F:
		return true
	case r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF || r == 0x00AD || r == 0x180E:
		return true
	}
	return false
}

// hasInvisible is the fast check: every such rune is outside ASCII and
// starts with 0xC2, 0xE1, 0xE2, 0xEF or 0xF3.
func hasInvisible(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 0xC2, 0xE1, 0xE2, 0xEF, 0xF3:
			for j := i; j < len(s); {
				r, n := utf8.DecodeRuneInString(s[j:])
				if invisible(r) {
					return true
				}
				j += n
			}
			return false
		}
	}
	return false
}

// visible returns s without the invisible characters, and the ASCII the TAG
// characters in s spell (TAG U+E0020–U+E007E are the ASCII 0x20–0x7E).
func visible(s string) (vis, tagText string) {
	var b, t strings.Builder
	for _, r := range s {
		if r >= 0xE0020 && r <= 0xE007E {
			t.WriteByte(byte(r - 0xE0000))
		}
		if !invisible(r) {
			b.WriteRune(r)
		}
	}
	return b.String(), t.String()
}

// hiddenInstructions scans what s hides: the text with invisible characters
// removed, when that differs from s, and the text its TAG characters spell.
// Offsets are of the text scanned, not of s. found is instructions(s,
// strongOnly), which every caller has made already: a rule found in s is
// not reported again as hidden (scanning s a second time for it was a
// third of what scanning prose with a zero-width character in it cost,
// issue 20).
func hiddenInstructions(s string, strongOnly bool, found []Finding) []Finding {
	if !hasInvisible(s) {
		return nil
	}
	vis, tagText := visible(s)
	var out []Finding
	seen := map[string]bool{}
	for _, f := range found {
		seen[f.Rule] = true
	}
	for _, f := range instructions(vis, strongOnly) {
		if !seen[f.Rule] {
			f.Rule += "-hidden"
			out = append(out, f)
		}
	}
	if tagText != "" {
		out = append(out, Finding{Class: Instruction, Rule: "hidden-tag-text", Excerpt: excerptLine(tagText)})
		for _, f := range instructions(tagText, false) {
			f.Rule += "-in-tag-text"
			out = append(out, f)
		}
	}
	return out
}
