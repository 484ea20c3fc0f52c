package themes

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func colorRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	return r
}

func TestChoose(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name, flag string
		env        map[string]string
		want       string
		err        bool
	}{
		{"default", "", nil, Default, false},
		{"flag", "high-contrast", nil, HighContrast, false},
		{"NO_COLOR wins over the flag", "high-contrast", map[string]string{"NO_COLOR": "1"}, NoColor, false},
		{"no-color by flag", "no-color", nil, NoColor, false},
		{"unknown", "neon", nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th, err := Choose(tt.flag, env(tt.env), colorRenderer())
			if (err != nil) != tt.err {
				t.Fatalf("err %v", err)
			}
			if err == nil && th.Name != tt.want {
				t.Fatalf("got %s, want %s", th.Name, tt.want)
			}
		})
	}
}

// The no-color theme emits no colour even on a true-colour terminal; the
// others do.
func TestNoColorHasNoColour(t *testing.T) {
	for _, name := range Names() {
		th, _ := New(name, colorRenderer())
		out := th.Pass.Render("ok") + th.Fail.Render("no") + th.Warn.Render("w") + th.Sender.Render("s")
		hasColour := containsAny(out, "38;5;", "38;2;", "[3", "[9", ";9")
		if name == NoColor && hasColour {
			t.Errorf("no-color rendered colour: %q", out)
		}
		if name != NoColor && !hasColour {
			t.Errorf("%s rendered no colour: %q", name, out)
		}
	}
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		for i := 0; i+len(x) <= len(s); i++ {
			if s[i:i+len(x)] == x {
				return true
			}
		}
	}
	return false
}

// The Markdown styles: colour themes style, the no-colour theme writes no
// escape at all and shows the Markdown marks instead.
func TestMarkdownStyles(t *testing.T) {
	for _, name := range Names() {
		th, _ := New(name, colorRenderer())
		m := th.Markdown
		all := []lipgloss.Style{m.H1, m.H2, m.H3, m.Emph, m.Strong, m.Strike, m.Code, m.CodeBlock, m.Link, m.URL, m.Quote, m.Rule, m.Bullet, m.TableHead, m.TableRule}
		escapes := 0
		for _, st := range all {
			if strings.Contains(st.Render("x"), "\x1b") {
				escapes++
			}
		}
		if name == NoColor {
			if escapes != 0 || !m.Marks {
				t.Errorf("%s: %d Markdown styles write escapes (marks %v)", name, escapes, m.Marks)
			}
			continue
		}
		if escapes == 0 || m.Marks {
			t.Errorf("%s: the Markdown is not styled (marks %v)", name, m.Marks)
		}
	}
}
