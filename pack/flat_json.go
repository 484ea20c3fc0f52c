package pack

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// jscan is a small streaming JSON scanner for the flat form's outer shape.
// It keeps the byte offset so an attachment's "data" string can be found
// again and decoded straight from the file, never held in memory.
type jscan struct {
	r   *bufio.Reader
	pos int64
}

var errTruncated = errors.New("the JSON ends early")

type jsonErr struct {
	pos int64
	msg string
}

func (e *jsonErr) Error() string { return fmt.Sprintf("malformed JSON at byte %d: %s", e.pos, e.msg) }

func (s *jscan) fail(format string, a ...any) error {
	return &jsonErr{pos: s.pos, msg: fmt.Sprintf(format, a...)}
}

func (s *jscan) readByte() (byte, error) {
	c, err := s.r.ReadByte()
	if err == io.EOF {
		return 0, errTruncated
	}
	if err != nil {
		return 0, err
	}
	s.pos++
	return c, nil
}

// peek returns the next non-space byte without consuming it; io.EOF at the
// end of the input.
func (s *jscan) peek() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			s.pos++
			continue
		}
		s.r.UnreadByte()
		return c, nil
	}
}

func (s *jscan) expect(want byte) error {
	c, err := s.peek()
	if err == io.EOF {
		return errTruncated
	}
	if err != nil {
		return err
	}
	if c != want {
		return s.fail("want %q, found %q", want, c)
	}
	s.readByte()
	return nil
}

// capture copies one JSON value's bytes (structurally scanned, not
// validated: ojson.Parse does that) into a buffer of at most max bytes.
func (s *jscan) capture(max int) ([]byte, error) {
	if _, err := s.peek(); err != nil {
		if err == io.EOF {
			return nil, errTruncated
		}
		return nil, err
	}
	var out []byte
	depth := 0
	for {
		c, err := s.readByte()
		if err != nil {
			return nil, err
		}
		if len(out) >= max {
			return nil, errTooBig
		}
		out = append(out, c)
		switch c {
		case '"':
			for {
				c, err := s.readByte()
				if err != nil {
					return nil, err
				}
				if len(out) >= max {
					return nil, errTooBig
				}
				out = append(out, c)
				if c == '\\' {
					c, err := s.readByte()
					if err != nil {
						return nil, err
					}
					out = append(out, c)
					continue
				}
				if c == '"' {
					break
				}
			}
			if depth == 0 {
				return out, nil
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return nil, s.fail("unbalanced %q", c)
			}
			if depth == 0 {
				return out, nil
			}
		default:
			if depth == 0 {
				// A scalar: read up to the next delimiter.
				for {
					c, err := s.r.ReadByte()
					if err != nil {
						if err == io.EOF {
							return out, nil
						}
						return nil, err
					}
					if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n' {
						s.r.UnreadByte()
						return out, nil
					}
					s.pos++
					if len(out) >= max {
						return nil, errTooBig
					}
					out = append(out, c)
				}
			}
		}
	}
}

var errTooBig = errors.New("value too large")

// skipString skips a JSON string (the opening quote is next) and returns the
// offset of its opening quote.
func (s *jscan) skipString() (int64, error) {
	if err := s.expect('"'); err != nil {
		return 0, err
	}
	start := s.pos - 1
	escaped := false
	for {
		chunk, err := s.r.ReadSlice('"')
		s.pos += int64(len(chunk))
		if err != nil && err != bufio.ErrBufferFull {
			if err == io.EOF {
				return 0, errTruncated
			}
			return 0, err
		}
		body := chunk
		if err == nil {
			body = chunk[:len(chunk)-1]
		}
		for _, c := range body {
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			}
		}
		if err == nil {
			if escaped {
				escaped = false
				continue
			}
			return start, nil
		}
	}
}

// stringDecoder decodes the contents of a JSON string from r (positioned just
// after the opening quote) as JavaScript would hold it, written out as UTF-8
// the way Node's Buffer.from(s, "utf8") does: a lone surrogate and bytes
// that are not UTF-8 become U+FFFD.
type stringDecoder struct {
	r       *bufio.Reader
	done    bool
	pending []byte // decoded bytes not yet returned
	hiSur   rune   // a high surrogate waiting for its low half
	badUTF8 bool
	loneSur bool // a lone surrogate was read as U+FFFD
	err     error
}

func newStringDecoder(r *bufio.Reader) *stringDecoder { return &stringDecoder{r: r} }

func (d *stringDecoder) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(d.pending) > 0 {
			k := copy(p[n:], d.pending)
			d.pending = d.pending[k:]
			n += k
			continue
		}
		if d.err != nil {
			break
		}
		if d.done {
			d.err = io.EOF
			break
		}
		if n > 0 && d.r.Buffered() == 0 {
			break // return what we have rather than wait for more input
		}
		d.step(p[n:], &n)
	}
	if n > 0 {
		return n, nil
	}
	return 0, d.err
}

const replacement = "\uFFFD"

func (d *stringDecoder) flushSur() {
	if d.hiSur != 0 {
		d.pending = append(d.pending, replacement...)
		d.hiSur = 0
		d.loneSur = true
	}
}

// step decodes a run of plain bytes straight into p, or one escape or
// multi-byte sequence into pending.
func (d *stringDecoder) step(p []byte, n *int) {
	c, err := d.r.ReadByte()
	if err != nil {
		if err == io.EOF {
			err = errTruncated
		}
		d.err = err
		return
	}
	switch {
	case c == '"':
		d.flushSur()
		d.done = true
	case c == '\\':
		e, err := d.r.ReadByte()
		if err != nil {
			d.err = errTruncated
			return
		}
		if e != 'u' {
			d.flushSur()
		}
		switch e {
		case '"', '\\', '/':
			d.pending = append(d.pending, e)
		case 'b':
			d.pending = append(d.pending, '\b')
		case 'f':
			d.pending = append(d.pending, '\f')
		case 'n':
			d.pending = append(d.pending, '\n')
		case 'r':
			d.pending = append(d.pending, '\r')
		case 't':
			d.pending = append(d.pending, '\t')
		case 'u':
			var h [4]byte
			if _, err := io.ReadFull(d.r, h[:]); err != nil {
				d.err = errTruncated
				return
			}
			var r rune
			for _, x := range h {
				v := hexVal(x)
				if v < 0 {
					d.err = fmt.Errorf("bad \\u escape %q", h[:])
					return
				}
				r = r<<4 | rune(v)
			}
			switch {
			case r >= 0xD800 && r < 0xDC00:
				d.flushSur()
				d.hiSur = r
			case r >= 0xDC00 && r < 0xE000:
				if d.hiSur != 0 {
					d.pending = utf8.AppendRune(d.pending, 0x10000+(d.hiSur-0xD800)<<10+(r-0xDC00))
					d.hiSur = 0
				} else {
					d.pending = append(d.pending, replacement...)
					d.loneSur = true
				}
			default:
				d.flushSur()
				d.pending = utf8.AppendRune(d.pending, r)
			}
		default:
			d.err = fmt.Errorf("bad escape \\%c", e)
		}
	case c < 0x20:
		d.err = fmt.Errorf("control character 0x%02x inside a string", c)
	case c < utf8.RuneSelf:
		d.flushSur()
		if len(d.pending) > 0 {
			d.pending = append(d.pending, c)
			return
		}
		p[0] = c
		*n++
		// Copy the rest of a plain ASCII run straight through.
		buf, _ := d.r.Peek(d.r.Buffered())
		k := 0
		lim := min(len(buf), len(p)-1)
		for k+8 <= lim && !specialWord(binary.LittleEndian.Uint64(buf[k:])) {
			k += 8
		}
		for k < len(buf) && k < len(p)-1 {
			b := buf[k]
			if b == '"' || b == '\\' || b < 0x20 || b >= utf8.RuneSelf {
				break
			}
			k++
		}
		copy(p[1:], buf[:k])
		d.r.Discard(k)
		*n += k
	default:
		d.flushSur()
		seq := []byte{c}
		need := utf8Len(c)
		for len(seq) < need {
			b, err := d.r.Peek(1)
			if err != nil || b[0]&0xC0 != 0x80 {
				break
			}
			d.r.ReadByte()
			seq = append(seq, b[0])
		}
		if r, size := utf8.DecodeRune(seq); r == utf8.RuneError && size <= 1 || size != len(seq) {
			d.badUTF8 = true
			d.pending = append(d.pending, replacement...)
			return
		}
		d.pending = append(d.pending, seq...)
	}
}

// specialWord reports whether any of 8 bytes ends a plain run inside a JSON
// string: '"', '\\', a control (< 0x20) or a non-ASCII byte. Eight bytes at a
// time: base64 and plain text are almost all plain runs.
func specialWord(v uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	if v&hi != 0 {
		return true
	}
	zero := func(x uint64) bool { return (x-lo)&^x&hi != 0 }
	return zero(v^(0x22*lo)) || zero(v^(0x5C*lo)) || (v-0x20*lo)&^v&hi != 0
}

func utf8Len(c byte) int {
	switch {
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 1
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// b64Decoder decodes base64 as leniently as Node's Buffer.from(s, "base64"):
// the standard and URL-safe alphabets, whitespace and other characters
// ignored, padding optional, decoding stops at the first "=".
//
// It also notes whether the text was the canonical encoding (RFC 4648 §4,
// §3.5): the standard alphabet only, no whitespace, "=" padding exactly to a
// multiple of four, nothing after it, and zero bits where the last
// character has bits to spare. Anything else reads the same but is not what
// a writer makes: judging (C0) reports it as a repair (D4).
type b64Decoder struct {
	src      io.Reader
	in       []byte
	quad     [4]byte
	nq       int
	out      []byte
	stopped  bool
	pads     int  // "=" seen
	nonCanon bool // a character outside the canonical form
	outBuf   []byte
	err      error
}

// NonCanonical reports, once the input is read to its end, whether it was
// not the canonical base64 of what it decodes to.
func (d *b64Decoder) NonCanonical() bool { return d.nonCanon }

func newB64Decoder(src io.Reader) *b64Decoder { return &b64Decoder{src: src, in: make([]byte, 8<<10)} }

var b64val = func() [256]int8 {
	var t [256]int8
	for i := range t {
		t[i] = -1
	}
	const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < 64; i++ {
		t[std[i]] = int8(i)
	}
	t['-'] = 62
	t['_'] = 63
	return t
}()

func (d *b64Decoder) Read(p []byte) (int, error) {
	for len(d.out) == 0 {
		if d.err != nil {
			return 0, d.err
		}
		n, err := d.src.Read(d.in)
		// out is empty here: decode into its backing array again, so a
		// long attachment reuses one buffer instead of one per read.
		d.out = d.outBuf[:0]
		d.feed(d.in[:n])
		d.outBuf = d.out[:0]
		if n == len(d.in) && len(d.in) < 128<<10 {
			d.in = make([]byte, 4*len(d.in)) // a big attachment: read in bigger pieces
		}
		if err != nil {
			switch d.nq {
			case 1:
				d.nonCanon = true // six bits encode no byte
			case 2:
				d.out = append(d.out, d.quad[0]<<2|d.quad[1]>>4)
				d.nonCanon = d.nonCanon || d.pads != 2 || d.quad[1]&0x0f != 0
			case 3:
				d.out = append(d.out, d.quad[0]<<2|d.quad[1]>>4, d.quad[1]<<4|d.quad[2]>>2)
				d.nonCanon = d.nonCanon || d.pads != 1 || d.quad[2]&0x03 != 0
			case 0:
				d.nonCanon = d.nonCanon || d.pads != 0
			}
			d.nq = 0
			d.err = err
		}
	}
	k := copy(p, d.out)
	d.out = d.out[k:]
	if len(d.out) == 0 {
		d.out = d.out[:0]
	}
	return k, nil
}

// feed decodes in: whole runs of the standard alphabet with the library's
// decoder, anything else a character at a time.
func (d *b64Decoder) feed(in []byte) {
	if d.stopped {
		d.afterPad(in)
		return
	}
	for len(in) > 0 && !d.stopped {
		// The library's decoder skips CR and LF inside a run, which would
		// put the quads out of step with a run that follows: such a run
		// goes the slow way.
		if d.nq == 0 && len(in) >= 4 && bytes.IndexByte(in[:len(in)/4*4], '\n') < 0 && bytes.IndexByte(in[:len(in)/4*4], '\r') < 0 {
			k := len(in) / 4 * 4
			start := len(d.out)
			d.out = append(d.out, make([]byte, k/4*3)...)
			n, err := base64.RawStdEncoding.Decode(d.out[start:], in[:k])
			if err == nil {
				d.out = d.out[:start+n]
				in = in[k:]
				continue
			}
			d.out = d.out[:start]
			// Keep the good quads before the bad character, then go slow.
			if ce, ok := err.(base64.CorruptInputError); ok && ce >= 4 {
				good := int(ce) / 4 * 4
				d.out = append(d.out, make([]byte, good/4*3)...)
				n, _ := base64.RawStdEncoding.Decode(d.out[start:], in[:good])
				d.out = d.out[:start+n]
				in = in[good:]
			}
		}
		// The slow path, up to the end of the current quad run.
		c := in[0]
		in = in[1:]
		if c == '=' {
			d.stopped = true
			d.pads = 1
			d.afterPad(in)
			break
		}
		v := b64val[c]
		if v < 0 || c == '-' || c == '_' {
			d.nonCanon = true
		}
		if v < 0 {
			continue
		}
		d.quad[d.nq] = byte(v)
		d.nq++
		if d.nq == 4 {
			d.out = append(d.out, d.quad[0]<<2|d.quad[1]>>4, d.quad[1]<<4|d.quad[2]>>2, d.quad[2]<<6|d.quad[3])
			d.nq = 0
			// Past a bad character: try the fast path again on what is left.
		}
	}
}

// afterPad reads what follows the first "=": only more "=" is canonical.
func (d *b64Decoder) afterPad(in []byte) {
	for _, c := range in {
		if c == '=' {
			d.pads++
		} else {
			d.nonCanon = true
		}
	}
}
