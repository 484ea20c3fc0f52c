package components

import (
	"fmt"
	"strings"

	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/markdown"
)

// RenderMarkdown draws sanitised Markdown in the theme's styles, wrapped to
// width. ui/markdown sanitises the text again after decoding entities, so
// "&#x1b;" cannot become a live control (D11).
func RenderMarkdown(th *themes.Theme, md string, width int) string {
	return markdown.Render(&th.Markdown, md, width)
}

// Inline draws one sentence of untrusted text as inline Markdown (code
// spans, emphasis) wrapped to width: a next step or a hint on a screen
// never shows raw backticks or **…** (issue 17).
func Inline(th *themes.Theme, s string, width int) []string {
	return markdown.Inline(&th.Markdown, s, width)
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
	if len(p.Facts) > 0 {
		b.WriteString("## Facts\n\n")
		for _, f := range p.Facts {
			scope := f.Scope
			if scope == "" {
				scope = "no scope: counts as machine"
			}
			words := FactWords(f) // sanitised there
			switch {
			case f.Verified && f.From != "":
				fmt.Fprintf(&b, "- ✓ %s (%s; verified by the sender %s: their word, not proven on this machine)%s\n", Line(f.Claim), Line(scope), Line(f.From), words)
			case f.Verified:
				fmt.Fprintf(&b, "- ✓ %s (%s)%s\n", Line(f.Claim), Line(scope), words)
			case f.Sealed:
				fmt.Fprintf(&b, "- ⚠ %s (%s; sealed, verified_on %s: re-verify before relying on it)%s\n", Line(f.Claim), Line(scope), Line(f.VerifiedOn), words)
			default:
				fmt.Fprintf(&b, "- ⚠ %s (%s; not verified)%s\n", Line(f.Claim), Line(scope), words)
			}
		}
		b.WriteString("\n")
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
			if i < len(p.NextStepsFrom) && p.NextStepsFrom[i] != "" {
				fmt.Fprintf(&b, "%d. %s — from the sender %s, as it arrived\n", i+1, Line(s), Line(p.NextStepsFrom[i]))
				continue
			}
			fmt.Fprintf(&b, "%d. %s\n", i+1, Line(s))
		}
	}
	if len(p.Artifacts) > 0 {
		b.WriteString("\n## Artifacts\n\n")
		for _, a := range p.Artifacts {
			fmt.Fprintf(&b, "- %s\n", Line(a))
		}
	}
	return b.String()
}
