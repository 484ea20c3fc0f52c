package components

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/tp-dev/tp/themes"
)

func colorTheme(t testing.TB, name string) *themes.Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	th, err := themes.New(name, r)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// assertSafe fails when a view lets a raw control or bidi override through.
func assertSafe(t testing.TB, view string) {
	t.Helper()
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\u202E", "\r", "\u009b", "\x07"} {
		if strings.Contains(view, bad) {
			t.Fatalf("view carries %q:\n%s", bad, view)
		}
	}
}
