package scan

import (
	"bytes"
	"compress/gzip"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
)

// Credentials in wrappers (issue 18, D5). A private key or a token does not
// stop being one when it is gzip'd, base64'd (a kube-config's
// client-key-data) or written as UTF-16, so the luggage scan looks inside
// each of these, streaming, and feeds what it finds inside to a scanner of
// the same table one level down:
//
//   - gzip: a file (or a decoded base64 run) that starts with gzip's magic
//     is decompressed while it streams past. Decompression is bounded by a
//     ratio (at most gzipRatio bytes out per byte in, after gzipSlack) and
//     by gzipMax bytes out for the whole file, nested layers included; past
//     either, the scan cannot vouch for the rest, and that is a finding
//     (RuleUnscannable), so a key behind a gigabyte of zeros is refused
//     rather than missed. Memory stays flate's window and one buffer.
//   - base64: every run of the standard alphabet at least minBase64Run
//     characters long (line breaks inside the run skipped, as in PEM and
//     `base64`'s 76-column output) is decoded and scanned as data of its own.
//   - UTF-16: runs of ASCII characters written as UTF-16, little or big
//     endian, with or without a byte order mark, at least minUTF16Run long,
//     are read as the ASCII they spell (every credential shape is ASCII).
//
// Layers nest up to maxWrapDepth (base64 of gzip of a key is found). Each
// layer reads every byte once and emits no more than it reads (gzip aside,
// which is capped), so the scan stays linear in the file.
const (
	maxWrapDepth = 3
	minBase64Run = 24 // characters: 18 bytes, under every shape's minimum
	minUTF16Run  = 16 // characters
	gzipRatio    = 100
	gzipSlack    = 1 << 20
	gzipMax      = 1 << 30
)

// RuleUnscannable is the finding for luggage whose inside the scan could
// not read to the end (a gzip past its caps): the writer refuses it and C7
// fails, because nobody can say it carries no credential.
const RuleUnscannable = "gzip-over-limit"

// budget is what a file's layers may decompress, together.
type budget struct{ out atomic.Int64 }

// child is a credential-only scanner one level below s, whose findings s
// adopts; where maps its offsets to a place a person can find.
func (s *LuggageScanner) child(where func(off int64) string) *LuggageScanner {
	c := &LuggageScanner{name: s.name, depth: s.depth + 1, credOnly: true, budget: s.budget}
	c.text.off = true
	c.en.max = s.en.max
	c.en.tplWhere = where
	if c.depth < maxWrapDepth {
		c.wrap = &wrappers{s: c}
	}
	return c
}

// adopt takes a finished child's findings as s's own.
// They are kept apart from s's own until Findings, so the order findings
// come in does not depend on how the data was cut into writes.
func (s *LuggageScanner) adopt(c *LuggageScanner) {
	fs := c.Findings()
	s.wrappedCount += c.Count()
	for _, f := range fs {
		if s.en.max > 0 && len(s.wrapped) >= s.en.max {
			break
		}
		s.wrapped = append(s.wrapped, f)
	}
}

func (s *LuggageScanner) whereAt(off int64) string {
	if s.en.tplWhere != nil {
		return s.en.tplWhere(off)
	}
	return "@" + strconv.FormatInt(off, 10)
}

// wrappers are the layers looking inside one scanner's data.
type wrappers struct {
	s    *LuggageScanner
	off  int64  // bytes seen
	head []byte // the first bytes, until gzip is decided
	gz   *gzipLayer
	b64  b64Layer
	u16  u16Layer
}

var gzipMagic = []byte{0x1f, 0x8b, 0x08}

func (w *wrappers) write(p []byte) {
	if w.off < int64(len(gzipMagic)) {
		take := min(len(gzipMagic)-len(w.head), len(p))
		w.head = append(w.head, p[:take]...)
		if len(w.head) == len(gzipMagic) && string(w.head) == string(gzipMagic) {
			w.gz = w.s.startGzip()
			w.gz.write(w.head)
			p = p[take:]
			w.off += int64(take)
		}
	}
	if w.gz != nil {
		w.gz.write(p)
		w.off += int64(len(p))
		return
	}
	w.b64.write(w.s, p, w.off)
	w.u16.write(w.s, p, w.off)
	w.off += int64(len(p))
}

func (w *wrappers) finish() {
	if w.gz != nil {
		w.gz.finish(w.s)
		return
	}
	w.b64.end(w.s)
	w.u16.end(w.s)
}

// gzipLayer decompresses in a goroutine fed through a pipe: Write hands
// each chunk over and returns once the decompressor has taken it.
type gzipLayer struct {
	pw    *io.PipeWriter
	done  chan struct{}
	child *LuggageScanner
	over  bool
	where string
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (s *LuggageScanner) startGzip() *gzipLayer {
	if s.budget == nil {
		s.budget = &budget{}
	}
	g := &gzipLayer{done: make(chan struct{}), where: s.whereAt(0) + ", inside gzip"}
	g.child = s.child(func(off int64) string { return g.where + " at byte " + strconv.FormatInt(off, 10) })
	pr, pw := io.Pipe()
	g.pw = pw
	b := s.budget
	go func() {
		defer close(g.done)
		defer io.Copy(io.Discard, pr) // whatever the decompressor left
		cr := &countReader{r: pr}
		zr, err := gzip.NewReader(cr)
		if err != nil {
			return
		}
		buf := make([]byte, 32<<10)
		var out int64
		for {
			n, err := zr.Read(buf)
			if n > 0 {
				out += int64(n)
				if out > gzipRatio*cr.n+gzipSlack || b.out.Add(int64(n)) > gzipMax {
					g.over = true
					return
				}
				g.child.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	return g
}

func (g *gzipLayer) write(p []byte) {
	if len(p) > 0 {
		g.pw.Write(p)
	}
}

func (g *gzipLayer) finish(s *LuggageScanner) {
	g.pw.Close()
	<-g.done
	s.adopt(g.child)
	if g.over {
		s.wrappedCount++
		if s.en.max == 0 || len(s.wrapped) < s.en.max {
			s.wrapped = append(s.wrapped, Finding{Class: Credential, Rule: RuleUnscannable, Where: g.where,
				Excerpt: "decompresses past " + strconv.Itoa(gzipRatio) + ":1 or 1 GiB; the rest cannot be scanned for credentials"})
		}
	}
}

// b64Val is each byte's base64 value: 0–63, b64Skip for a line break
// (inside a run), b64Pad for '=' and b64Stop otherwise (both end a run).
var b64Val = func() (t [256]byte) {
	for i := range t {
		t[i] = b64Stop
	}
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(alpha); i++ {
		t[alpha[i]] = byte(i)
	}
	t['='] = b64Pad
	t['\n'], t['\r'] = b64Skip, b64Skip
	return
}()

const (
	b64Skip = 64
	b64Pad  = 254
	b64Stop = 255
)

// b64Layer decodes base64 runs, each into a scanner of its own (so a gzip
// inside a run is seen at its start).
type b64Layer struct {
	n        int   // characters in the current run, until committed
	runStart int64 // its offset
	pend     [minBase64Run]byte
	quad     [4]byte
	q        int
	out      []byte
	child    *LuggageScanner
}

func (b *b64Layer) write(s *LuggageScanner, p []byte, base int64) {
	i := 0
	for i < len(p) {
		if b.n == 0 {
			// Outside a run: skip to the next character of the alphabet.
			// A run long enough to decode that starts within the next
			// minBase64Run bytes covers the last of them, so where that
			// byte ends runs, all of them are skipped at once (most of
			// binary data goes this way).
			for {
				for i+minBase64Run <= len(p) && b64Val[p[i+minBase64Run-1]] > b64Skip {
					i += minBase64Run
				}
				if i == len(p) {
					return
				}
				if b64Val[p[i]] < 64 {
					break
				}
				i++
			}
			b.runStart = base + int64(i)
		}
		if b.child == nil {
			// A run too short yet to be worth decoding.
			for i < len(p) {
				v := b64Val[p[i]]
				i++
				if v < 64 {
					b.pend[b.n] = v
					if b.n++; b.n == minBase64Run {
						b.commit(s)
						break
					}
				} else if v != b64Skip {
					b.end(s)
					break
				}
			}
			continue
		}
		for i < len(p) {
			v := b64Val[p[i]]
			i++
			if v < 64 {
				b.decode(v)
			} else if v != b64Skip {
				b.end(s)
				break
			}
		}
	}
}

func (b *b64Layer) commit(s *LuggageScanner) {
	start := b.runStart
	b.child = s.child(func(off int64) string {
		return s.whereAt(start+off*4/3) + ", inside base64"
	})
	for _, v := range b.pend {
		b.decode(v)
	}
}

func (b *b64Layer) decode(v byte) {
	b.quad[b.q] = v
	b.q++
	if b.q == 4 {
		b.out = append(b.out, b.quad[0]<<2|b.quad[1]>>4, b.quad[1]<<4|b.quad[2]>>2, b.quad[2]<<6|b.quad[3])
		b.q = 0
		if len(b.out) >= 16<<10 {
			b.child.Write(b.out)
			b.out = b.out[:0]
		}
	}
}

func (b *b64Layer) end(s *LuggageScanner) {
	if b.child != nil {
		switch b.q {
		case 2:
			b.out = append(b.out, b.quad[0]<<2|b.quad[1]>>4)
		case 3:
			b.out = append(b.out, b.quad[0]<<2|b.quad[1]>>4, b.quad[1]<<4|b.quad[2]>>2)
		}
		b.child.Write(b.out)
		s.adopt(b.child)
		b.child = nil
	}
	b.out = b.out[:0]
	b.n, b.q = 0, 0
}

// u16Layer reads ASCII written as UTF-16: pairs (c, 0) little endian or
// (0, c) big endian, taken without overlap; a pair that is neither ends
// the run and the scan realigns on its second byte.
type u16Layer struct {
	prev     int // the pending first byte of a pair, -1 for none
	prevOff  int64
	started  bool
	n        int
	runStart int64
	pend     []byte
	out      []byte
	child    *LuggageScanner
}

func asciiText(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\n' || c == '\r' || c == '\t' }

func (u *u16Layer) write(s *LuggageScanner, p []byte, base int64) {
	if !u.started {
		u.prev, u.started = -1, true
	}
	if len(p) == 0 {
		return
	}
	for i := 0; i < len(p); i++ {
		if u.n == 0 && u.prev != 0 {
			// Outside a run, only a pair holding a zero byte can start
			// one: jump to the byte before the next zero.
			z := bytes.IndexByte(p[i:], 0)
			if z < 0 {
				u.prev, u.prevOff = int(p[len(p)-1]), base+int64(len(p)-1)
				return
			}
			if z > 0 {
				i += z
				u.prev, u.prevOff = int(p[i-1]), base+int64(i-1)
			}
		}
		c := p[i]
		if u.prev < 0 {
			u.prev, u.prevOff = int(c), base+int64(i)
			continue
		}
		a := byte(u.prev)
		var ch byte
		switch {
		case c == 0 && asciiText(a):
			ch = a
		case a == 0 && asciiText(c):
			ch = c
		default:
			if u.n > 0 {
				u.end(s)
			}
			u.prev, u.prevOff = int(c), base+int64(i)
			continue
		}
		if u.n == 0 {
			u.runStart = u.prevOff
		}
		u.n++
		u.prev = -1
		if u.child == nil {
			u.pend = append(u.pend, ch)
			if u.n == minUTF16Run {
				start := u.runStart
				u.child = s.child(func(off int64) string { return s.whereAt(start+2*off) + ", inside UTF-16" })
				u.out = append(u.out, u.pend...)
				u.pend = u.pend[:0]
			}
			continue
		}
		u.out = append(u.out, ch)
		if len(u.out) >= 16<<10 {
			u.child.Write(u.out)
			u.out = u.out[:0]
		}
	}
}

func (u *u16Layer) end(s *LuggageScanner) {
	if u.child != nil {
		u.child.Write(u.out)
		s.adopt(u.child)
		u.child = nil
	}
	u.out, u.pend = u.out[:0], u.pend[:0]
	u.n = 0
}

// wrappedCredentials are the credentials inside base64 runs and UTF-16 in
// one string of the pack object (a kube-config pasted into a fact, say);
// the string's own are Credentials'. Where is path and the layers.
func wrappedCredentials(s, path string) []Finding {
	if !mayWrap(s) {
		return nil
	}
	ensureTables()
	sc := &LuggageScanner{credOnly: true}
	sc.text.off = true
	sc.en.max = MaxLuggageFindings
	sc.en.tplWhere = func(int64) string { return path }
	sc.wrap = &wrappers{s: sc}
	sc.wrap.write([]byte(s))
	sc.wrap.finish()
	return sc.wrapped
}

// mayWrap: s holds a NUL (UTF-16) or a base64 run long enough to decode.
func mayWrap(s string) bool {
	if strings.IndexByte(s, 0) >= 0 {
		return true
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch v := b64Val[s[i]]; {
		case v < 64:
			if n++; n >= minBase64Run {
				return true
			}
		case v == b64Skip:
		default:
			n = 0
		}
	}
	return false
}
