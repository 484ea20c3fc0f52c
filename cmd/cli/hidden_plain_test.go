package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "Nothing hidden" for the plain and JSON views (issue 17): a passport as
// long as an agent can make one (a 200-line how, 50 facts, 40-column
// words, CJK text, a wide table) printed by every command that shows it,
// plain and --json: each piece (a token found nowhere else) is in the
// output, or the output counts what it left out ("… not shown").
func TestNothingHiddenPlain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	os.MkdirAll(store, 0o700)
	var toks []string
	tok := func(s string) string { toks = append(toks, s); return s }
	w40 := strings.Repeat("w", 40)
	var how []string
	for i := 1; i <= 200; i++ {
		how = append(how, "echo "+tok(fmt.Sprintf("HOW%03d", i)))
	}
	var facts, decisions, steps, asks []any
	for i := 1; i <= 50; i++ {
		f := map[string]any{"claim": "fact " + w40 + " " + tok(fmt.Sprintf("FACT%02d", i)), "scope": "universal", "verified": true}
		if i%2 == 1 {
			f["scope"], f["verified"], f["verified_on"] = "machine", false, "laptop"
		}
		// What a fact says of itself beyond its claim is content too.
		switch i % 3 {
		case 0:
			f["evidence"] = "ran " + tok(fmt.Sprintf("EVID%02d", i))
		case 1:
			f["source"] = "from " + tok(fmt.Sprintf("SRC%02d", i))
		}
		if i%4 == 0 {
			f["scope"], f["source_actor"] = "org", "ana "+tok(fmt.Sprintf("ACTOR%02d", i))
		}
		facts = append(facts, f)
	}
	for i := 1; i <= 10; i++ {
		decisions = append(decisions, map[string]any{"what": "decision " + tok(fmt.Sprintf("DEC%02d", i)), "why": "因为 " + tok(fmt.Sprintf("DWHY%02d", i))})
		steps = append(steps, "step "+w40+" "+tok(fmt.Sprintf("STEP%02d", i)))
		asks = append(asks, map[string]any{"id": fmt.Sprintf("a%d", i), "to": "peer", "what": "question " + tok(fmt.Sprintf("ASK%02d", i)),
			"why": "", "accept": "答え " + tok(fmt.Sprintf("ACC%02d", i)), "status": "open", "answer": nil})
	}
	var head, rule, row []string
	for i := 1; i <= 8; i++ {
		head, rule, row = append(head, tok(fmt.Sprintf("COL%d", i))), append(rule, "---"), append(row, "中文 "+tok(fmt.Sprintf("CELL%d", i)))
	}
	state := "中文状态 " + tok("STATECJK") + "\n\n| " + strings.Join(head, " | ") + " |\n| " + strings.Join(rule, " | ") + " |\n| " + strings.Join(row, " | ") + " |\n\nend " + tok("STATEEND")
	p := map[string]any{"id": "TP-LONG-0001", "title": "Long " + tok("TITLETOK"), "goal": "Goal " + w40 + " " + tok("GOALTOK"), "version": 3,
		"updated_at": "2026-09-02T00:00:00Z", "current_state": state, "facts": facts, "decisions": decisions, "next_steps": steps, "asks": asks,
		"artifacts": []any{"out/" + tok("ARTTOK") + ".png"},
		"landing_checks": []any{
			map[string]any{"id": "c1", "check": "long how " + tok("CHKONE"), "how": strings.Join(how, "\n"), "required": true, "status": "pending"},
			map[string]any{"id": "c2", "check": "漢字 " + tok("CHKCJK"), "how": "", "required": true, "status": "failed", "checked_by": "ann@laptop"},
		}}
	b, _ := json.Marshal(p)
	os.WriteFile(filepath.Join(store, "TP-LONG-0001.json"), b, 0o600)
	env := map[string]string{"TP_MACHINE": "m", "TP_ACTOR": "a", "HOME": dir}
	pick := func(prefixes ...string) []string {
		var out []string
		for _, t := range toks {
			for _, p := range prefixes {
				if strings.HasPrefix(t, p) {
					out = append(out, t)
				}
			}
		}
		return out
	}
	everything := pick("")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"show", "TP-LONG-0001", "--plain"}, everything},
		{[]string{"show", "TP-LONG-0001", "--json"}, everything},
		{[]string{"open", "TP-LONG-0001"}, pick("TITLE", "GOAL", "STATE", "COL", "CELL", "FACT", "EVID", "SRC", "ACTOR", "DEC", "DWHY", "STEP", "ASK", "ACC", "ART", "CHK")},
		{[]string{"open", "TP-LONG-0001", "--json"}, everything},
		{[]string{"checks", "TP-LONG-0001", "--plain"}, pick("HOW", "CHK")},
		{[]string{"checks", "TP-LONG-0001", "--json"}, pick("HOW", "CHK")},
		{[]string{"asks", "TP-LONG-0001", "--plain"}, pick("ASK", "ACC")},
		{[]string{"asks", "TP-LONG-0001", "--json"}, pick("ASK", "ACC")},
		{[]string{"list", "--plain"}, pick("TITLE")},
		{[]string{"--plain"}, pick("TITLE")},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out := tpOK(t, env, append([]string{"--store", store}, tc.args...)...)
			counted := strings.Contains(out, "not shown")
			var missing []string
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					missing = append(missing, w)
				}
			}
			if len(missing) > 0 && counted {
				t.Logf("%d pieces not printed, counted: %v", len(missing), missing)
			}
			if len(missing) > 0 && !counted {
				t.Errorf("%d pieces neither printed nor counted: %v\n%s", len(missing), missing, out)
			}
		})
	}
}
