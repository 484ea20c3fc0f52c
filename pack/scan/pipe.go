package scan

import (
	"strings"
	"unicode/utf8"
)

// pipeToShellPattern is what the pipe-to-shell rule finds, as one regular
// expression: a download command, then within 300 characters on the same
// command (no newline, pipe or semicolon) a pipe into a shell. The rule does
// not compile it: Go turns x{0,300} into 300 nested optional copies of x, so
// compiling it took 1.5 ms and grew the goroutine's stack to half a megabyte
// (the compiler recurses once per copy), the largest single cost of judging a
// small pack in a fresh process (issue 20). pipeToShell finds the same
// matches with three small expressions and a counted walk;
// TestPipeToShellMatchesItsPattern and FuzzPipeToShell hold the two to the
// same results.
const pipeToShellPattern = `(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|;]{0,300}\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b|\b(?:iwr|irm|invoke-(?:webrequest|restmethod))\b[^\n|;]{0,300}\|\s*iex\b`

// pipeGap is the most characters the pattern allows between the command and
// the pipe.
const pipeGap = 300

var (
	pipeHeads = lazy(`(?i)\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b`)
	pipeShell = lazy(`(?i)\A\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b`)
	pipeIex   = lazy(`(?i)\A\|\s*iex\b`)
)

// pipeToShell is the pipe-to-shell rule's matcher; its method has
// regexp.Regexp's contract for FindAllStringIndex (leftmost-first,
// non-overlapping, at most n matches when n >= 0).
type pipeToShell struct{}

func (pipeToShell) FindAllStringIndex(s string, n int) [][]int {
	// Every match holds a pipe: without one nothing can match, and the
	// head pattern is not compiled (the needle "irm" is in "confirm").
	if strings.IndexByte(s, '|') < 0 {
		return nil
	}
	var out [][]int
	off := 0 // the end of the last match: the next may not start before it
	for _, h := range pipeHeads.FindAllStringIndex(s, -1) {
		if n >= 0 && len(out) >= n {
			break
		}
		if h[0] < off {
			continue
		}
		// The gap, [^\n|;]{0,300}: it cannot hold a pipe, so it ends at the
		// first newline, pipe or semicolon, and only a pipe there matches.
		p, runes := h[1], 0
		for p < len(s) && runes <= pipeGap {
			c := s[p]
			if c == '\n' || c == '|' || c == ';' {
				break
			}
			_, w := utf8.DecodeRuneInString(s[p:])
			p += w
			runes++
		}
		if runes > pipeGap || p >= len(s) || s[p] != '|' {
			continue
		}
		// The first alternative (any command, into sh) before the second
		// (PowerShell's download commands, into iex), as the pattern orders
		// them.
		m := pipeShell.FindStringIndex(s[p:])
		if m == nil && !strings.EqualFold(s[h[0]:h[1]], "curl") && !strings.EqualFold(s[h[0]:h[1]], "wget") {
			m = pipeIex.FindStringIndex(s[p:])
		}
		if m == nil {
			continue
		}
		out = append(out, []int{h[0], p + m[1]})
		off = p + m[1]
	}
	return out
}
