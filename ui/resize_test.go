package ui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
	"github.com/tp-dev/tp/ui/landing"
)

// Every screen fits the terminal at 80×24 and after resizes: no line wider
// than the terminal, no more lines than it has.
func TestScreensFitTheTerminal(t *testing.T) {
	screens := map[string]func(c *common.Common) common.Component{
		"home":    func(c *common.Common) common.Component { return NewHome(c) },
		"inbox":   func(c *common.Common) common.Component { return NewInbox(c) },
		"asks":    func(c *common.Common) common.Component { return NewAsks(c, "TP-AB23-CD45") },
		"receipt": func(c *common.Common) common.Component { return landing.NewReceipt(c, receiptPlan()) },
		"landing": func(c *common.Common) common.Component { return landing.New(c, "x") },
	}
	data := &common.HomeData{Passports: []common.PassportRow{{ID: "TP-AB23-CD45", Title: strings.Repeat("long title ", 20)}}, Packs: []string{"a.taskpack"}}
	for name, mk := range screens {
		for _, size := range [][2]int{{80, 24}, {40, 12}, {132, 43}, {60, 20}, {20, 8}} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, size[0], size[1]), func(t *testing.T) {
				c := testCommon(t, common.Deps{Home: &fakeHome{data}, Inbox: &fakeInbox{acts: sampleActs()}, Asks: &fakeAsks{sheet: sampleSheet()}, Lander: &fakeLander{plan: samplePlan()}})
				d := newDriver(t, New(c, mk(c)))
				d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				for _, k := range []string{"", "down", "tab", "?", "?"} {
					if k != "" {
						d.keys(k)
					}
					v := d.view()
					lines := strings.Split(v, "\n")
					if len(lines) > size[1] {
						t.Fatalf("after %q: %d lines for a %d-line terminal:\n%s", k, len(lines), size[1], v)
					}
					for _, ln := range lines {
						if w := components.Width(ln); w > size[0] {
							t.Fatalf("after %q: a line of %d cells for %d columns: %q", k, w, size[0], ln)
						}
					}
				}
			})
		}
	}
}

// --theme no-color means no colour anywhere, text fields included, even on a
// true-colour terminal.
func TestNoColorThemeEmitsNoColour(t *testing.T) {
	for _, tc := range []struct {
		name string
		mk   func(c *common.Common) common.Component
		keys []string
	}{
		{"inbox note", func(c *common.Common) common.Component { return NewInbox(c) }, []string{"n", "h", "i"}},
		{"inbox filter", func(c *common.Common) common.Component { return NewInbox(c) }, []string{"/"}},
		{"landing answer", func(c *common.Common) common.Component { return landing.New(c, "x") }, []string{"tab", "tab", "tab", "enter"}},
		{"landing edit", func(c *common.Common) common.Component { return landing.New(c, "x") }, []string{"tab", "e"}},
		{"landing passport", func(c *common.Common) common.Component { return landing.New(c, "x") }, []string{"tab", "tab", "tab", "tab"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCommon(t, common.Deps{Inbox: &fakeInbox{acts: sampleActs()}, Lander: &fakeLander{plan: samplePlan()}})
			c.Theme = colorTheme(t, "no-color")
			d := newDriver(t, New(c, tc.mk(c)))
			d.keys(tc.keys...)
			v := d.view()
			for _, m := range sgrRE.FindAllStringSubmatch(v, -1) {
				for _, p := range strings.Split(m[1], ";") {
					if n, err := strconv.Atoi(p); err == nil && (n >= 30 && n <= 49 && n != 39 && n != 49 || n >= 90 && n <= 107) {
						t.Fatalf("colour parameter %d in %q", n, m[0])
					}
				}
			}
		})
	}
}

var sgrRE = regexp.MustCompile("\x1b\\[([0-9;]*)m")

// `?` on every screen at 80×24 shows the full list of keys: columns that do
// not fit the width wrap to a row below instead of being cut with "…", so
// the global keys (esc, ?, q, ctrl+c) are always in it.
func TestFullHelpWrapsAt80Columns(t *testing.T) {
	screens := map[string]func(c *common.Common) common.Component{
		"home":     func(c *common.Common) common.Component { return NewHome(c) },
		"inbox":    func(c *common.Common) common.Component { return NewInbox(c) },
		"asks":     func(c *common.Common) common.Component { return NewAsks(c, "TP-AB23-CD45") },
		"receipt":  func(c *common.Common) common.Component { return landing.NewReceipt(c, receiptPlan()) },
		"landing":  func(c *common.Common) common.Component { return landing.New(c, "x") },
		"checks":   func(c *common.Common) common.Component { return NewChecks(c, "TP-AB23-CD45") },
		"passport": func(c *common.Common) common.Component { return NewPassport(c, "TP-AB23-CD45") },
	}
	data := &common.HomeData{Passports: []common.PassportRow{{ID: "TP-AB23-CD45", Title: "t"}}}
	for name, mk := range screens {
		t.Run(name, func(t *testing.T) {
			c := testCommon(t, common.Deps{Home: &fakeHome{data}, Inbox: &fakeInbox{acts: sampleActs()}, Asks: &fakeAsks{sheet: sampleSheet()},
				Lander: &fakeLander{plan: samplePlan()}, Checks: &fakeChecks{sheet: sampleCheckSheet()}, Passports: &fakePassports{}})
			a := New(c, mk(c))
			d := newDriver(t, a)
			d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
			d.keys("?")
			lines := a.fullHelpLines()
			help := strings.Join(lines, "\n")
			for _, want := range []string{"esc", "? ", "q ", "ctrl+c"} {
				if !strings.Contains(help, want) {
					t.Errorf("full help lacks %q:\n%s", want, help)
				}
			}
			for _, ln := range lines {
				if w := components.Width(ln); w > 80 {
					t.Errorf("a help line of %d cells", w)
				}
			}
			if v := d.view(); !strings.Contains(v, lines[len(lines)-1]) || strings.Count(v, "\n")+1 > 24 {
				t.Errorf("the full help does not fit the screen:\n%s", v)
			}
		})
	}
}
