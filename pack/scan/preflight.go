package scan

import (
	"strings"
	"unicode"
)

// Vague accept phrases: each says "the asker will know it when they see it",
// which is exactly what §4.3 says accept must not be ("without it the reply
// cannot be judged, only negotiated"). Compared after folding case, trimming
// punctuation and collapsing blank space.
func isVaguePhrase(s string) bool {
	// A switch, not a map: nothing to build at start-up (issue 20).
	switch s {
	case "done", "ok", "okay", "yes", "fine", "good", "lgtm", "it works", "works", "working", "fixed", "finished",
		"complete", "completed", "when done", "when finished", "when complete", "when completed", "when it's done",
		"when it is done", "when it works", "when you're done", "when you are done", "when ready", "once done",
		"once finished", "looks good", "looks good to me", "looks fine", "looks right", "seems fine",
		"good enough", "all good", "no problem", "whatever works", "as needed", "as appropriate", "you decide",
		"your call", "up to you", "tbd", "todo", "n/a", "na", "none", "anything", "any answer", "an answer",
		"reply", "完成", "完成了", "完成即可", "做完", "做完了", "搞定", "搞定了", "好", "好的", "可以", "行", "没问题", "看着办", "弄好", "弄好了",
		"弄完", "处理好", "差不多", "随便", "都行", "回复即可", "答复即可", "有结果", "有答案", "待定":
		return true
	}
	return false
}

// VagueAccept reports whether an ask's accept is too vague to judge an
// answer by (a pre-flight warning, not a refusal): a known vague phrase, or
// shorter than three words. Han, kana and Hangul count one word per two
// characters, since they are written without spaces ("确认预算" is two words,
// "完成" one).
func VagueAccept(accept string) bool {
	s := strings.ToLower(strings.Join(strings.Fields(accept), " "))
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r) })
	if s == "" || isVaguePhrase(s) {
		return true
	}
	return acceptWords(s) < 3
}

func acceptWords(s string) int {
	words, cjk := 0, 0
	inWord := false
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			cjk++
			inWord = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !inWord {
				words++
			}
			inWord = true
		default:
			inWord = false
		}
	}
	return words + (cjk+1)/2
}

// Absolute local paths: they name a place on the sender's machine that the
// receiver does not have (§4.2 calls them machine-scoped). Unix paths under
// the usual roots, home-relative ~/ paths, Windows drive and UNC paths, and
// file:// URLs. A path must start the text or follow a space, a quote, a
// bracket or "=", so URL paths ("https://host/home/x") are not taken.
var absPathRe = lazy(
	`(?:^|[\s"'` + "`" + `(\[{<=,;])(` +
		`(?:file://)?/(?:Users|home|root|tmp|var|opt|etc|usr|mnt|media|srv|Volumes|private|workspace|workspaces|work|data|nix|run|Library|Applications|System)(?:/[^\s"'` + "`" + `<>|)\]}]*|\b)` +
		`|~[A-Za-z0-9._-]*/[^\s"'` + "`" + `<>|)\]}]*` +
		`|file:///[^\s"'` + "`" + `<>|)\]}]*` +
		`|[A-Za-z]:[\\/][^\s"'` + "`" + `<>|*?)\]}]*` +
		`|\\\\[A-Za-z0-9._$-]+\\[^\s"'` + "`" + `<>|*?)\]}]+` +
		`)`)

// AbsolutePaths returns the absolute local paths in s, in order, without
// duplicates or trailing punctuation.
func AbsolutePaths(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range absPathRe.FindAllStringSubmatchIndex(s, -1) {
		p := strings.TrimRight(s[m[2]:m[3]], ".,;:!?")
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}
