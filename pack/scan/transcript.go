package scan

import (
	"strings"
	"unicode/utf8"
)

// Roles of a chat transcript (§4.1, C8). A role line is a line that starts —
// after blank space, quote marks, list bullets, heading marks or emphasis —
// with a role name and a colon ("User:", "**Assistant:**", "ChatGPT said:",
// "用户：", "> Human: …"), or a heading that is only a role name ("## User").
var (
	humanRoles = []string{"user", "human", "you", "用户", "人类", "ユーザー"}
	aiRoles    = []string{"assistant", "ai", "chatgpt", "claude", "gemini", "bard", "copilot", "bot",
		"gpt", "助手", "助理", "ai助手", "机器人", "アシスタント"}
	// Lines with these roles are transcript lines too, but they prove
	// nothing on their own: "System: Ubuntu 22.04" is a fact.
	otherRoles = []string{"system", "tool", "function", "系统", "工具"}
)

// roleLineHead is what may come before a role line's bracket: blank space,
// quote marks, bullets, heading marks, emphasis, a number.
const roleLineHead = `(?i)^[\s>*#_\-•|]*(?:\d{1,3}[.)][ \t]*)?`

// roleAlt is every role as the patterns' alternation: aiRoles, humanRoles,
// then otherRoles, joined by "|" (TestRoleAltIsTheLists). A constant, so
// the patterns below are too and nothing is built at start-up (issue 20).
const roleAlt = "assistant|ai|chatgpt|claude|gemini|bard|copilot|bot|gpt|助手|助理|ai助手|机器人|アシスタント|" +
	"user|human|you|用户|人类|ユーザー|" +
	"system|tool|function|系统|工具"

const (
	// roleLinePattern is a role line. A time or a name in brackets may
	// come first ("[12:30] User:"), at most 30 characters of it.
	roleLinePattern = roleLineHead + `(?:\[[^\]\n]{1,30}\][ \t]*)?` + roleLineTail
	// roleLineRe is roleLinePattern with the bracket's {1,30} as + and its
	// text captured, so lineSide counts it instead: compiling the count
	// makes 30 nested copies of the class, most of the pattern's cost (0.35
	// ms warm, twice that in a fresh process, where it is the first pattern
	// judging a pack with a colon in it compiles: issue 20). The bracket's
	// text ends at the first "]", so the count decides the same matches;
	// TestRoleLineMatchesItsPattern and FuzzRoleLine hold the two together.
	roleLineSrc  = roleLineHead + `(?:\[([^\]\n]+)\][ \t]*)?` + roleLineTail
	roleLineTail = `(?:\*\*|__)?[ \t]*(` + roleAlt + `|gpt-?[0-9][0-9a-z.\-]*)[ \t]*(?:\*\*|__)?[ \t]*(?:said|说)?[ \t]*(?:\*\*|__)?[ \t]*[:：]`
	// roleHeadPattern is a heading that is only a role name; roleHead
	// decides it without compiling it (TestRoleLineMatchesItsPattern).
	roleHeadPattern = `(?i)^[ \t]*#{1,6}[ \t]*(` + roleAlt + `)[ \t]*$`
)

var roleLineRe = lazy(roleLineSrc)

// roleBracketMax is the most characters roleLinePattern allows in brackets.
const roleBracketMax = 30

type side int

const (
	sideNone side = iota
	sideHuman
	sideAI
	sideOther
)

func roleSide(role string) side {
	role = strings.ToLower(role)
	for _, r := range humanRoles {
		if role == r {
			return sideHuman
		}
	}
	for _, r := range aiRoles {
		if role == r {
			return sideAI
		}
	}
	if strings.HasPrefix(role, "gpt") {
		return sideAI
	}
	for _, r := range otherRoles {
		if role == r {
			return sideOther
		}
	}
	return sideNone
}

// lineSide says whether one line opens a turn, and whose.
func lineSide(line string) side {
	if len(line) > 200 {
		line = line[:200] // a role prefix is near the start; keeps long lines cheap
	}
	if roleMayStart(line) {
		if m := roleLineRe.FindStringSubmatch(line); m != nil && utf8.RuneCountInString(m[1]) <= roleBracketMax {
			return roleSide(m[2])
		}
	}
	if role, ok := roleHead(line); ok {
		return roleSide(role)
	}
	return sideNone
}

// roleMayStart reports whether a role name starts where roleLineRe could
// look for one: after the head's run of blanks, quote marks and bullets,
// after a number ("12)") there, or after a bracket ("[12:30]") at either,
// each followed by emphasis and blanks. The head's class holds no letter
// and no digit, "[" or role name's first character, so the role's place is
// fixed by what the line starts with; when no role name (folded as the
// pattern's (?i) folds) begins at one of those places, roleLineRe cannot
// match and is not run, nor compiled (issue 20: most lines of a pack are
// not transcript lines). TestRoleLineMatchesItsPattern and FuzzRoleLine
// hold lineSide, with this in front, to the pattern.
func roleMayStart(line string) bool {
	p := 0
	for p < len(line) {
		r, w := utf8.DecodeRuneInString(line[p:])
		if !strings.ContainsRune(" \t\n\f\r>*#_-•|", r) {
			break
		}
		p += w
	}
	for _, q := range [2]int{p, afterNumber(line, p)} {
		if q < 0 {
			continue
		}
		if roleAt(line, q) {
			return true
		}
		if b := afterBracket(line, q); b >= 0 && roleAt(line, b) {
			return true
		}
	}
	return false
}

// afterNumber is where `\d{1,3}[.)][ \t]*` at i ends, or -1.
func afterNumber(s string, i int) int {
	j := i
	for j < len(s) && j-i < 4 && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j-i > 3 || j >= len(s) || (s[j] != '.' && s[j] != ')') {
		return -1
	}
	return skipBlanks(s, j+1)
}

// afterBracket is where `\[[^\]\n]+\][ \t]*` at i ends, or -1.
func afterBracket(s string, i int) int {
	if i >= len(s) || s[i] != '[' {
		return -1
	}
	j := strings.IndexAny(s[i+1:], "]\n")
	if j < 1 || s[i+1+j] != ']' {
		return -1
	}
	return skipBlanks(s, i+1+j+1)
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// roleAt reports whether `(?:\*\*|__)?[ \t]*` and a role name start at i.
// (gpt-4o and the like start with "gpt", one of aiRoles.)
func roleAt(s string, i int) bool {
	if strings.HasPrefix(s[i:], "**") || strings.HasPrefix(s[i:], "__") {
		i += 2
	}
	rest := s[skipBlanks(s, i):]
	for _, roles := range [][]string{aiRoles, humanRoles, otherRoles} {
		for _, r := range roles {
			if hasFoldPrefix(rest, r) {
				return true
			}
		}
	}
	return false
}

// hasFoldPrefix reports whether s starts with prefix under simple case
// folding (strings.EqualFold's, which is the (?i) of Go's patterns).
func hasFoldPrefix(s, prefix string) bool {
	i := 0
	for range utf8.RuneCountInString(prefix) {
		if i >= len(s) {
			return false
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return strings.EqualFold(s[:i], prefix)
}

// roleHead is the role of a line that is a heading of one role name alone
// ("## User"), as roleHeadPattern captures it. The pattern's runs cannot
// overlap (blanks, then one to six "#", then blanks, the name, blanks), so
// each is taken whole; the name compares as the pattern's (?i) does,
// strings.EqualFold folding as Go's patterns fold.
func roleHead(line string) (string, bool) {
	s := strings.TrimLeft(line, " \t")
	n := len(s) - len(strings.TrimLeft(s, "#"))
	if n < 1 || n > 6 {
		return "", false
	}
	name := strings.TrimRight(strings.TrimLeft(s[n:], " \t"), " \t")
	for _, roles := range [][]string{aiRoles, humanRoles, otherRoles} {
		for _, r := range roles {
			if strings.EqualFold(name, r) {
				return name, true
			}
		}
	}
	return "", false
}

// IsTranscript reports whether s reads as a chat transcript: at least one
// line opens a human turn ("User:", "Human:", "You said:", "用户：") and at
// least one line opens an AI turn ("Assistant:", "AI:", "ChatGPT:", "助手：").
//
// Why this threshold: the reference implementation refuses any string with a
// single line starting "User:", which also refuses a fact such as
// "User: maria" or "System: Ubuntu\nUser: root". A conversation needs two
// parties, and a transcript worth refusing has a model speaking in it; two
// lines of the same role, or a human role with "System:", are notes, not a
// conversation. "Q:"/"A:" and "Customer:"/"Agent:" are not roles here: FAQ
// notes and support-ticket summaries are ordinary passport content.
//
// Object also finds a conversation spread over an array, one turn per
// element, as strings or as chat-API message objects ({"role", "content"}).
func IsTranscript(s string) bool {
	_, ok := transcriptStart(s)
	return ok
}

// transcriptStart returns the first role line of a transcript in s.
func transcriptStart(s string) (string, bool) {
	if !strings.ContainsAny(s, ":：#") {
		return "", false
	}
	var human, ai bool
	first := ""
	for len(s) > 0 {
		line := s
		if i := strings.IndexAny(s, "\n\r"); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		switch lineSide(line) {
		case sideHuman:
			human = true
		case sideAI:
			ai = true
		case sideOther:
		default:
			continue
		}
		if first == "" {
			first = line
		}
		if human && ai {
			return first, true
		}
	}
	return "", false
}
