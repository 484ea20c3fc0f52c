// Package themes holds the terminal UI's styles, named by meaning (Pass,
// Fail, Warn, Sender, …), and is the only place in tp where colours are
// chosen (docs/architecture.md). The ui package receives a *Theme and never builds
// a style of its own.
//
// Three themes exist: "default" (adaptive to light and dark terminals),
// "high-contrast" and "no-color". NO_COLOR (https://no-color.org) selects
// "no-color" whatever --theme says.
package themes

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/tp-dev/tp/internal/themename"
)

// Theme names accepted by --theme (package themename, which the core
// executable links without the styles, D26).
const (
	Default      = themename.Default
	HighContrast = themename.HighContrast
	NoColor      = themename.NoColor
)

// Names lists the themes in a stable order.
func Names() []string { return themename.Names() }

// Theme is every style the UI uses, by meaning.
type Theme struct {
	Name string

	Title    lipgloss.Style // screen title
	Subtitle lipgloss.Style // step name, section heading
	Text     lipgloss.Style // ordinary text
	Muted    lipgloss.Style // secondary text: ids, sizes, dates
	Key      lipgloss.Style // a key the person can press, inline
	Pass     lipgloss.Style // ✓ passed, verified, conformant
	Fail     lipgloss.Style // ✗ failed, refused, not conformant
	Warn     lipgloss.Style // ⚠ sealed facts, warnings, things to read twice
	Sender   lipgloss.Style // text the sender wrote about itself (suggestions)
	Data     lipgloss.Style // quoted untrusted text that reads like instructions
	Selected lipgloss.Style // the row under the cursor
	Cursor   lipgloss.Style // the cursor mark
	Tab      lipgloss.Style // a step in the step bar
	TabOn    lipgloss.Style // the current step
	Box      lipgloss.Style // a framed panel
	// SenderBox frames what came from the sender (the `how`), visibly
	// different from Box so it is never mistaken for tp's own advice.
	SenderBox lipgloss.Style
	// Dialog frames a confirmation that will do something.
	Dialog lipgloss.Style
	Error  lipgloss.Style // an error line
	Help   HelpStyles

	// ProgressFull/Empty colour the progress bar ("" means no colour).
	ProgressFull  string
	ProgressEmpty string

	// Markdown styles the passport's Markdown (ui/markdown).
	Markdown Markdown
}

// Markdown is how ui/markdown draws each Markdown element. Themes without
// colour set Marks, so headings, emphasis and code keep their Markdown marks
// (#, *, `) instead of relying on attributes the terminal may not show.
type Markdown struct {
	H1, H2, H3 lipgloss.Style // H3 serves levels 3–6
	Emph       lipgloss.Style // *emphasis*
	Strong     lipgloss.Style // **strong**
	Strike     lipgloss.Style // ~~struck through~~
	Code       lipgloss.Style // `code` spans
	CodeBlock  lipgloss.Style // fenced and indented code, monochrome
	Link       lipgloss.Style // a link's text
	URL        lipgloss.Style // a link's address, shown after its text
	Quote      lipgloss.Style // the bar before quoted lines
	Rule       lipgloss.Style // a thematic break
	Bullet     lipgloss.Style // list markers
	TableHead  lipgloss.Style // a table's header cells
	TableRule  lipgloss.Style // the lines between a table's cells
	Marks      bool           // show #, *, ** and ` around what they mark
}

// HelpStyles style the bubbles/help line.
type HelpStyles struct {
	ShortKey, ShortDesc, ShortSeparator, Ellipsis lipgloss.Style
	FullKey, FullDesc, FullSeparator              lipgloss.Style
}

// Choose returns the theme for --theme name, honouring NO_COLOR (getenv may
// be nil). An empty name is "default". The renderer decides the colour
// profile; nil means lipgloss's default renderer.
func Choose(name string, getenv func(string) string, r *lipgloss.Renderer) (*Theme, error) {
	if getenv != nil {
		if _, ok := lookup(getenv, "NO_COLOR"); ok {
			name = NoColor
		}
	}
	return New(name, r)
}

func lookup(getenv func(string) string, k string) (string, bool) {
	v := getenv(k)
	return v, v != ""
}

// New builds the named theme for renderer r (nil: lipgloss's default).
func New(name string, r *lipgloss.Renderer) (*Theme, error) {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	switch themename.Canonical(name) {
	case Default:
		return build(Default, r, defaultPalette), nil
	case HighContrast:
		return build(HighContrast, r, highContrastPalette), nil
	case NoColor:
		return noColor(r), nil
	}
	return nil, Check(name)
}

// Check says whether --theme name is a theme New builds (themename.Check).
func Check(name string) error { return themename.Check(name) }

type palette struct {
	fg, muted, accent, pass, fail, warn, sender, data, selBg, selFg, border, senderBorder lipgloss.TerminalColor
	progressFull, progressEmpty                                                           string
}

var defaultPalette = palette{
	fg:           lipgloss.AdaptiveColor{Light: "235", Dark: "252"},
	muted:        lipgloss.AdaptiveColor{Light: "243", Dark: "245"},
	accent:       lipgloss.AdaptiveColor{Light: "25", Dark: "75"},
	pass:         lipgloss.AdaptiveColor{Light: "28", Dark: "78"},
	fail:         lipgloss.AdaptiveColor{Light: "160", Dark: "203"},
	warn:         lipgloss.AdaptiveColor{Light: "130", Dark: "214"},
	sender:       lipgloss.AdaptiveColor{Light: "90", Dark: "176"},
	data:         lipgloss.AdaptiveColor{Light: "94", Dark: "180"},
	selBg:        lipgloss.AdaptiveColor{Light: "254", Dark: "237"},
	selFg:        lipgloss.AdaptiveColor{Light: "232", Dark: "255"},
	border:       lipgloss.AdaptiveColor{Light: "245", Dark: "240"},
	senderBorder: lipgloss.AdaptiveColor{Light: "90", Dark: "176"},
	progressFull: "#5A56E0", progressEmpty: "#606060",
}

var highContrastPalette = palette{
	fg:           lipgloss.AdaptiveColor{Light: "0", Dark: "15"},
	muted:        lipgloss.AdaptiveColor{Light: "0", Dark: "15"},
	accent:       lipgloss.AdaptiveColor{Light: "4", Dark: "14"},
	pass:         lipgloss.AdaptiveColor{Light: "2", Dark: "10"},
	fail:         lipgloss.AdaptiveColor{Light: "1", Dark: "9"},
	warn:         lipgloss.AdaptiveColor{Light: "3", Dark: "11"},
	sender:       lipgloss.AdaptiveColor{Light: "5", Dark: "13"},
	data:         lipgloss.AdaptiveColor{Light: "3", Dark: "11"},
	selBg:        lipgloss.AdaptiveColor{Light: "0", Dark: "15"},
	selFg:        lipgloss.AdaptiveColor{Light: "15", Dark: "0"},
	border:       lipgloss.AdaptiveColor{Light: "0", Dark: "15"},
	senderBorder: lipgloss.AdaptiveColor{Light: "5", Dark: "13"},
	progressFull: "#FFFFFF", progressEmpty: "#000000",
}

func build(name string, r *lipgloss.Renderer, p palette) *Theme {
	s := func() lipgloss.Style { return r.NewStyle() }
	t := &Theme{
		Name:      name,
		Title:     s().Bold(true).Foreground(p.accent),
		Subtitle:  s().Bold(true).Foreground(p.fg),
		Text:      s().Foreground(p.fg),
		Muted:     s().Foreground(p.muted),
		Key:       s().Bold(true).Foreground(p.accent),
		Pass:      s().Foreground(p.pass),
		Fail:      s().Bold(true).Foreground(p.fail),
		Warn:      s().Foreground(p.warn),
		Sender:    s().Italic(true).Foreground(p.sender),
		Data:      s().Foreground(p.data),
		Selected:  s().Bold(true).Foreground(p.selFg).Background(p.selBg),
		Cursor:    s().Bold(true).Foreground(p.accent),
		Tab:       s().Foreground(p.muted),
		TabOn:     s().Bold(true).Reverse(true).Foreground(p.accent),
		Box:       s().Border(lipgloss.RoundedBorder()).BorderForeground(p.border).Padding(0, 1),
		SenderBox: s().Border(lipgloss.DoubleBorder()).BorderForeground(p.senderBorder).Padding(0, 1),
		Dialog:    s().Border(lipgloss.ThickBorder()).BorderForeground(p.warn).Padding(0, 1),
		Error:     s().Bold(true).Foreground(p.fail),
		Help: HelpStyles{
			ShortKey: s().Foreground(p.accent), ShortDesc: s().Foreground(p.muted),
			ShortSeparator: s().Foreground(p.border), Ellipsis: s().Foreground(p.border),
			FullKey: s().Foreground(p.accent), FullDesc: s().Foreground(p.muted),
			FullSeparator: s().Foreground(p.border),
		},
		ProgressFull:  p.progressFull,
		ProgressEmpty: p.progressEmpty,
		Markdown: Markdown{
			H1:        s().Bold(true).Reverse(true).Foreground(p.accent),
			H2:        s().Bold(true).Foreground(p.accent),
			H3:        s().Bold(true).Foreground(p.fg),
			Emph:      s().Italic(true),
			Strong:    s().Bold(true),
			Strike:    s().Strikethrough(true),
			Code:      s().Foreground(p.data),
			CodeBlock: s().Foreground(p.fg),
			Link:      s().Foreground(p.accent),
			URL:       s().Foreground(p.muted),
			Quote:     s().Foreground(p.border),
			Rule:      s().Foreground(p.border),
			Bullet:    s().Foreground(p.accent),
			TableHead: s().Bold(true),
			TableRule: s().Foreground(p.border),
		},
	}
	if name == HighContrast {
		t.Muted = t.Muted.Faint(false)
		t.Warn = t.Warn.Bold(true)
		t.Sender = t.Sender.Bold(true)
	}
	return t
}

// noColor is the theme for NO_COLOR and for stable snapshots: meaning is
// carried by symbols, borders and bold/reverse only.
func noColor(r *lipgloss.Renderer) *Theme {
	s := func() lipgloss.Style { return r.NewStyle() }
	plain := s()
	return &Theme{
		Name:      NoColor,
		Title:     s().Bold(true),
		Subtitle:  s().Bold(true),
		Text:      plain,
		Muted:     plain,
		Key:       s().Bold(true),
		Pass:      plain,
		Fail:      s().Bold(true),
		Warn:      plain,
		Sender:    plain,
		Data:      plain,
		Selected:  s().Reverse(true),
		Cursor:    s().Bold(true),
		Tab:       plain,
		TabOn:     s().Bold(true).Reverse(true),
		Box:       s().Border(lipgloss.NormalBorder()).Padding(0, 1),
		SenderBox: s().Border(lipgloss.DoubleBorder()).Padding(0, 1),
		Dialog:    s().Border(lipgloss.ThickBorder()).Padding(0, 1),
		Error:     s().Bold(true),
		Help: HelpStyles{
			ShortKey: plain, ShortDesc: plain, ShortSeparator: plain, Ellipsis: plain,
			FullKey: plain, FullDesc: plain, FullSeparator: plain,
		},
		// No attributes at all in the Markdown: the marks carry the meaning.
		Markdown: Markdown{
			H1: plain, H2: plain, H3: plain, Emph: plain, Strong: plain, Strike: plain, Code: plain,
			CodeBlock: plain, Link: plain, URL: plain, Quote: plain, Rule: plain,
			Bullet: plain, TableHead: plain, TableRule: plain, Marks: true,
		},
	}
}
