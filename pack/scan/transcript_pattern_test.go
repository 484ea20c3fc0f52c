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

// patternSide is lineSide as roleLinePattern and roleHeadPattern say it.
func patternSide(re, head *regexp.Regexp, line string) side {
	if len(line) > 200 {
		line = line[:200]
	}
	if m := re.FindStringSubmatch(line); m != nil {
		return roleSide(m[1])
	}
	if m := head.FindStringSubmatch(line); m != nil {
		return roleSide(m[1])
	}
	return sideNone
}

func checkRoleLine(t *testing.T, re, head *regexp.Regexp, line string) {
	t.Helper()
	if got, want := lineSide(line), patternSide(re, head, line); got != want {
		t.Fatalf("%q: lineSide %v, the patterns %v", line, got, want)
	}
	m := head.FindStringSubmatch(line)
	if role, ok := roleHead(line); ok != (m != nil) || ok && role != m[1] {
		t.Fatalf("%q: roleHead %q %v, the pattern %q", line, role, ok, m)
	}
}

// lineSide with the bracket counted in code says what roleLinePattern says,
// and roleHead what roleHeadPattern says: at 29, 30 and 31 characters in
// brackets (counted in characters), at six and seven "#", with emphasis,
// numbering and folded letters, and in random lines.
func TestRoleLineMatchesItsPattern(t *testing.T) {
	t.Parallel()
	re, head := regexp.MustCompile(roleLinePattern), regexp.MustCompile(roleHeadPattern)
	for _, s := range []string{
		"User: hi", "[12:30] User: hi", "[" + strings.Repeat("x", 30) + "] Assistant: ok",
		"[" + strings.Repeat("x", 31) + "] Assistant: ok", "[" + strings.Repeat("é", 30) + "] AI: ok",
		"[" + strings.Repeat("é", 31) + "] AI: ok", "1. [a] **User:** x", "[a][b] User:", "[] User:",
		"User: [" + strings.Repeat("x", 40) + "]", "## User", "# assistant ", "####### User", "###### AI\t", "#User", "## User x",
		" \t## ChatGPT", "## ", "##", "## AI助手", "## ai助手", "## ſyſtem", "## User\n", "ſyſtem: x", "[x\n] User:", "> - 12) [me] ChatGPT said:",
	} {
		checkRoleLine(t, re, head, s)
	}
	r := rand.New(rand.NewSource(20))
	for range 20000 {
		checkRoleLine(t, re, head, randomRoleLine(r))
	}
}

func FuzzRoleLine(f *testing.F) {
	r := rand.New(rand.NewSource(1))
	for range 20 {
		f.Add(randomRoleLine(r))
	}
	re, head := regexp.MustCompile(roleLinePattern), regexp.MustCompile(roleHeadPattern)
	f.Fuzz(func(t *testing.T, line string) { checkRoleLine(t, re, head, line) })
}
