// Package plural counts things in English for every front end (plain text,
// --json human strings, the TUI, the MCP server): "1 file", "2 files". One
// helper, so no message says "file(s)" and no two screens disagree.
package plural

import "strconv"

// N is n and its noun, singular when n is 1: N(1, "file") is "1 file",
// N(2, "file") is "2 files". The plural is one+"s" unless given, so an
// irregular noun names its plural: N(2, "entry", "entries"). one may be a
// phrase ("luggage file", "required check is").
func N[T Int](n T, one string, many ...string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Word(n, one, many...)
}

// Int is any count: a length, a size in bytes.
type Int interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

// Word is the noun alone, as N would choose it: for a count printed
// elsewhere ("3/11 checks pass") or a verb that agrees ("1 check is").
func Word[T Int](n T, one string, many ...string) string {
	if n == 1 {
		return one
	}
	if len(many) > 0 {
		return many[0]
	}
	return one + "s"
}
