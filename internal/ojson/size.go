package ojson

import "unicode/utf8"

// CanonicalSize returns len(Canonical(v)) without building it, stopping as
// soon as the size passes limit (then the result is some size > limit).
// The canonical form indents every element by its depth (D1), so a small
// document of deeply nested, wide arrays has a canonical form far larger
// than itself: a reader asks first, and refuses before writing it (issue
// 11). limit <= 0 means no limit. Time is linear in the number of values
// and the bytes of strings; memory is the depth of the recursion.
func CanonicalSize(v *Value, limit int64) int64 {
	s := sizer{limit: limit}
	s.value(v, 0)
	return s.n + 1 // the final newline
}

type sizer struct {
	n, limit int64
}

func (s *sizer) over() bool { return s.limit > 0 && s.n > s.limit }

// countWriter counts what writeString would write.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error)       { c.n += int64(len(p)); return len(p), nil }
func (c *countWriter) WriteByte(byte) error              { c.n++; return nil }
func (c *countWriter) WriteString(p string) (int, error) { c.n += int64(len(p)); return len(p), nil }

// stringSize is what writeString writes for str. Plain ASCII (the common
// case) is counted here, without an allocation per string.
func stringSize(str string) int64 {
	plain := true
	for i := 0; i < len(str) && plain; i++ {
		plain = str[i] < utf8.RuneSelf && !NeedsEscape(str[i])
	}
	if plain {
		return int64(len(str)) + 2
	}
	var c countWriter
	writeString(&c, str)
	return c.n
}

func (s *sizer) value(v *Value, depth int64) {
	if s.over() {
		return
	}
	switch v.Kind() {
	case Null:
		s.n += 4
	case Bool:
		if v.c == tagTrue {
			s.n += 4
		} else {
			s.n += 5
		}
	case Number:
		s.n += int64(len(FormatNumber(v.num())))
	case String:
		s.n += stringSize(v.s)
	case Array:
		n := v.arrayLen()
		if n == 0 {
			s.n += 2
			return
		}
		// "[" + per element: "\n" + indent + element, "," between;
		// then "\n" + indent + "]".
		k := int64(n)
		s.n += 1 + k*(1+2*(depth+1)) + (k - 1) + 1 + 2*depth + 1
		for i := 0; i < n; i++ {
			s.value(v.elem(i), depth+1)
			if s.over() {
				return
			}
		}
	case Object:
		if v.c.Len() == 0 {
			s.n += 2
			return
		}
		k := int64(len(v.c.members))
		s.n += 1 + k*(1+2*(depth+1)+2) + (k - 1) + 1 + 2*depth + 1 // ": " after each key
		for _, m := range v.c.members {
			s.n += stringSize(m.Key)
			s.value(m.Value, depth+1)
			if s.over() {
				return
			}
		}
	}
}
