package scan

import (
	"strings"
	"unicode"
)

// Vague accept phrases: each says "the asker will know it when they see it",
// which is exactly what §4.3 says accept must not be ("without it the reply
// cannot be judged, only negotiated"). Compared after folding case, trimming
// punctuation and collapsing blank space.
var vaguePhrases = map[string]bool{
	"done": true, "ok": true, "okay": true, "yes": true, "fine": true, "good": true, "lgtm": true,
	"it works": true, "works": true, "working": true, "fixed": true, "finished": true, "complete": true, "completed": true,
	"when done": true, "when finished": true, "when complete": true, "when completed": true,
	"when it's done": true, "when it is done": true, "when it works": true, "when you're done": true,
	"when you are done": true, "when ready": true, "once done": true, "once finished": true,
	"looks good": true, "looks good to me": true, "looks fine": true, "looks right": true, "seems fine": true,
	"good enough": true, "all good": true, "no problem": true, "whatever works": true, "as needed": true,
	"as appropriate": true, "you decide": true, "your call": true, "up to you": true, "tbd": true, "todo": true,
	"n/a": true, "na": true, "none": true, "anything": true, "any answer": true, "an answer": true, "reply": true,
	"完成": true, "完成了": true, "完成即可": true, "做完": true, "做完了": true, "搞定": true, "搞定了": true,
	"好": true, "好的": true, "可以": true, "行": true, "没问题": true, "看着办": true, "弄好": true, "弄好了": true,
	"弄完": true, "处理好": true, "差不多": true, "随便": true, "都行": true, "回复即可": true, "答复即可": true,
	"有结果": true, "有答案": true, "待定": true,
}

// VagueAccept reports whether an ask's accept is too vague to judge an
// answer by (a pre-flight warning, not a refusal): a known vague phrase, or
// shorter than three words. Han, kana and Hangul count one word per two
// characters, since they are written without spaces ("确认预算" is two words,
// "完成" one).
func VagueAccept(accept string) bool {
	s := strings.ToLower(strings.Join(strings.Fields(accept), " "))
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r) })
	if s == "" || vaguePhrases[s] {
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
