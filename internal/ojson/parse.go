package ojson

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 1000

// SyntaxError is malformed JSON, with the byte offset and 1-based line and
// column where reading stopped.
type SyntaxError struct {
	Offset int
	Line   int
	Col    int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("malformed JSON at line %d, column %d: %s", e.Line, e.Col, e.Msg)
}

// Quirks lists what a lenient read had to overlook. A judge treats any of
// them as a repair (D4); a lander reports them as warnings.
type Quirks struct {
	BOM           bool     // a UTF-8 byte order mark preceded the value
	InvalidUTF8   bool     // raw bytes that are not UTF-8 were read as U+FFFD
	DuplicateKeys []string // keys repeated in one object (the last value wins, as in JSON.parse)
}

// Any reports whether the read overlooked anything.
func (q Quirks) Any() bool { return q.BOM || q.InvalidUTF8 || len(q.DuplicateKeys) > 0 }

// Parse reads one JSON value, as JSON.parse would after the bytes are decoded
// as UTF-8: a leading BOM is skipped, invalid UTF-8 becomes U+FFFD, a
// duplicated key keeps its first position and its last value. What it had to
// overlook is returned in Quirks.
func Parse(data []byte) (*Value, Quirks, error) {
	p := &parser{data: data}
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
		p.q.BOM = true
		p.pos = 3
	}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, p.q, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return nil, p.q, p.fail("unexpected data after the top-level value")
	}
	return v, p.q, nil
}

// ParseStrict is Parse that fails on any quirk.
func ParseStrict(data []byte) (*Value, error) {
	v, q, err := Parse(data)
	if err != nil {
		return nil, err
	}
	switch {
	case q.BOM:
		return nil, &SyntaxError{Line: 1, Col: 1, Msg: "byte order mark before the value"}
	case q.InvalidUTF8:
		return nil, &SyntaxError{Line: 1, Col: 1, Msg: "text is not valid UTF-8"}
	case len(q.DuplicateKeys) > 0:
		return nil, &SyntaxError{Line: 1, Col: 1, Msg: fmt.Sprintf("duplicate key %q", q.DuplicateKeys[0])}
	}
	return v, nil
}

type parser struct {
	data []byte
	pos  int
	q    Quirks
	// stack holds the elements of the arrays being parsed, innermost
	// last; each array gets one allocation of its exact length when it
	// ends, instead of growing (and copying) as it is read.
	stack []*Value
	// pending holds the members of the objects being parsed, innermost
	// last; each object's members are set in one allocation of their
	// exact number when it ends.
	pending []Member
	// vals and objs are slabs the tree's values and objects are cut
	// from: one allocation for many small ones.
	vals             []Value
	objs             []Obj
	arrs             []arrayNode
	nval, nobj, narr int               // the next slab's size: doubling, so a small document costs little
	seen             map[string]string // short strings read so far (intern)
}

// newValue is a Value from the slab, c its kind's tag (nil for null).
func (p *parser) newValue(c *Obj) *Value {
	if len(p.vals) == 0 {
		p.nval = min(max(2*p.nval, 8), 1024)
		p.vals = make([]Value, p.nval)
	}
	v := &p.vals[0]
	p.vals = p.vals[1:]
	v.c = c
	return v
}

func (p *parser) newObject() *Value {
	if len(p.objs) == 0 {
		p.nobj = min(max(2*p.nobj, 4), 512)
		p.objs = make([]Obj, p.nobj)
	}
	o := &p.objs[0]
	p.objs = p.objs[1:]
	o.kind = Object
	return p.newValue(o)
}

func (p *parser) newArray(elems []*Value) *Value {
	if len(p.arrs) == 0 {
		p.narr = min(max(2*p.narr, 2), 256)
		p.arrs = make([]arrayNode, p.narr)
	}
	a := &p.arrs[0]
	p.arrs = p.arrs[1:]
	a.o.kind, a.o.x, a.x.elems = Array, &a.x, elems
	return p.newValue(&a.o)
}

func (p *parser) fail(msg string) error {
	line, col := 1, 1
	end := p.pos
	if end > len(p.data) {
		end = len(p.data)
	}
	for _, c := range p.data[:end] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &SyntaxError{Offset: p.pos, Line: line, Col: col, Msg: msg}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*Value, error) {
	if depth > MaxDepth {
		return nil, p.fail(fmt.Sprintf("nested deeper than %d levels", MaxDepth))
	}
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		v := p.newValue(tagString)
		v.s = s
		return v, nil
	case c == 't':
		return p.literal("true", p.newValue(tagTrue))
	case c == 'f':
		return p.literal("false", p.newValue(tagFalse))
	case c == 'n':
		return p.literal("null", p.newValue(nil))
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		return nil, p.fail(fmt.Sprintf("unexpected character %q", rune(c)))
	}
}

func (p *parser) literal(word string, v *Value) (*Value, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return nil, p.fail("invalid literal")
	}
	p.pos += len(word)
	return v, nil
}

func (p *parser) object(depth int) (*Value, error) {
	p.pos++ // {
	v := p.newObject()
	o := v.c
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	base := len(p.pending)
	defer func() { clear(p.pending[base:]); p.pending = p.pending[:base] }()
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail("expected a string key")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail("expected ':' after key")
		}
		p.pos++
		p.skipSpace()
		val, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.pending = append(p.pending, Member{Key: key, Value: val})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of input in object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			// Set in order, as they came: a later duplicate replaces
			// the earlier value and is reported.
			o.members = make([]Member, 0, len(p.pending)-base)
			for _, m := range p.pending[base:] {
				if o.Has(m.Key) {
					p.q.DuplicateKeys = append(p.q.DuplicateKeys, m.Key)
				}
				o.Set(m.Key, m.Value)
			}
			return v, nil
		default:
			return nil, p.fail("expected ',' or '}' in object")
		}
	}
}

func (p *parser) array(depth int) (*Value, error) {
	p.pos++ // [
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return p.newArray([]*Value{}), nil // empty, not absent: Items is non-nil
	}
	base := len(p.stack)
	defer func() { clear(p.stack[base:]); p.stack = p.stack[:base] }()
	for {
		p.skipSpace()
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.stack = append(p.stack, e)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of input in array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return p.newArray(append(make([]*Value, 0, len(p.stack)-base), p.stack[base:]...)), nil
		default:
			return nil, p.fail("expected ',' or ']' in array")
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) number() (*Value, error) {
	start := p.pos
	d := p.data
	if d[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(d) && d[p.pos] == '0':
		p.pos++
	case p.pos < len(d) && d[p.pos] >= '1' && d[p.pos] <= '9':
		for p.pos < len(d) && isDigit(d[p.pos]) {
			p.pos++
		}
	default:
		return nil, p.fail("invalid number")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if p.pos >= len(d) || !isDigit(d[p.pos]) {
			return nil, p.fail("invalid number: digit expected after '.'")
		}
		for p.pos < len(d) && isDigit(d[p.pos]) {
			p.pos++
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if p.pos >= len(d) || !isDigit(d[p.pos]) {
			return nil, p.fail("invalid number: digit expected in exponent")
		}
		for p.pos < len(d) && isDigit(d[p.pos]) {
			p.pos++
		}
	}
	f, err := strconv.ParseFloat(string(d[start:p.pos]), 64)
	if err != nil {
		// Out of range: JavaScript reads ±Infinity or ±0, as ParseFloat
		// returns with ErrRange.
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return nil, p.fail("invalid number")
		}
	}
	if math.IsNaN(f) {
		return nil, p.fail("invalid number")
	}
	v := p.newValue(tagNumber)
	v.s = numberText(f)
	return v, nil
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

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		h := hexVal(p.data[p.pos+i])
		if h < 0 {
			return 0, false
		}
		r = r<<4 | rune(h)
	}
	p.pos += 4
	return r, true
}

// appendWTF8 appends r; a lone surrogate is encoded as its three-byte
// generalised UTF-8 form, which utf8.EncodeRune would replace.
func appendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

// intern returns s as a string, one string for each short one seen
// before: a passport repeats its keys and scopes in every fact ("claim",
// "scope", "verified", "universal"), and 110,000 facts made 440,000
// small strings of them (issue 20). Long strings and, past a bound, new
// short ones are not kept.
func (p *parser) intern(s []byte) string {
	if len(s) > 24 {
		return string(s)
	}
	if k, ok := p.seen[string(s)]; ok {
		return k
	}
	k := string(s)
	if len(p.seen) < 4096 {
		if p.seen == nil {
			p.seen = make(map[string]string, 64)
		}
		p.seen[k] = k
	}
	return k
}

func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	d := p.data
	// Fast path: no escapes, valid UTF-8.
	start := p.pos
	for p.pos < len(d) {
		c := d[p.pos]
		if c == '"' {
			s := d[start:p.pos]
			if utf8.Valid(s) {
				p.pos++
				return p.intern(s), nil
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.pos++
	}
	p.pos = start
	var b []byte
	for {
		if p.pos >= len(d) {
			return "", p.fail("unterminated string")
		}
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(b), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c == '\\':
			p.pos++
			if p.pos >= len(d) {
				return "", p.fail("unterminated escape")
			}
			e := d[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", p.fail("invalid \\u escape")
				}
				if r >= 0xD800 && r <= 0xDBFF && p.pos+6 <= len(d) && d[p.pos] == '\\' && d[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					if r2, ok := p.hex4(); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
						r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					} else {
						p.pos = save
					}
				}
				b = appendWTF8(b, r)
			default:
				return "", p.fail(fmt.Sprintf("invalid escape \\%c", e))
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(d[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				p.q.InvalidUTF8 = true
				b = append(b, "\uFFFD"...)
				p.pos++
				continue
			}
			b = append(b, d[p.pos:p.pos+size]...)
			p.pos += size
		}
	}
}
