package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A credential in Markdown is redacted like --plain redacts it, also when
// the sender spells it with entities or backslash escapes, which the parser
// decodes after the first pass (issue 17: the TUI showed what --plain hid).
func TestRenderRedactsCredentials(t *testing.T) {
	secret := "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
	for _, md := range []string{
		"goal: sk-ant-api03-" + secret,
		"goal: &#x73;k-ant-api03-" + secret,
		"goal: sk&#45;ant-api03-" + secret,
		"goal: sk\\-ant-api03-" + secret,
		"`sk-ant-api03-" + secret + "`",
		"```\nexport KEY=sk-ant-api03-" + secret + "\n```",
		"| k |\n|---|\n| sk-ant-api03-" + secret + " |",
		"[x](https://u.example/sk-ant-api03-" + secret + ")",
	} {
		out := ansi.Strip(Render(theme(t, "default"), md, 80))
		if strings.Contains(strings.ReplaceAll(out, "\n", ""), secret[4:24]) {
			t.Errorf("%q: the secret is on screen:\n%s", md, out)
		}
		if !strings.Contains(out, "not shown") {
			t.Errorf("%q: no marker says a credential was left out:\n%s", md, out)
		}
	}
}

func TestRenderShowsIgnorable(t *testing.T) {
	out := ansi.Strip(Render(theme(t, "default"), "run `run\u200b.sh` then run&#x200b;.sh", 80))
	if strings.Count(out, "⟨U+200B⟩") != 2 {
		t.Errorf("the zero-width spaces are not shown:\n%q", out)
	}
}
