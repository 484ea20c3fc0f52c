package components

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func keyOf(s string) tea.KeyMsg {
	switch s {
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func lines(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(i)
	}
	return out
}

func TestWindowClampsWithoutWriting(t *testing.T) {
	for _, tc := range []struct{ n, off, h, wantOff, wantLen int }{
		{10, 0, 4, 0, 4},
		{10, 8, 4, 6, 4},   // past the end: the view stays full
		{3, 2, 4, 0, 3},    // shorter than the window
		{10, -5, 4, 0, 4},  // before the start
		{10, 100, 0, 0, 0}, // no room
	} {
		vis, off := Window(lines(tc.n), tc.off, tc.h)
		if off != tc.wantOff || len(vis) != tc.wantLen {
			t.Errorf("Window(%d lines, off %d, h %d) = %d lines from %d, want %d from %d", tc.n, tc.off, tc.h, len(vis), off, tc.wantLen, tc.wantOff)
		}
	}
}

// A pager moved past the end is clamped by Update, so the next key moves
// from what is shown and View has nothing to correct.
func TestPagerClampsInUpdate(t *testing.T) {
	// 30 lines in 10 rows: 9 of content and the "lines x–y of n" mark.
	p := Pager{Keys: DefaultListKeys()}
	p.Update(keyOf("G"), 30, 10)
	if p.Off != 21 {
		t.Fatalf("G: offset %d, want 21", p.Off)
	}
	p.Update(keyOf("up"), 30, 10)
	if p.Off != 20 {
		t.Fatalf("up after G: offset %d, want 20", p.Off)
	}
	if vis, off := p.View(lines(30), 10); off != 20 || vis[0] != "20" || p.Off != 20 || vis[9] != "lines 21–29 of 30 · ↑/↓ pgup/pgdn scroll" {
		t.Fatalf("view from %d starting %q ending %q", off, vis[0], vis[len(vis)-1])
	}
	if p.Update(keyOf("x"), 30, 10) {
		t.Fatal("x is not a movement key")
	}
}

func TestCursorKeepsInView(t *testing.T) {
	c := Cursor{Keys: DefaultListKeys()}
	for range 7 {
		c.Update(keyOf("down"), 10, 3)
	}
	if c.Cur != 7 || c.Off != 5 {
		t.Fatalf("cursor %d offset %d, want 7 and 5", c.Cur, c.Off)
	}
	if from, to := c.Range(10, 3); from != 5 || to != 8 {
		t.Fatalf("range %d–%d", from, to)
	}
	c.Fit(10, 8) // a taller window shows more above
	if c.Off != 2 {
		t.Fatalf("after growing: offset %d, want 2", c.Off)
	}
	c.Set(99, 10, 8)
	if c.Cur != 9 {
		t.Fatalf("Set past the end: %d", c.Cur)
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 files"}, {1, "1 file"}, {2, "2 files"}} {
		if got := Count(tc.n, "file", "files"); got != tc.want {
			t.Errorf("Count(%d) = %q", tc.n, got)
		}
	}
}

// TestNothingCutSilently: content taller than its rows is counted on
// screen, by Pad and by Scrolled (issue 17).
func TestNothingCutSilently(t *testing.T) {
	got := strings.Split(Pad(lines(30), 40, 10), "\n")
	if len(got) != 10 || got[8] != "8" || !strings.Contains(got[9], "21 more lines not shown") {
		t.Errorf("Pad cut 30 lines to 10 as %q", got)
	}
	if got := strings.Split(Pad(lines(3), 40, 10), "\n"); len(got) != 10 || got[2] != "2" || got[3] != "" {
		t.Errorf("Pad of what fits changed it: %q", got)
	}
	vis, _ := Scrolled(lines(30), 25, 10, "keys")
	if len(vis) != 10 || vis[0] != "21" || vis[9] != "lines 22–30 of 30 · keys" {
		t.Errorf("Scrolled = %q", vis)
	}
}
