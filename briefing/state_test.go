package briefing

import (
	"strings"
	"testing"
)

// tp open keeps a multi-line state's lines (its tables and code blocks),
// never prints them as one line with literal \n; a cut says how much it
// left out; a credential is redacted (issue 17).
func TestStateKeepsLines(t *testing.T) {
	state := "## Status\n\n| slide | state |\n|---|---|\n| 1 | done |\n\n```\nmake deck\n```"
	md := (&Briefing{PassportID: "TP-AAAA-AAAA", StateVersion: 2, CurrentState: state}).Markdown(0)
	if strings.Contains(md, `\n`) {
		t.Errorf("the state is printed with literal \\n:\n%s", md)
	}
	for _, want := range []string{"| slide | state |\n|---|---|\n| 1 | done |", "```\nmake deck\n```"} {
		if !strings.Contains(md, want) {
			t.Errorf("the state lost its lines (%q):\n%s", want, md)
		}
	}
	long := strings.Repeat("x", stateLimit+50)
	md = (&Briefing{PassportID: "TP-AAAA-AAAA", CurrentState: "a\n" + long}).Markdown(0)
	if !strings.Contains(md, "52 more characters not shown") {
		t.Errorf("a cut state does not say what it left out:\n%s", md)
	}
	md = (&Briefing{PassportID: "TP-AAAA-AAAA", CurrentState: "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG\nnext"}).Markdown(0)
	if strings.Contains(md, "abcdefghijklmnop") || !strings.Contains(md, "not shown") {
		t.Errorf("a credential in the state is printed:\n%s", md)
	}
}
