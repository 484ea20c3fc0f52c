package scan

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles its pattern on first use. The tables stay data until
// something is scanned, so a command that never scans (tp --version, tp
// acts list) does not pay at start-up for compiling a hundred patterns.
// TestEveryPatternCompiles compiles them all, so a bad pattern still fails
// the tests rather than a user's run.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
	// anchored is the pattern anchored at the input's start, compiled on
	// first use (anchoredAt).
	anchorOnce sync.Once
	anchored   *regexp.Regexp
}

// anchoredAt is the length of the match that begins at s's start, as the
// pattern's leftmost-first match beginning there; -1 when none does.
func (l *lazyRegexp) anchoredAt(s string) int {
	l.anchorOnce.Do(func() { l.anchored = regexp.MustCompile(`^(?:` + l.src + `)`) })
	if m := l.anchored.FindStringIndex(s); m != nil {
		return m[1]
	}
	return -1
}

func lazy(src string) *lazyRegexp { return &lazyRegexp{src: src} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) String() string                       { return l.src }
func (l *lazyRegexp) SubexpNames() []string                { return l.get().SubexpNames() }
func (l *lazyRegexp) FindSubmatchIndex(b []byte) []int     { return l.get().FindSubmatchIndex(b) }
func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }
func (l *lazyRegexp) FindStringIndex(s string) []int       { return l.get().FindStringIndex(s) }
func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
