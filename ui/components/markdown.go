package components

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui/common"
)

// RenderMarkdown renders sanitised Markdown with the theme's glamour style,
// then filters the output so only SGR styling survives: an HTML entity such
// as &#x1b; decoded by the Markdown parser must not become a live control
// (D11).
func RenderMarkdown(th *themes.Theme, md string, width int) (string, error) {
	r, err := th.Markdown(width)
	if err != nil {
		return "", err
	}
	out, err := r.Render(sanitize.Text(md))
	if err != nil {
		return "", err
	}
	return safeANSI(strings.Trim(out, "\n")), nil
}

// safeANSI keeps SGR sequences (ESC [ params m) and makes every other control
// visible through sanitize.
func safeANSI(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	seg := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				b.WriteString(sanitize.Text(s[seg:i]))
				b.WriteString(s[i : j+1])
				i = j + 1
				seg = i
				continue
			}
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	b.WriteString(sanitize.Text(s[seg:]))
	return b.String()
}

// PassportMarkdown builds a passport's Markdown from sanitised parts (D11):
// the sender's text may use Markdown, but never terminal controls.
func PassportMarkdown(p common.PassportText) string {
	var b strings.Builder
	title := p.Title
	if title == "" {
		title = "Passport"
	}
	fmt.Fprintf(&b, "# %s\n\n", Line(title))
	if p.ID != "" {
		fmt.Fprintf(&b, "*sender's id: %s*\n\n", Line(p.ID))
	}
	if p.Goal != "" {
		fmt.Fprintf(&b, "## Goal\n\n%s\n\n", Text(p.Goal))
	}
	if p.CurrentState != "" {
		fmt.Fprintf(&b, "## Current state\n\n%s\n\n", Text(p.CurrentState))
	}
	if len(p.Decisions) > 0 {
		b.WriteString("## Decisions\n\n")
		for _, d := range p.Decisions {
			fmt.Fprintf(&b, "- %s\n", Line(d))
		}
		b.WriteString("\n")
	}
	if len(p.NextSteps) > 0 {
		if p.ID != "" {
			b.WriteString("## Next steps (the sender's)\n\n")
		} else {
			b.WriteString("## Next steps\n\n")
		}
		for i, s := range p.NextSteps {
			fmt.Fprintf(&b, "%d. %s\n", i+1, Line(s))
		}
	}
	return b.String()
}
