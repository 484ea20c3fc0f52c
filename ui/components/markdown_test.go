package components

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafeANSI(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[1;38;5;75mbold\x1b[0m", "\x1b[1;38;5;75mbold\x1b[0m"},
		{"\x1b]52;c;AAAA\x07", `\x1b]52;c;AAAA\x07`},
		{"\x1b[2J", `\x1b[2J`},
		{"\x1b[31mred\x1b]8;;http://x\x1b\\", "\x1b[31mred" + `\x1b]8;;http://x\x1b\`},
		{"a\u202eb", "a⟨U+202E⟩b"},
		{"\u009b31m", `\u009b31m`},
		{"line\nnext", "line\nnext"},
	}
	for _, tt := range tests {
		if got := safeANSI(tt.in); got != tt.want {
			t.Errorf("safeANSI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Glamour decodes HTML entities, so sanitising the Markdown input is not
// enough: "&#x1b;]52;…" would come out as a live OSC 52. The output filter
// must catch it.
func TestMarkdownEntitiesCannotBecomeControls(t *testing.T) {
	for _, th := range []string{"no-color", "default", "high-contrast"} {
		out, err := RenderMarkdown(colorTheme(t, th), "x &#x1b;]52;c;QUFBQQ==&#7; &#x202e;evil &#155;31m &#27;[2J", 60)
		if err != nil {
			t.Fatal(err)
		}
		assertSafe(t, out)
		if !strings.Contains(out, `\x1b]52`) {
			t.Fatalf("%s: the entity was not made visible: %q", th, out)
		}
	}
}

// FuzzSafeANSI: whatever goes in, only SGR sequences come out, and no C0/C1
// control other than newline and tab.
func FuzzSafeANSI(f *testing.F) {
	for _, s := range []string{"\x1b[0m", "\x1b]52;c;AA\x07", "\x1b[", "\x1b[12", "a\u202e", "\xff\xfe", "\x1b[1;2m\x1b[m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := safeANSI(s)
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
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e {
				t.Fatalf("control %U in %q", r, out)
			}
			i += n
		}
	})
}
