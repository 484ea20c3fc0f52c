package scan

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
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
	text     textScan
	// textFound are the text findings (transcripts, instructions), kept
	// apart from the credentials Findings returns.
	textFound []Finding
	// Looking inside wrappers (wrap.go): the layers, how deep this scanner
	// is, whether it scans for credentials only (every scanner below the
	// file's own), the file's decompression budget, and the findings of
	// the layers below.
	wrap         *wrappers
	depth        int
	credOnly     bool
	budget       *budget
	wrapped      []Finding
	wrappedCount int
}

// TextFindings are what reading the file as text found, after Findings has
// been called: a chat transcript (class Transcript, C8, refused by the
// writer as in the pack object) and sentences that read like instructions
// (class Instruction, reported), at most MaxInstructionsPerString of them
// and one RuleMoreInstructions finding counting the rest. A file that is not
// text (a NUL byte) has none.
func (s *LuggageScanner) TextFindings() []Finding { return s.textFound }

// textScan reads luggage as text, line by line, for the same transcript
// table and instruction shapes as the pack object (issue 18; §4.1 refuses
// transcripts in a pack, §4.5.2 reports imperatives): a file stops being
// text at a NUL byte, and nothing about it is reported then. Bytes that are
// not UTF-8 are read as a substitute byte and do not make it binary: one
// stray byte must not silence the scan of a file an agent would read as
// text all the same (D5). Linear and bounded: a line is looked at up to
// maxTextLine bytes, and instruction findings are kept up to
// MaxInstructionsPerString (all counted).
type textScan struct {
	binary    bool
	lineStart int   // where the current line starts in batch (its first maxTextLine bytes)
	lineOff   int64 // its offset
	off       int64 // bytes seen
	// batch holds the lines not yet scanned for instructions, the current
	// one last (its start: lines are not copied twice).
	batch      []byte
	batchOff   int64
	human, ai  bool
	firstRole  string
	firstOff   int64
	transcript bool
	instr      []Finding
	instrCount int
	capped     bool
}

const (
	maxTextLine  = 4 << 10
	maxTextBatch = 64 << 10
)

// MaxLuggageFindings bounds the findings a LuggageScanner keeps (it still
// counts them all, see Count): a file made of tokens must not make the
// scanner's memory grow with it.
const MaxLuggageFindings = 1000

const luggageChunk = 256 << 10

// bufSize is the most a scanner ever holds; set with the rule tables
// (maxWindow is known only then).
var bufSize int

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
	ensureTables()
	s := &LuggageScanner{name: name}
	s.en.max = MaxLuggageFindings
	s.en.tplWhere = func(off int64) string { return luggagePrefix + name + "@" + strconv.FormatInt(off, 10) }
	s.wrap = &wrappers{s: s}
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
	if !s.credOnly {
		s.text.write(p)
	}
	if s.wrap != nil {
		s.wrap.write(p)
	}
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
		if s.wrap != nil {
			s.wrap.finish()
			s.wrap = nil
		}
		s.en.markOpenKey()
		for _, f := range s.wrapped {
			if s.en.max > 0 && len(s.en.found) >= s.en.max {
				break
			}
			s.en.found = append(s.en.found, f)
		}
		s.en.count += s.wrappedCount
		s.wrapped = nil
		s.text.finish()
		s.textFound = s.text.findings(s.name)
		s.text = textScan{binary: true}
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

func (t *textScan) write(p []byte) {
	if t.binary {
		return
	}
	if t.batch == nil {
		// Sized by the first write: a small file written whole needs one
		// allocation, not one per doubling.
		t.batch = make([]byte, 0, min(len(p)+1, maxTextBatch+maxTextLine+1))
	}
	for len(p) > 0 {
		i := indexLineEnd(p)
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if !t.take(part) {
			return
		}
		if i < 0 {
			return
		}
		t.endLine(int64(i + 1))
		p = p[i+1:]
	}
}

func indexLineEnd(p []byte) int { return bytes.IndexByte(p, '\n') }

// take adds part of a line; false when the file turned out not to be
// text (a NUL byte).
func (t *textScan) take(part []byte) bool {
	if bytes.IndexByte(part, 0) >= 0 {
		t.binary = true
		return false
	}
	if room := maxTextLine - (len(t.batch) - t.lineStart); room > 0 {
		t.batch = append(t.batch, part[:min(room, len(part))]...)
	}
	t.off += int64(len(part))
	return true
}

// substitute is what a byte that is not UTF-8 reads as: one byte for one,
// so offsets stay the file's (the ASCII substitute character).
const substitute = 0x1a

// validLine makes line valid UTF-8 in place: every byte that does not
// start a valid character is read as substitute. A line is judged whole
// (it ends at a newline or the end of the file), so however the writes cut
// it, it reads the same.
func validLine(line []byte) {
	if utf8.Valid(line) {
		return
	}
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && n <= 1 {
			line[i] = substitute
			n = 1
		}
		i += n
	}
}

func (t *textScan) endLine(n int64) {
	cut := t.off-t.lineOff > maxTextLine // the batch holds only the line's start
	validLine(t.batch[t.lineStart:])
	if n > 0 {
		t.off++ // the newline
	}
	if !t.transcript && mayOpenTurn(t.batch[t.lineStart:]) {
		line := string(t.batch[t.lineStart:])
		switch lineSide(line) {
		case sideHuman:
			t.human = true
		case sideAI:
			t.ai = true
		case sideOther:
		default:
			goto batch
		}
		if t.firstRole == "" {
			t.firstRole, t.firstOff = line, t.lineOff
		}
		t.transcript = t.human && t.ai
	}
batch:
	t.batch = append(t.batch, '\n')
	t.lineOff = t.off
	if len(t.batch) >= maxTextBatch || cut {
		// After a line cut short the batch's offsets no longer follow the
		// file's: the next line starts a batch of its own.
		t.flush()
	}
	t.lineStart = len(t.batch)
}

func (t *textScan) flush() {
	if len(t.batch) == 0 {
		return
	}
	if t.instrCount >= instrCountCap {
		// A flood: the first few are kept and the count is "at least"
		// from here on; looking further would cost time in proportion to
		// the flood and change nothing the person is told (issue 18).
		t.capped = true
		t.batch = t.batch[:0]
		t.batchOff = t.off
		return
	}
	for _, f := range instructions(string(t.batch), false) {
		if f.Rule == RuleMoreInstructions {
			// The batch's own count of what it left out.
			var n int
			if strings.HasPrefix(f.Excerpt, "at least ") {
				t.capped = true
				fmt.Sscanf(f.Excerpt[len("at least "):], "%d", &n)
			} else {
				fmt.Sscanf(f.Excerpt, "%d", &n)
			}
			t.instrCount += n
			continue
		}
		t.instrCount++
		if len(t.instr) < MaxInstructionsPerString {
			f.Offset += t.batchOff
			t.instr = append(t.instr, f)
		}
	}
	t.batch = t.batch[:0]
	t.batchOff = t.off
}

func (t *textScan) finish() {
	if !t.binary {
		if len(t.batch) > t.lineStart {
			t.endLine(0)
		}
		t.flush()
	}
	t.batch = nil
}

func (t *textScan) findings(name string) []Finding {
	if t.binary {
		return nil
	}
	where := func(off int64) string { return luggagePrefix + name + "@" + strconv.FormatInt(off, 10) }
	var out []Finding
	if t.transcript {
		out = append(out, Finding{Class: Transcript, Rule: "role-prefix", Where: where(t.firstOff), Offset: t.firstOff, Excerpt: excerptLine(t.firstRole)})
	}
	for _, f := range t.instr {
		f.Where = where(f.Offset)
		out = append(out, f)
	}
	if rest := t.instrCount - len(t.instr); rest > 0 {
		n := strconv.Itoa(rest)
		if t.capped {
			n = "at least " + n
		}
		out = append(out, Finding{Class: Instruction, Rule: RuleMoreInstructions, Where: luggagePrefix + name,
			Excerpt: n + " more sentences here read like instructions; not listed"})
	}
	return out
}

// mayOpenTurn is lineSide's prefilter: a role line has a colon (either
// width) or starts a heading within its first 200 bytes.
func mayOpenTurn(line []byte) bool {
	if len(line) > 200 {
		line = line[:200]
	}
	return bytes.IndexByte(line, ':') >= 0 || bytes.IndexByte(line, '#') >= 0 || bytes.Contains(line, []byte("："))
}
