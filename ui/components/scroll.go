package components

import tea "github.com/charmbracelet/bubbletea"

// Window returns the lines of ls that fit in h starting at off, clamping
// off so the view is always full when it can be. It changes nothing: a
// View may call it.
func Window(ls []string, off, h int) ([]string, int) {
	if h <= 0 {
		return nil, 0
	}
	off = Clamp(off, len(ls), h)
	end := min(off+h, len(ls))
	return ls[off:end], off
}

// Clamp keeps a scroll offset within a content of n lines shown h at a time.
func Clamp(off, n, h int) int {
	if off > n-h {
		off = n - h
	}
	return max(off, 0)
}

// Follow returns an offset that keeps cursor visible in a window of h rows
// over n rows.
func Follow(off, cursor, h, n int) int {
	if h <= 0 {
		return 0
	}
	if cursor < off {
		off = cursor
	}
	if cursor >= off+h {
		off = cursor - h + 1
	}
	return Clamp(off, n, h)
}

// Pager scrolls a block of text that has no cursor (a summary, a recap).
// Update moves and clamps it; View only reads it.
type Pager struct {
	Off  int
	Keys ListKeys
	// Hint follows "lines x–y of n" on the mark row; empty: how to scroll.
	Hint string
}

// Update applies a movement key for content of n lines shown h at a time;
// it reports whether msg was one.
func (p *Pager) Update(msg tea.KeyMsg, n, h int) bool {
	if n > h && h > 1 {
		h-- // View keeps the last row for the "lines x–y of n" mark
	}
	off, ok := p.Keys.Move(msg, p.Off, 1<<30, h)
	if ok {
		p.Off = Clamp(off, n, h)
	}
	return ok
}

// View returns the lines of ls shown from the offset in h rows, and the
// offset used. Content taller than h ends in a row that counts what is off
// screen ("lines 1–9 of 40 · ↑/↓ pgup/pgdn scroll", issue 17).
func (p Pager) View(ls []string, h int) ([]string, int) {
	hint := p.Hint
	if hint == "" {
		hint = "↑/↓ pgup/pgdn scroll"
	}
	return Scrolled(ls, p.Off, h, hint)
}

// Cursor is a cursor over a list of rows of which h are shown: Update moves
// it and keeps it in view; View reads Cur and Off.
type Cursor struct {
	Cur, Off int
	Keys     ListKeys
}

// Update applies a movement key over n rows shown h at a time (h is also the
// page size); it reports whether msg was one.
func (c *Cursor) Update(msg tea.KeyMsg, n, h int) bool {
	cur, ok := c.Keys.Move(msg, c.Cur, n, h)
	if ok {
		c.Cur = cur
		c.Off = Follow(c.Off, c.Cur, h, n)
	}
	return ok
}

// Set moves the cursor to i and keeps it in view.
func (c *Cursor) Set(i, n, h int) {
	c.Cur = max(min(i, n-1), 0)
	c.Off = Follow(c.Off, c.Cur, h, n)
}

// Fit keeps the cursor in view after the list or its window changed size.
func (c *Cursor) Fit(n, h int) { c.Off = Follow(c.Off, c.Cur, h, n) }

// Range is the rows [from, to) shown in a window of h rows over n: what
// Update stored, clamped, without writing it back.
func (c Cursor) Range(n, h int) (from, to int) {
	from = Follow(c.Off, c.Cur, h, n)
	return from, min(from+h, n)
}
