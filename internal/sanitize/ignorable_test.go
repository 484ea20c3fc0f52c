package sanitize

import (
	"strings"
	"testing"
)

// Default-ignorable code points draw nothing, so "run\u200b.sh" and "run.sh"
// look the same on a terminal. Each must be shown (issue 17), except the
// joiners and selectors inside an emoji sequence, which draw the emoji.
func TestDefaultIgnorableShown(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"zero width space", "run\u200b.sh", "run⟨U+200B⟩.sh"},
		{"word joiner", "rm\u2060 -rf", "rm⟨U+2060⟩ -rf"},
		{"soft hyphen", "pass\u00adword", "pass⟨U+00AD⟩word"},
		{"hangul filler", "a\u3164b", "a⟨U+3164⟩b"},
		{"halfwidth hangul filler", "a\uffa0b", "a⟨U+FFA0⟩b"},
		{"hangul choseong filler", "a\u115fb", "a⟨U+115F⟩b"},
		{"combining grapheme joiner", "a\u034fb", "a⟨U+034F⟩b"},
		{"khmer inherent vowel", "a\u17b4b", "a⟨U+17B4⟩b"},
		{"mongolian vowel separator", "a\u180eb", "a⟨U+180E⟩b"},
		{"invisible times", "a\u2062b", "a⟨U+2062⟩b"},
		{"zwj outside emoji", "ab\u200dcd", "ab⟨U+200D⟩cd"},
		{"zwnj in latin", "ab\u200ccd", "ab⟨U+200C⟩cd"},
		{"variation selector on a letter", "a\ufe01b", "a⟨U+FE01⟩b"},
		{"variation selector supplement", "a\U000E0100b", "a⟨U+E0100⟩b"},
		{"selectors smuggled after an emoji", "🙂\ufe0f\ufe01\ufe02", "🙂\ufe0f⟨U+FE01⟩⟨U+FE02⟩"},
		{"shorthand format control", "a\U0001BCA0b", "a⟨U+1BCA0⟩b"},
		{"musical format control", "a\U0001D173b", "a⟨U+1D173⟩b"},
		{"unassigned ignorable", "a\ufff0b", "a⟨U+FFF0⟩b"},
		{"zwj family emoji kept", "👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"},
		{"vs16 emoji kept", "⚠\ufe0f warn", "⚠\ufe0f warn"},
		{"keycap kept", "1\ufe0f\u20e3", "1\ufe0f\u20e3"},
		{"skin tone zwj kept", "👩🏽\u200d💻", "👩🏽\u200d💻"},
		{"zwnj in persian kept", "می\u200cخواهم", "می\u200cخواهم"},
		{"zwj at the end", "👨\u200d", "👨⟨U+200D⟩"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := Line(tt.in); got != tt.want {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestLookalikesDiffer is the case: two names that print the same
// today must print differently.
func TestLookalikesDiffer(t *testing.T) {
	for _, r := range []rune{0x200B, 0x2060, 0x00AD, 0x3164, 0x200C, 0x200D, 0xFE0F, 0x180E, 0x2064, 0xFEFF} {
		if Line("run"+string(r)+".sh") == Line("run.sh") {
			t.Errorf("U+%04X: run%s.sh prints as run.sh", r, string(r))
		}
	}
}

func TestJSONEscapesIgnorable(t *testing.T) {
	got := string(JSON([]byte("{\"a\": \"run\u200b.sh\u00ad\u3164\"}")))
	if want := `{"a": "run\u200b.sh\u00ad\u3164"}`; got != want {
		t.Errorf("JSON = %s, want %s", got, want)
	}
	if strings.ContainsRune(got, 0x200b) {
		t.Error("raw U+200B in JSON output")
	}
}
