package scan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
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
// and one RuleMoreInstructions finding counting the rest. Past a NUL byte
// the file is read as strings(1) reads a binary file (textScan).
func (s *LuggageScanner) TextFindings() []Finding { return s.textFound }

// textScan reads luggage as text, line by line, for the same transcript
// table and instruction shapes as the pack object (issue 18; §4.1 refuses
// transcripts in a pack, §4.5.2 reports imperatives). Bytes that are not
// UTF-8 are read as a substitute byte: one stray byte must not silence the
// scan of a file an agent would read as text all the same (D5). Nor must a
// NUL byte: past the first one, the file is read as strings(1) reads a
// binary file — every run of at least minRun printable ASCII bytes is a
// line — so a NUL appended to a README hides nothing an agent reading it
// would see, and a real binary costs a look at each byte, its string
// tables read as lines. Linear and bounded: a line is looked at up to
// maxTextLine bytes, and instruction findings are kept up to
// MaxInstructionsPerString (all counted).
type textScan struct {
	off      bool   // not read as text at all (a credential-only scanner, a binary format, a finished scan)
	head     []byte // the file's first headBytes bytes (binaryFormat)
	textName bool   // the file's name says text (textName): read past a NUL whatever its first bytes
	raw      int64  // the file's bytes written so far
	// UTF-16 (a file that starts with its byte order mark, as PowerShell's
	// and Notepad's do) is read decoded: pos then counts decoded bytes,
	// and u16lines maps the batch's lines back to the file (u16File).
	u16       byte // 0 until decided (two bytes seen), then 'L', 'B' or '-' (not UTF-16)
	u16odd    int  // the first byte of a code unit a write cut, or -1
	u16high   rune // a high surrogate waiting for its low half
	u16file   int64
	u16buf    []byte
	u16lines  []u16line
	strs      bool  // past a NUL: runs of printable ASCII only
	run       int   // the current run's length, past a NUL
	lineStart int   // where the current line starts in batch (its first maxTextLine bytes)
	lineOff   int64 // its offset
	pos       int64 // bytes seen
	// batch holds the lines not yet scanned for instructions, the current
	// one last (its start: lines are not copied twice). It is the file's
	// bytes from batchOff on, each line's end written as a newline.
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

// minRun is the shortest run of printable bytes read as a line past a NUL:
// shorter runs in binary data are mostly chance, and a run this long
// always holds an aligned word of printable bytes (writeRuns).
const minRun = 15

// printable are the bytes a run past a NUL is made of: printable ASCII and
// the tab, as strings(1) reads.
var printable = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\t'] = true
	return t
}()

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
	s.text.textName = textName(name)
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
		s.text = textScan{off: true}
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
	if t.off {
		return
	}
	if t.batch == nil {
		// Sized by the first write: a small file written whole needs one
		// allocation, not one per doubling.
		t.batch = make([]byte, 0, min(len(p)+1, maxTextBatch+maxTextLine+1))
	}
	if t.keepHead(p) {
		return
	}
	rawStart := t.raw
	t.raw += int64(len(p))
	if t.u16 == 0 && len(t.head) >= 2 {
		t.u16 = '-'
		if t.head[0] == 0xff && t.head[1] == 0xfe {
			t.u16 = 'L'
		} else if t.head[0] == 0xfe && t.head[1] == 0xff {
			t.u16 = 'B'
		}
		if t.u16 != '-' {
			// At most the mark's first byte was read as text: start over
			// past the mark.
			*t = textScan{textName: t.textName, head: t.head, raw: t.raw, u16: t.u16, u16odd: -1, u16file: 2,
				batch: t.batch[:0], u16lines: []u16line{{0, 2}}}
			p = p[min(int64(len(p)), max(0, 2-rawStart)):]
		}
	}
	if t.u16 == 'L' || t.u16 == 'B' {
		t.writeU16(p)
		return
	}
	t.writeText(p)
}

// writeText reads p as text, lines ended by a newline; a NUL starts runs
// (or ends the scan in a binary format).
func (t *textScan) writeText(p []byte) {
	for len(p) > 0 && !t.strs {
		i := indexLineEnd(p)
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if z := bytes.IndexByte(part, 0); z >= 0 {
			if !t.textName && binaryFormat(t.head) {
				// An executable, an image, an archive: no reader shows
				// its bytes as text, and its strings are the program's.
				t.off, t.batch = true, nil
				return
			}
			// The line ends at the NUL, and the file is read as runs
			// from here on.
			t.take(part[:z])
			t.endLine(1)
			t.strs = true
			p = p[z+1:]
			break
		}
		t.take(part)
		if i < 0 {
			return
		}
		t.endLine(int64(i + 1))
		p = p[i+1:]
	}
	if t.strs {
		t.writeRuns(p)
	}
}

func indexLineEnd(p []byte) int { return bytes.IndexByte(p, '\n') }

// u16line is where a line of a UTF-16 file starts: in the decoded text
// (pos) and in the file.
type u16line struct{ dec, file int64 }

// writeU16 decodes p, UTF-16 in the byte order of the file's mark, and
// reads the text as a UTF-8 file is read. A unit that is no character (a
// lone surrogate, U+0000) reads as the substitute byte.
func (t *textScan) writeU16(p []byte) {
	dec := t.u16buf[:0]
	start := t.pos
	for _, c := range p {
		if t.u16odd < 0 {
			t.u16odd = int(c)
			continue
		}
		u := rune(t.u16odd)<<8 | rune(c)
		if t.u16 == 'L' {
			u = rune(c)<<8 | rune(t.u16odd)
		}
		t.u16odd = -1
		t.u16file += 2
		if t.u16high != 0 {
			high := t.u16high
			t.u16high = 0
			if u >= 0xdc00 && u < 0xe000 {
				dec = utf8.AppendRune(dec, utf16.DecodeRune(high, u))
				continue
			}
			dec = append(dec, substitute) // the high half alone
		}
		switch {
		case u >= 0xd800 && u < 0xdc00:
			t.u16high = u
		case u >= 0xdc00 && u < 0xe000, u == 0:
			dec = append(dec, substitute)
		default:
			dec = utf8.AppendRune(dec, u)
			if u == '\n' {
				t.u16lines = append(t.u16lines, u16line{start + int64(len(dec)), t.u16file})
			}
		}
	}
	t.u16buf = dec
	t.writeText(dec)
}

// u16File is the file offset of the decoded offset off in the batch: its
// line's start in the file, and two bytes for each unit before it on the
// line (four for a character beyond the BMP). Identity for other files.
func (t *textScan) u16File(off int64) int64 {
	if t.u16 != 'L' && t.u16 != 'B' {
		return off
	}
	i := sort.Search(len(t.u16lines), func(i int) bool { return t.u16lines[i].dec > off }) - 1
	if i < 0 {
		return off
	}
	ln := t.u16lines[i]
	file := ln.file
	if a, b := ln.dec-t.batchOff, off-t.batchOff; a >= 0 && b <= int64(len(t.batch)) && a <= b {
		for _, r := range string(t.batch[a:b]) {
			file += 2
			if r >= 0x10000 {
				file += 2
			}
		}
	}
	return file
}

// keepHead keeps the file's first bytes, for binaryFormat; called with
// each write before it is read. It reports whether they turned out to be a
// binary format's after a NUL was read (WebAssembly's first byte is one),
// and the scan is off.
func (t *textScan) keepHead(b []byte) bool {
	if n := headBytes - len(t.head); n > 0 && t.pos == int64(len(t.head)) {
		t.head = append(t.head, b[:min(n, len(b))]...)
		if t.strs && !t.textName && binaryFormat(t.head) {
			t.off, t.batch = true, nil
			return true
		}
	}
	return false
}

// take adds part of a line.
func (t *textScan) take(part []byte) {
	if room := maxTextLine - (len(t.batch) - t.lineStart); room > 0 {
		t.batch = append(t.batch, part[:min(room, len(part))]...)
	}
	t.pos += int64(len(part))
}

// writeRuns reads p past a NUL: each run of printable bytes is a line
// ended by the byte after it (written as a newline, so the batch stays the
// file's bytes); a run shorter than minRun is left out, and the run after
// bytes left out starts a batch of its own. Between runs it looks at eight
// bytes at a time: a run of minRun bytes holds eight printable ones at a
// multiple of eight from p's start, so binary data costs a few operations
// a word, not a branch a byte.
func (t *textScan) writeRuns(p []byte) {
	i := 0
	for i < len(p) {
		if t.run == 0 {
			if i = t.skipToRun(p, i); i == len(p) {
				return
			}
		}
		j := i
		for j < len(p) && printable[p[j]] {
			j++
		}
		t.extendRun(p[i:j])
		if i = j; i == len(p) {
			return // the run may go on in the next write
		}
		t.endRun(1)
		i++
	}
}

// skipToRun passes over the bytes of p from i that no run of minRun can
// start in, and returns where the next may start (len(p): none in p).
func (t *textScan) skipToRun(p []byte, i int) int {
	{
		k := i
		for k+8 <= len(p) && !printableWord(binary.LittleEndian.Uint64(p[k:])) {
			k += 8
		}
		if k+8 > len(p) {
			// No run of minRun bytes starts before the last few, which may
			// start one that goes on in the next write.
			k = len(p)
		}
		start := k
		for start > i && printable[p[start-1]] {
			start--
		}
		t.pos += int64(start - i)
		return start
	}
}

// headBytes is how much of a file's start binaryFormat looks at.
const headBytes = 16

// binaryFormats are the first bytes of formats whose bytes no reader shows
// as text (executables, images, compressed archives): a NUL in one of
// them does not start runs being read, as it does in any other file.
// Formats that keep text as it is (PDF, SQLite, tar) are read on.
var binaryFormats = [][]byte{
	[]byte("\x7fELF"),                                                                                      // ELF
	{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf}, {0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe}, // Mach-O
	{0xca, 0xfe, 0xba, 0xbe},     // Mach-O universal, Java class
	[]byte("MZ"),                 // PE (Windows)
	[]byte("\x00asm"),            // WebAssembly
	[]byte("\x89PNG"),            // PNG
	{0xff, 0xd8, 0xff},           // JPEG
	[]byte("GIF8"),               // GIF
	[]byte("RIFF"),               // WebP, WAV, AVI
	[]byte("PK\x03\x04"),         // ZIP and what is made of it (JAR, docx)
	{0x1f, 0x8b},                 // gzip
	[]byte("\xfd7zXZ\x00"),       // xz
	[]byte("BZh"),                // bzip2
	{0x28, 0xb5, 0x2f, 0xfd},     // zstd
	[]byte("7z\xbc\xaf\x27\x1c"), // 7z
}

// textExtensions are the names' endings that say a file is text to every
// reader (an editor, an agent's file reader): such a file is read past its
// NUL whatever its first bytes, so an executable's header put in front of a
// README does not hide the README.
var textExtensions = []string{".md", ".markdown", ".txt", ".rst", ".adoc", ".org", ".json", ".jsonl", ".yaml", ".yml",
	".toml", ".ini", ".cfg", ".conf", ".env", ".csv", ".tsv", ".xml", ".html", ".htm", ".css", ".sh", ".bash", ".zsh",
	".fish", ".ps1", ".bat", ".cmd", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".go", ".rs", ".c", ".h",
	".cc", ".cpp", ".hpp", ".java", ".kt", ".rb", ".php", ".pl", ".lua", ".sql", ".swift", ".cs", ".tex", ".log",
	".patch", ".diff", ".ipynb", ".tf", ".gradle", ".mk", ".cmake", ".dockerfile", ".gitignore", ".editorconfig"}

// textName reports whether name ends in one of textExtensions, or is a
// file every reader takes for text (a Makefile, a Dockerfile, a README).
func textName(name string) bool {
	base := strings.ToLower(name[strings.LastIndexByte(name, '/')+1:])
	for _, ext := range textExtensions {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	switch strings.TrimSuffix(base, filepath.Ext(base)) {
	case "readme", "makefile", "dockerfile", "license", "changelog", "notes", "todo", "agents", "claude":
		return true
	}
	return false
}

// binaryFormat reports whether head, a file's first bytes, starts one of
// binaryFormats.
func binaryFormat(head []byte) bool {
	for _, sig := range binaryFormats {
		if bytes.HasPrefix(head, sig) {
			return true
		}
	}
	return false
}

// printableWord reports whether the eight bytes of w are all printable
// ASCII: none below 0x20, none 0x7f, none with the high bit set (a tab
// counts against a word; the run it is in is still read byte by byte once
// another word found it).
func printableWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	if w&highs != 0 {
		return false // the common case in binary data, tested first
	}
	below20 := (w - 0x20*ones) &^ w & highs
	del := ((w ^ 0x7f*ones) - ones) &^ (w ^ 0x7f*ones) & highs
	return below20|del == 0
}

// beginRun starts a run at t.pos.
func (t *textScan) beginRun() {
	if len(t.batch) > 0 && t.batchOff+int64(len(t.batch)) != t.pos {
		t.flush()
	}
	if len(t.batch) == 0 {
		t.batchOff = t.pos
	}
	t.lineStart, t.lineOff = len(t.batch), t.pos
}

// extendRun adds printable bytes to the run in progress (begun when it
// was empty).
func (t *textScan) extendRun(b []byte) {
	if len(b) == 0 {
		return
	}
	if t.run == 0 {
		t.beginRun()
	}
	if room := maxTextLine - t.run; room > 0 {
		t.batch = append(t.batch, b[:min(room, len(b))]...)
	}
	t.run += len(b)
	t.pos += int64(len(b))
}

// endRun ends the run in progress past a NUL at a byte that is not
// printable (n 1) or at the file's end (n 0).
func (t *textScan) endRun(n int64) {
	switch {
	case t.run >= minRun:
		t.endLine(n)
	case t.run > 0:
		t.batch = t.batch[:t.lineStart]
		t.pos += n
	default:
		t.pos += n
	}
	t.run = 0
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
	cut := t.pos-t.lineOff > maxTextLine // the batch holds only the line's start
	validLine(t.batch[t.lineStart:])
	if n > 0 {
		t.pos++ // the newline
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
			t.firstRole, t.firstOff = line, t.u16File(t.lineOff)
		}
		t.transcript = t.human && t.ai
	}
batch:
	t.batch = append(t.batch, '\n')
	t.lineOff = t.pos
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
		t.batchOff = t.pos
		t.pruneU16()
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
			f.Offset = t.u16File(f.Offset + t.batchOff)
			t.instr = append(t.instr, f)
		}
	}
	t.batch = t.batch[:0]
	t.batchOff = t.pos
	t.pruneU16()
}

// pruneU16 forgets the lines of a batch scanned (a UTF-16 file's).
func (t *textScan) pruneU16() {
	i := 0
	for i+1 < len(t.u16lines) && t.u16lines[i+1].dec <= t.batchOff {
		i++
	}
	t.u16lines = t.u16lines[:copy(t.u16lines, t.u16lines[i:])]
}

func (t *textScan) finish() {
	if !t.off {
		switch {
		case t.strs:
			t.endRun(0)
		case len(t.batch) > t.lineStart:
			t.endLine(0)
		}
		t.flush()
	}
	t.batch = nil
}

func (t *textScan) findings(name string) []Finding {
	if t.off {
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
