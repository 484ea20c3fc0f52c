package mcp

import (
	"encoding/json"
	"unicode/utf8"
)

// members calls fn with each member of the JSON object b, its name
// (unescaped) and its value as written, without decoding the values: a
// response's result, a tool's result document, can be hundreds of
// kilobytes, and what tp needs of them is which members the top holds.
// b must be well-formed JSON (written by encoding/json, or checked with
// json.Valid first); members reports false when it is not an object.
func members(b []byte, fn func(name, value []byte)) bool {
	i := space(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = space(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) {
		if b[i] != '"' {
			return false
		}
		end := skipString(b, i)
		name := b[i+1 : end-1]
		for _, c := range name {
			if c == '\\' {
				var s string
				if json.Unmarshal(b[i:end], &s) != nil {
					return false
				}
				name = []byte(s)
				break
			}
		}
		i = space(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = space(b, i+1)
		end = skipValue(b, i)
		if end <= i {
			return false
		}
		fn(name, b[i:end])
		i = space(b, end)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '}':
			return true
		case ',':
			i = space(b, i+1)
		default:
			return false
		}
	}
	return false
}

func space(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index after the value that starts at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return i
		case c >= utf8.RuneSelf:
			return i
		}
	}
	return i
}
