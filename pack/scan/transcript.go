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

var (
	roleAlt = strings.Join(append(append(append([]string{}, aiRoles...), humanRoles...), otherRoles...), "|")
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
	roleLineRe   = lazy(roleLineHead + `(?:\[([^\]\n]+)\][ \t]*)?` + roleLineTail)
	roleLineTail = `(?:\*\*|__)?[ \t]*(` + roleAlt + `|gpt-?[0-9][0-9a-z.\-]*)[ \t]*(?:\*\*|__)?[ \t]*(?:said|说)?[ \t]*(?:\*\*|__)?[ \t]*[:：]`
	// roleHeadPattern is a heading that is only a role name; roleHead
	// decides it without compiling it (TestRoleLineMatchesItsPattern).
	roleHeadPattern = `(?i)^[ \t]*#{1,6}[ \t]*(` + roleAlt + `)[ \t]*$`
)

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
	if m := roleLineRe.FindStringSubmatch(line); m != nil && utf8.RuneCountInString(m[1]) <= roleBracketMax {
		return roleSide(m[2])
	}
	if role, ok := roleHead(line); ok {
		return roleSide(role)
	}
	return sideNone
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
