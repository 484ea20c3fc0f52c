package scan

import "unicode/utf8"

// urlPasswordPattern is what the url-password rule finds at "://", as a
// regular expression (anchored, as rx anchors every rule's): a user name of
// at most 64 characters, a colon, a password of 3 to 128, an "@" and the
// host's first byte. The rule does not compile it: a counted repetition
// compiles to one nested copy per count, so this one took 0.4 ms warm, about
// 4 ms and a stack grown to a quarter of a megabyte in a fresh process, and
// almost every pack has a URL in it (issue 20). urlPassword finds the same
// match by walking the two runs; TestURLPasswordMatchesItsPattern and
// FuzzURLPassword hold the two to the same results.
const urlPasswordPattern = `\A://[^\s/:@"'<>\\]{0,64}:(?P<t>[^\s/@"'<>\\]{3,128})@[A-Za-z0-9\[]`

// urlPassword is the url-password rule's matcher: regexp.Regexp's
// FindSubmatchIndex and SubexpNames for urlPasswordPattern.
type urlPassword struct{}

func (urlPassword) String() string        { return urlPasswordPattern }
func (urlPassword) SubexpNames() []string { return []string{"", "t"} }

// FindSubmatchIndex walks the user name and the password as the pattern's
// greedy runs would: neither class holds "@", and the user's holds no ":",
// so each run ends where its class does, and backing off cannot help (the
// byte after a shorter run is still in the class, not the ":" or "@" that
// must follow). A run longer than its bound fails for the same reason.
func (urlPassword) FindSubmatchIndex(w []byte) []int {
	if len(w) < 3 || string(w[:3]) != "://" {
		return nil
	}
	u, ok := urlRun(w, 3, 64, true)
	if !ok || u >= len(w) || w[u] != ':' {
		return nil
	}
	t0 := u + 1
	t1, ok := urlRun(w, t0, 128, false)
	if !ok || t1 >= len(w) || w[t1] != '@' || t1+1 >= len(w) {
		return nil
	}
	if utf8.RuneCount(w[t0:t1]) < 3 {
		return nil
	}
	if c := w[t1+1]; !(isAlnum(c) || c == '[') {
		return nil
	}
	return []int{0, t1 + 2, t0, t1}
}

// urlRun is the end of the run of the user name's class (user) or the
// password's from i, and false when it is longer than most characters.
func urlRun(w []byte, i, most int, user bool) (int, bool) {
	for n := 0; i < len(w); n++ {
		switch w[i] {
		case '\t', '\n', '\f', '\r', ' ', '/', '@', '"', '\'', '<', '>', '\\':
			return i, true
		case ':':
			if user {
				return i, true
			}
		}
		if n == most {
			return i, false
		}
		_, size := utf8.DecodeRune(w[i:])
		i += size
	}
	return i, true
}
