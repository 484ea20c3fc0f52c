// Package themename is the terminal UI's theme names and the check of
// --theme, without the styles: the core executable checks --theme before
// any command runs and must not link lipgloss for it (D26).
package themename

import (
	"fmt"
	"sort"
	"strings"
)

// Theme names accepted by --theme.
const (
	Default      = "default"
	HighContrast = "high-contrast"
	NoColor      = "no-color"
)

// Names lists the themes in a stable order.
func Names() []string { return []string{Default, HighContrast, NoColor} }

// Check says whether --theme name is a theme themes.New builds: nil, or the
// one error an unknown name gets, naming the known themes. The command line
// asks it before any command runs, headless or not, so NO_COLOR (which
// overrides the theme) never lets a mistyped name pass in one mode and
// fail in the other.
func Check(name string) error {
	switch Canonical(name) {
	case Default, HighContrast, NoColor:
		return nil
	}
	n := Names()
	sort.Strings(n)
	return fmt.Errorf("unknown theme %q (known: %s)", name, strings.Join(n, ", "))
}

// Canonical is the theme a --theme value names ("" is the default;
// "nocolor" and "none" are no-color), or the value itself, lowered, when it
// names none.
func Canonical(name string) string {
	switch n := strings.ToLower(strings.TrimSpace(name)); n {
	case "":
		return Default
	case "nocolor", "none":
		return NoColor
	default:
		return n
	}
}
