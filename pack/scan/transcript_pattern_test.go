package scan

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

var roleTokens = []string{
	"User", "user", "ASSISTANT", "ai", "AI助手", "助手", "用户", "gpt-4o", "GPT4", "gpt-", "ſyſtem", "uſer", "you", "said", "说",
	":", "：", " ", "\t", "\n", "**", "__", "*", "_", "#", "##", "> ", "- ", "•", "|", "1.", "12)", "1234.", "[",
	"]", "[12:30]", "[" + strings.Repeat("x", 29), "[" + strings.Repeat("x", 30), "[" + strings.Repeat("é", 31),
	strings.Repeat("é", 10), "x", "\xff", "Q",
}

func randomRoleLine(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.Intn(9) {
		b.WriteString(roleTokens[r.Intn(len(roleTokens))])
	}
	return b.String()
}

// patternSide is lineSide as roleLinePattern itself says it.
func patternSide(re *regexp.Regexp, line string) side {
	if len(line) > 200 {
		line = line[:200]
	}
	if m := re.FindStringSubmatch(line); m != nil {
		return roleSide(m[1])
	}
	if m := roleHeadRe.FindStringSubmatch(line); m != nil {
		return roleSide(m[1])
	}
	return sideNone
}

func checkRoleLine(t *testing.T, re *regexp.Regexp, line string) {
	t.Helper()
	if got, want := lineSide(line), patternSide(re, line); got != want {
		t.Fatalf("%q: lineSide %v, the pattern %v", line, got, want)
	}
}

// lineSide with the bracket counted in code says what roleLinePattern says:
// at 29, 30 and 31 characters in brackets (counted in characters), with
// emphasis, numbering and folded letters, and in random lines.
func TestRoleLineMatchesItsPattern(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(roleLinePattern)
	for _, s := range []string{
		"User: hi", "[12:30] User: hi", "[" + strings.Repeat("x", 30) + "] Assistant: ok",
		"[" + strings.Repeat("x", 31) + "] Assistant: ok", "[" + strings.Repeat("é", 30) + "] AI: ok",
		"[" + strings.Repeat("é", 31) + "] AI: ok", "1. [a] **User:** x", "[a][b] User:", "[] User:",
		"User: [" + strings.Repeat("x", 40) + "]", "## User", "ſyſtem: x", "[x\n] User:", "> - 12) [me] ChatGPT said:",
	} {
		checkRoleLine(t, re, s)
	}
	r := rand.New(rand.NewSource(20))
	for range 20000 {
		checkRoleLine(t, re, randomRoleLine(r))
	}
}

func FuzzRoleLine(f *testing.F) {
	r := rand.New(rand.NewSource(1))
	for range 20 {
		f.Add(randomRoleLine(r))
	}
	re := regexp.MustCompile(roleLinePattern)
	f.Fuzz(func(t *testing.T, line string) { checkRoleLine(t, re, line) })
}
