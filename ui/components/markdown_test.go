package components

import (
	"strings"
	"testing"
)

// The screens' entry point keeps what ui/markdown promises (D11): an
// entity that decodes to ESC is shown, not obeyed, in every theme.
func TestMarkdownEntitiesCannotBecomeControls(t *testing.T) {
	for _, th := range []string{"no-color", "default", "high-contrast"} {
		out := RenderMarkdown(colorTheme(t, th), "x &#x1b;]52;c;QUFBQQ==&#7; &#x202e;evil &#155;31m &#27;[2J", 60)
		assertSafe(t, out)
		if !strings.Contains(out, `\x1b]52`) {
			t.Fatalf("%s: the entity was not made visible: %q", th, out)
		}
	}
}
