package scan

import (
	"errors"
	"strconv"
	"strings"
	"sync"
)

const luggagePrefix = "data/files/"

// LuggageScanner searches a luggage file's bytes for credentials (C7: "in the
// luggage", every byte, not a prefix). Write it the file as a stream: it keeps
// a fixed-size buffer (the overlap a token may span plus one chunk), so memory
// does not grow with the file, and a token split across two writes is found
// exactly as if it had been written whole.
type LuggageScanner struct {
	name     string
	buf      []byte
	base     int64 // absolute offset of buf[0]
	frontier int64 // candidates starting before this were judged
	en       engine
	done     bool
}

// MaxLuggageFindings bounds the findings a LuggageScanner keeps (it still
// counts them all, see Count): a file made of tokens must not make the
// scanner's memory grow with it.
const MaxLuggageFindings = 1000

const luggageChunk = 256 << 10

// bufSize is the most a scanner ever holds.
var bufSize = keepBack + maxWindow + luggageChunk

// fullBufs recycles full-size scanner buffers between files.
var fullBufs = sync.Pool{New: func() any { b := make([]byte, 0, bufSize); return &b }}

// keepBack is how much of what was already judged stays in the buffer: the
// excerpt's context and the byte before a candidate.
const keepBack = excerptContext + 1

// NewLuggageScanner returns a scanner for the luggage file data/files/<name>.
// A name that already is a payload path ("data/files/<name>") is taken as
// that path, so callers holding either form get the same Where.
func NewLuggageScanner(name string) *LuggageScanner {
	name = strings.TrimPrefix(name, luggagePrefix)
	s := &LuggageScanner{name: name}
	s.en.max = MaxLuggageFindings
	s.en.tplWhere = func(off int64) string { return luggagePrefix + name + "@" + strconv.FormatInt(off, 10) }
	return s
}

// ErrScannerDone is returned by Write after Findings has been called.
var ErrScannerDone = errors.New("scan: write after Findings")

// Write scans p. It never fails before Findings is called.
func (s *LuggageScanner) Write(p []byte) (int, error) {
	if s.done {
		return 0, ErrScannerDone
	}
	n := len(p)
	for len(p) > 0 {
		if room := cap(s.buf) - len(s.buf); room < len(p) && cap(s.buf) < bufSize {
			// Grow only as far as the data needs: most luggage is small.
			c := 2*cap(s.buf) + len(p)
			if c > bufSize {
				c = bufSize
			}
			var nb []byte
			if c == bufSize {
				nb = (*fullBufs.Get().(*[]byte))[:len(s.buf)]
			} else {
				nb = make([]byte, len(s.buf), c)
			}
			copy(nb, s.buf)
			s.buf = nb
		}
		k := copy(s.buf[len(s.buf):cap(s.buf)], p)
		s.buf = s.buf[:len(s.buf)+k]
		p = p[k:]
		if len(s.buf) == bufSize {
			s.process(false)
		}
	}
	return n, nil
}

// process judges every candidate whose window is complete (all of them when
// final), then drops what no later candidate or excerpt can need.
func (s *LuggageScanner) process(final bool) {
	limit := len(s.buf)
	if !final {
		limit -= maxWindow
	}
	from := int(s.frontier - s.base)
	if limit <= from {
		return
	}
	s.en.scan(s.buf, s.base, from, limit, s.base == 0)
	s.frontier = s.base + int64(limit)
	if final {
		return
	}
	keep := limit - keepBack
	if keep <= 0 {
		return
	}
	n := copy(s.buf, s.buf[keep:])
	s.buf = s.buf[:n]
	s.base += int64(keep)
}

// Findings finishes the scan and returns the credentials found, each with
// Where "data/files/<name>@<offset>" (at most MaxLuggageFindings of them).
// Call it after the last Write.
func (s *LuggageScanner) Findings() []Finding {
	if !s.done {
		s.process(true)
		s.done = true
		// The scan is over: a judge holding many scanners holds no
		// buffers, and the next scanner reuses this one.
		if cap(s.buf) == bufSize {
			b := s.buf[:0]
			fullBufs.Put(&b)
		}
		s.buf = nil
		s.en.cands = nil
	}
	return s.en.found
}

// Count is the number of credentials found, including any beyond
// MaxLuggageFindings. It is final once Findings has been called.
func (s *LuggageScanner) Count() int { return s.en.count }

// Name is the luggage name the scanner was made for.
func (s *LuggageScanner) Name() string { return s.name }
