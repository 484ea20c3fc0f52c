package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
)

// listingIDs are n passport ids of the store's alphabet.
func listingIDs(n int) []string {
	const abc = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("TP-BNCH-%c%c%c", abc[(i/900)%30], abc[(i/30)%30], abc[i%30])
	}
	return ids
}

// The home screen's first frame (issue 20), before any passport or the
// acts log is read: the passport files by id and their number, and what is
// still being read, said as such, at the three sizes. It claims no title,
// no count of asks, acts or packs, and no "none".
func TestHomeListingGoldens(t *testing.T) {
	for _, sz := range [][2]int{{60, 20}, {80, 24}, {100, 30}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			c := testCommon(t, common.Deps{Home: &fakeHome{}})
			app := New(c, NewHome(c))
			app.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			app.Update(HomeListedMsg{Listing: &common.HomeListing{Passports: listingIDs(1000)}})
			v := app.View()
			assertSafe(t, v)
			if n := strings.Count(v, "\n") + 1; n > sz[1] {
				t.Fatalf("%d lines on a %d-line screen:\n%s", n, sz[1], v)
			}
			for _, want := range []string{"Passports (1000)", "reading 1000 files", "TP-BNCH-AAA", "more passport files, listed once read", "reading the acts log", "Packs in this folder · looking"} {
				if !strings.Contains(v, want) {
					t.Errorf("the first frame lacks %q:\n%s", want, v)
				}
			}
			lines := strings.Split(v, "\n")
			body := strings.Join(lines[1:len(lines)-1], "\n") // less the title and the keys' bar
			for _, claim := range []string{"none", "nothing waiting", "open ask", "check", "enter to land", "✓", " open"} {
				if strings.Contains(body, claim) {
					t.Errorf("the first frame claims %q before reading anything:\n%s", claim, v)
				}
			}
			requireGolden(t, v)
		})
	}
}

// listingHome lists first and loads after, as the store's backend does.
type listingHome struct {
	fakeHome
	ids    []string
	listed bool
}

func (l *listingHome) ListHome(ctx context.Context) (*common.HomeListing, error) {
	l.listed = true
	return &common.HomeListing{Passports: l.ids}, nil
}

// The listing is drawn only until the lists are read: then the home screen
// is what it always was, and a later listing (none comes) or a refresh
// never puts the unread state back.
func TestHomeListingThenLoaded(t *testing.T) {
	t.Parallel()
	data := &common.HomeData{Passports: []common.PassportRow{{ID: "TP-AB23-CD45", Title: "Image pipeline"}}}
	src := &listingHome{fakeHome: fakeHome{data}, ids: []string{"TP-AB23-CD45"}}
	c := testCommon(t, common.Deps{Home: src})
	d := newDriver(t, New(c, NewHome(c)))
	if !src.listed {
		t.Fatal("the home screen did not list first")
	}
	v := d.view()
	if !strings.Contains(v, "Image pipeline") || strings.Contains(v, "reading") {
		t.Fatalf("after the load the home screen still shows the listing:\n%s", v)
	}
	d.send(HomeListedMsg{Listing: &common.HomeListing{Passports: listingIDs(3)}})
	if v := d.view(); !strings.Contains(v, "Image pipeline") || strings.Contains(v, "TP-BNCH") {
		t.Fatalf("a listing after the load replaced the lists:\n%s", v)
	}
}
