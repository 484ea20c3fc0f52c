package scan

import (
	"regexp"
	"strings"
	"testing"
)

// TestRoleMayStartKeepsEveryMatch: the check that spares running (and
// compiling) roleLineRe never turns a line the pattern matches into one it
// does not: each place the head lets a role name start, with every kind of
// head, folded letters, CJK names and broken UTF-8; and the lines of an
// ordinary pack do not run the pattern at all.
func TestRoleMayStartKeepsEveryMatch(t *testing.T) {
	t.Parallel()
	re, head := regexp.MustCompile(roleLinePattern), regexp.MustCompile(roleHeadPattern)
	for _, s := range []string{
		"User:", " \t\f\r\n> * # _ - • | User:", "\f\rAI: x", "\vUser: x", "•User：", "|>Assistant said:",
		"1.User:", "123)  user:", "1234. User:", "0) [x] **AI**:", "12. **[x]** User:", "12.\t__User__ said:",
		"[12:30] User:", "[12:30]User:", "[]User:", "[x]]User:", "[[x] User:", "> [x] 1. User:", "1. > User:",
		"** \t user:", "***User:", "_ _ _User:", "__ User:", "**  **User:", "KEY:", "\u212aey:",
		"uſer:", "UſER: x", "ſYſTEM:", "ASSISTANT:", "gpt-4o:", "GPT4:", "gpt:", "用户：", "ai助手: x", "ユーザー:",
		"\xffUser:", "User\xff:", "[\xff] User:", "9\xff. User:", strings.Repeat(" ", 199) + "User:",
	} {
		checkRoleLine(t, re, head, s)
	}
	for _, s := range []string{
		"The board wants revenue by region, not by product",
		"Decks use the 2026 brand template, 16:9",
		"Note: the chart waits for the September close",
		"Re: the deck",
		"main: a function",
	} {
		checkRoleLine(t, re, head, s)
		if roleMayStart(s) {
			t.Errorf("%q would run the role pattern", s)
		}
	}
}

// TestRoleAltIsTheLists: the patterns' alternation, written out as a
// constant, names the roles lineSide sorts, in the lists' order.
func TestRoleAltIsTheLists(t *testing.T) {
	t.Parallel()
	want := strings.Join(append(append(append([]string{}, aiRoles...), humanRoles...), otherRoles...), "|")
	if roleAlt != want {
		t.Fatalf("roleAlt\n%s\nthe lists\n%s", roleAlt, want)
	}
}
