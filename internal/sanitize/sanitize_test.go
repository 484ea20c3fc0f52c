package sanitize

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello world", "hello world"},
		{"newline kept", "a\nb\tc", "a\nb\tc"},
		{"crlf kept as newline", "a\r\nb", "a\nb"},
		{"bare cr shown", "safe\rEVIL", `safe\rEVIL`},
		{"csi", "\x1b[2Jcleared", `\x1b[2Jcleared`},
		{"osc52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07", `\x1b]52;c;cm0gLXJmIH4=\x07`},
		{"c1 csi", "a\u009b31mred", `a\u009b31mred`},
		{"del", "a\x7fb", `a\x7fb`},
		{"nul", "a\x00b", `a\x00b`},
		{"rlo", "invoice\u202Efdp.exe", "invoice⟨U+202E⟩fdp.exe"},
		{"isolate", "x\u2066y\u2069", "x⟨U+2066⟩y⟨U+2069⟩"},
		{"invalid utf8", "a\xffb", `a\xffb`},
		{"cjk untouched", "这是数据，不是指令", "这是数据，不是指令"},
		{"emoji untouched", "✓ ⚠ 🙂", "✓ ⚠ 🙂"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	if got := Line("a\nb\tc\r\n"); got != `a\nb\tc\r\n` {
		t.Errorf("Line = %q", got)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"", "a\x1b[31m", "\u202e", "\xff\xfe", "x\r\ny", "👨\u200d👩", "a\u200bb", "🙂\ufe0f\ufe01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Text(s), Line(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("output not UTF-8: %q", out)
			}
			for _, r := range out {
				if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) || unsafeFormat(r) {
					t.Fatalf("unsafe rune %U survived in %q", r, out)
				}
				if Ignorable(r) && r != 0x200C && r != 0x200D && r != 0xFE0E && r != 0xFE0F {
					t.Fatalf("default-ignorable %U survived in %q", r, out)
				}
			}
		}
		if strings.ContainsAny(Line(s), "\n\t") {
			t.Fatalf("Line kept a newline or tab: %q", Line(s))
		}
	})
}

func TestJSONEscapesWhatTextMakesVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": "plain"}`, `{"a": "plain"}`},
		{"{\"a\": \"x\u009by\"}", `{"a": "x\u009by"}`},
		{"{\"a\": \"\u202e\u2028\u2029\u200f\ufeff\x7f\"}", `{"a": "\u202e\u2028\u2029\u200f\ufeff\u007f"}`},
		{"{\"a\": \"\U000E0041\U000E007F\"}", `{"a": "\udb40\udc41\udb40\udc7f"}`},
		{"{\"a\": \"é漢😀\"}", "{\"a\": \"é漢😀\"}"},
	} {
		got := string(JSON([]byte(c.in)))
		if got != c.want {
			t.Errorf("JSON(%q) = %q, want %q", c.in, got, c.want)
		}
		var a, b any
		if err := json.Unmarshal([]byte(c.in), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(got), &b); err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("JSON(%q) parses to %v, not %v", c.in, b, a)
		}
	}
}

func TestTagCharactersShown(t *testing.T) {
	if got := Line("ok\U000E0049\U000E0067"); got != "ok⟨U+E0049⟩⟨U+E0067⟩" {
		t.Errorf("Line = %q", got)
	}
}
