package scan

import "strings"

// Redact returns s with every credential of the one table (D5) replaced by
// the few leading bytes an excerpt shows, "…", and mark(rule) — so a screen
// that leaves a secret out says so ("sk-a…[credential-like (anthropic-key),
// not shown]"). Text around the credentials is kept whole. It is the
// redaction every printer of untrusted text uses (issue 17). A key block's
// header is a label, not the secret: the block after it is left out up to
// its END line (or to the end of s), and marked.
func Redact(s string, mark func(rule string) string) string {
	if s == "" {
		return s
	}
	spans := spansOf(s)
	if len(spans) == 0 {
		return s
	}
	var out strings.Builder
	pos := 0
	for _, h := range spans {
		if h.t0 < pos {
			continue
		}
		out.WriteString(s[pos:h.t0])
		out.WriteString(redact(h.r, []byte(s[h.t0:h.t1])))
		if mark != nil {
			out.WriteString(mark(h.r.id))
		}
		pos = h.t1
		if h.r.label {
			pos = blockEnd(s, pos)
		}
	}
	out.WriteString(s[pos:])
	return out.String()
}

// blockEnd is where the key block whose header ends at from ends: after its
// "-----END …-----" line, or len(s).
func blockEnd(s string, from int) int {
	i := strings.Index(s[from:], "-----END ")
	if i < 0 {
		return len(s)
	}
	j := from + i + len("-----END ")
	k := strings.Index(s[j:], "-----")
	if k < 0 {
		return len(s)
	}
	return j + k + len("-----")
}
