package ojson

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// Canonical returns v as ECMAScript JSON.stringify(v, null, 2) + "\n" would
// write it (D1).
func Canonical(v *Value) []byte {
	// Sized first (one walk, no allocation): growing a buffer of many
	// megabytes by doubling costs more in fresh pages than the walk
	// (issue 20: a passport of 110,000 facts).
	var buf bytes.Buffer
	buf.Grow(int(CanonicalSize(v, 0)))
	e := encoder{w: &buf}
	e.value(v, 0)
	buf.WriteByte('\n')
	return buf.Bytes()
}

// WriteCanonical streams the canonical form of v to w.
func WriteCanonical(w io.Writer, v *Value) error {
	bw := bufio.NewWriter(w)
	e := encoder{w: bw}
	e.value(v, 0)
	bw.WriteByte('\n')
	return bw.Flush()
}

// WriteCanonicalAt streams v as Canonical writes it, nested depth levels
// deep: every line after the first indented by two more spaces per level,
// and no final newline — a member's value at that depth, as a writer that
// puts v inside another object writes it, without the canonical form
// built first (issue 20).
func WriteCanonicalAt(w io.Writer, v *Value, depth int) error {
	bw := bufio.NewWriter(w)
	e := encoder{w: bw}
	e.value(v, max(depth, 0))
	return bw.Flush()
}

// Compact returns v as JSON.stringify(v) would write it: no whitespace and no
// trailing newline.
func Compact(v *Value) []byte {
	var buf bytes.Buffer
	e := encoder{w: &buf, compact: true}
	e.value(v, 0)
	return buf.Bytes()
}

// Brief is v's compact form cut to at most max bytes (on a character
// boundary, "…" marking the cut) for quoting a value in a message; an
// absent value reads "(absent)".
func Brief(v *Value, max int) string {
	if v == nil {
		return "(absent)"
	}
	s := string(Compact(v))
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// FromGo converts a Go value (anything encoding/json marshals; struct field
// order becomes key order) into a Value.
func FromGo(x any) (*Value, error) {
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	v, _, err := Parse(b)
	return v, err
}

// MarshalCanonical is FromGo followed by Canonical.
func MarshalCanonical(x any) ([]byte, error) {
	v, err := FromGo(x)
	if err != nil {
		return nil, err
	}
	return Canonical(v), nil
}

// Decode unmarshals v into a Go value with encoding/json.
func (v *Value) Decode(x any) error { return json.Unmarshal(Compact(v), x) }

// MarshalJSON lets a Value sit inside Go structs encoded with encoding/json.
func (v *Value) MarshalJSON() ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	return Compact(v), nil
}

// UnmarshalJSON reads a Value inside Go structs decoded with encoding/json.
func (v *Value) UnmarshalJSON(b []byte) error {
	p, _, err := Parse(b)
	if err != nil {
		return err
	}
	*v = *p
	return nil
}

type byteWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

type encoder struct {
	w       byteWriter
	compact bool
}

func (e *encoder) indent(depth int) {
	if e.compact {
		return
	}
	e.w.WriteByte('\n')
	for i := 0; i < depth; i++ {
		e.w.WriteString("  ")
	}
}

func (e *encoder) value(v *Value, depth int) {
	switch v.Kind() {
	case Null:
		e.w.WriteString("null")
	case Bool:
		if v.c == tagTrue {
			e.w.WriteString("true")
		} else {
			e.w.WriteString("false")
		}
	case Number:
		e.w.WriteString(FormatNumber(v.num()))
	case String:
		writeString(e.w, v.s)
	case Array:
		n := v.arrayLen()
		if n == 0 {
			e.w.WriteString("[]")
			return
		}
		e.w.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				e.w.WriteByte(',')
			}
			e.indent(depth + 1)
			e.value(v.elem(i), depth+1)
		}
		e.indent(depth)
		e.w.WriteByte(']')
	case Object:
		if v.c.Len() == 0 {
			e.w.WriteString("{}")
			return
		}
		e.w.WriteByte('{')
		for i, m := range v.c.members {
			if i > 0 {
				e.w.WriteByte(',')
			}
			e.indent(depth + 1)
			writeString(e.w, m.Key)
			if e.compact {
				e.w.WriteByte(':')
			} else {
				e.w.WriteString(": ")
			}
			e.value(m.Value, depth+1)
		}
		e.indent(depth)
		e.w.WriteByte('}')
	}
}

const hexDigits = "0123456789abcdef"

// writeString quotes s as JSON.stringify does: only '"', '\\' and controls
// below U+0020 are escaped (with the short forms where JSON has them), lone
// surrogates (kept as WTF-8) become \udxxx, everything else is literal.
func writeString(w byteWriter, s string) {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !NeedsEscape(c) {
				i++
				continue
			}
			w.WriteString(s[start:i])
			WriteEscape(w, c)
			i++
			start = i
			continue
		}
		// A WTF-8 lone surrogate: ED A0..BF xx.
		if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
			w.WriteString(s[start:i])
			r := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			w.WriteString(`\u`)
			for sh := 12; sh >= 0; sh -= 4 {
				w.WriteByte(hexDigits[(r>>sh)&0xF])
			}
			i += 3
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Not UTF-8 at all (a Go string built elsewhere): write U+FFFD,
			// as a JavaScript string decoded from these bytes would hold.
			w.WriteString(s[start:i])
			w.WriteString("\uFFFD")
			i++
			start = i
			continue
		}
		i += size
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

// NeedsEscape reports whether JSON.stringify escapes the ASCII byte c
// inside a string: '"', '\\' and the controls below U+0020.
func NeedsEscape(c byte) bool { return c < 0x20 || c == '"' || c == '\\' }

// WriteEscape writes the escape JSON.stringify uses for an ASCII byte for
// which NeedsEscape is true: the short form where JSON has one, else
// \u00xx in lowercase hex. Streaming writers of string contents (the flat
// form's attachments) share it with the encoder.
func WriteEscape(w interface {
	io.ByteWriter
	io.StringWriter
}, c byte) {
	switch c {
	case '"':
		w.WriteString(`\"`)
	case '\\':
		w.WriteString(`\\`)
	case '\b':
		w.WriteString(`\b`)
	case '\f':
		w.WriteString(`\f`)
	case '\n':
		w.WriteString(`\n`)
	case '\r':
		w.WriteString(`\r`)
	case '\t':
		w.WriteString(`\t`)
	default:
		w.WriteString(`\u00`)
		w.WriteByte(hexDigits[c>>4])
		w.WriteByte(hexDigits[c&0xF])
	}
}

// FormatNumber prints f as ECMAScript Number::toString does (JSON.stringify
// writes non-finite numbers as null).
func FormatNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0" // also -0
	}
	var b []byte
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// Shortest round-trip digits, as d.ddde±x.
	es := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expPart, _ := cut(es, 'e')
	digits := make([]byte, 0, len(mant))
	for i := 0; i < len(mant); i++ {
		if mant[i] != '.' {
			digits = append(digits, mant[i])
		}
	}
	exp, _ := strconv.Atoi(expPart)
	k := len(digits)
	n := exp + 1 // the decimal point sits after n digits
	switch {
	case k <= n && n <= 21:
		b = append(b, digits...)
		for i := 0; i < n-k; i++ {
			b = append(b, '0')
		}
	case 0 < n && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		b = append(b, digits[n:]...)
	case -6 < n && n <= 0:
		b = append(b, '0', '.')
		for i := 0; i < -n; i++ {
			b = append(b, '0')
		}
		b = append(b, digits...)
	default:
		b = append(b, digits[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if n-1 >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(n-1), 10)
	}
	return string(b)
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// CanonicalEqual reports whether b is exactly Canonical(v), without
// building it: a reader that holds the bytes as written keeps them as the
// canonical form when they already are (issue 20: a second copy of a
// 10 MB pack object otherwise).
func CanonicalEqual(v *Value, b []byte) bool {
	c := compareWriter{rest: b, same: true}
	e := encoder{w: &c}
	e.value(v, 0)
	c.WriteByte('\n')
	return c.same && len(c.rest) == 0
}

// compareWriter checks what is written against rest, consuming it; once
// something differs it only records that.
type compareWriter struct {
	rest []byte
	same bool
}

func (c *compareWriter) WriteString(s string) (int, error) {
	if c.same {
		if len(s) > len(c.rest) || string(c.rest[:len(s)]) != s {
			c.same = false
		} else {
			c.rest = c.rest[len(s):]
		}
	}
	return len(s), nil
}

func (c *compareWriter) Write(p []byte) (int, error) {
	if c.same {
		if len(p) > len(c.rest) || !bytes.Equal(c.rest[:len(p)], p) {
			c.same = false
		} else {
			c.rest = c.rest[len(p):]
		}
	}
	return len(p), nil
}

func (c *compareWriter) WriteByte(b byte) error {
	if c.same {
		if len(c.rest) == 0 || c.rest[0] != b {
			c.same = false
		} else {
			c.rest = c.rest[1:]
		}
	}
	return nil
}
