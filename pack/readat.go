package pack

import (
	"io"
	"sync"
)

// windowReader is an io.ReaderAt over a pack file that answers small reads
// from a few windows of the file read whole. The ZIP reader reads each
// entry's 30-byte local header, its compressed bytes and its data
// descriptor with a read each, in archive order, and more than one pass
// goes over the entries: a pack of 5,000 small files made 30,000 reads of a
// few dozen bytes, where reading the archive in order takes a few dozen
// (issue 20). Reads of half a window or more go to the file directly.
// Several windows, so the extraction's workers each streaming their own
// entry do not evict one another's. Safe for concurrent use.
type windowReader struct {
	r    io.ReaderAt
	size int64

	mu   sync.Mutex
	wins [windowCount]window
	tick uint64
}

const (
	windowSize  = 256 << 10
	windowCount = 8
)

type window struct {
	off  int64
	buf  []byte // the bytes at off; nil: empty
	used uint64 // tick of the last read, for eviction
}

func newWindowReader(r io.ReaderAt, size int64) *windowReader {
	return &windowReader{r: r, size: size}
}

func (w *windowReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return w.r.ReadAt(p, off)
	}
	if len(p) >= windowSize/2 || off >= w.size {
		return w.r.ReadAt(p, off)
	}
	end := off + int64(len(p))
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tick++
	for i := range w.wins {
		win := &w.wins[i]
		if win.buf != nil && off >= win.off && end <= win.off+int64(len(win.buf)) {
			win.used = w.tick
			return copy(p, win.buf[off-win.off:]), nil
		}
	}
	// Refill the least recently used window from off.
	lru := &w.wins[0]
	for i := range w.wins {
		if w.wins[i].used < lru.used {
			lru = &w.wins[i]
		}
	}
	n := int64(windowSize)
	if rest := w.size - off; rest < n {
		n = rest
	}
	if int64(cap(lru.buf)) < n {
		// No bigger than the file: a pack of a few kilobytes, opened once
		// per MCP call, would otherwise clear a quarter megabyte each time.
		lru.buf = make([]byte, min(int64(windowSize), w.size))
	}
	buf := lru.buf[:n]
	k, err := w.r.ReadAt(buf, off)
	if k < len(buf) {
		// The file is shorter than it was (or failed): no window; the
		// caller gets what the file gave.
		lru.buf, lru.used = nil, 0
		m := copy(p, buf[:k])
		if err == nil || m == len(p) && err == io.EOF {
			if m < len(p) {
				err = io.EOF
			} else {
				err = nil
			}
		}
		return m, err
	}
	lru.off, lru.buf, lru.used = off, buf, w.tick
	m := copy(p, buf)
	if m < len(p) {
		return m, io.EOF
	}
	return m, nil
}
