package briefing

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tp-dev/tp/internal/ojson"
)

func state(t *testing.T, js string) *ojson.Value {
	t.Helper()
	v, _, err := ojson.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSorting(t *testing.T) {
	v := state(t, `{"id":"TP-A","facts":[
		{"claim":"v","scope":"org","verified":true},
		{"claim":"sealed","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"m"},
		{"claim":"odd","verified":true,"needs_reverify":true},
		{"claim":"never","scope":"machine","verified":false}],
	  "asks":[{"id":"a1","what":"w","accept":"x","status":"open","asked_at":"t"},{"id":"a2","what":"w2","accept":"y"},{"id":"a3","what":"w3","accept":"z","status":"answered"}],
	  "landing_checks":[{"id":"c1","check":"k","required":true},{"id":"c2","check":"k2","required":false},{"id":"c3","check":"k3","required":true,"status":"failed"}]}`)
	b := Of(v, 7)
	if b.StateVersion != 7 || b.RootID != "TP-A" {
		t.Errorf("version %d root %s", b.StateVersion, b.RootID)
	}
	if len(b.VerifiedFacts) != 1 || b.VerifiedFacts[0].Claim != "v" {
		t.Errorf("verified %+v", b.VerifiedFacts)
	}
	// a fact wearing both ✓ and needs_reverify counts as unproven
	if len(b.UnverifiedFacts) != 3 || !b.UnverifiedFacts[0].Sealed || !b.UnverifiedFacts[1].Sealed || b.UnverifiedFacts[2].Sealed {
		t.Errorf("unverified %+v", b.UnverifiedFacts)
	}
	if len(b.OpenAsks) != 2 || !b.OpenAsks[0].Sent || b.OpenAsks[1].Sent {
		t.Errorf("asks %+v", b.OpenAsks)
	}
	// a failed required check is attested, not pending; optional ones are not required
	if len(b.PendingChecks) != 1 || b.PendingChecks[0].ID != "c1" {
		t.Errorf("checks %+v", b.PendingChecks)
	}
}

// TestMaxBytes: the bound holds, and every cut says so.
func TestMaxBytes(t *testing.T) {
	var facts, steps []string
	for i := 1; i <= 50; i++ {
		facts = append(facts, fmt.Sprintf(`{"claim":"fact %d 事实 that is long enough to need cutting somewhere","scope":"universal","verified":true}`, i))
		steps = append(steps, fmt.Sprintf(`"step %d"`, i))
	}
	v := state(t, `{"id":"TP-A","goal":"g","facts":[`+strings.Join(facts, ",")+`],"next_steps":[`+strings.Join(steps, ",")+`]}`)
	b := Of(v, 1)
	full := b.Markdown(0)
	if strings.Contains(full, "not shown") {
		t.Fatal("unbounded output announces a cut")
	}
	for _, max := range []int{200, 700, 1500, 3000} {
		if len(full) <= max {
			t.Fatalf("the test passport fits in %d bytes; it proves nothing", max)
		}
		out := b.Markdown(max)
		if len(out) > max {
			t.Errorf("max %d: %d bytes", max, len(out))
		}
		if !utf8.ValidString(out) {
			t.Errorf("max %d: cut inside a rune", max)
		}
		if !strings.Contains(out, "not shown") && !strings.Contains(out, "cut at") {
			t.Errorf("max %d: cut without saying so:\n%s", max, out)
		}
	}
	out := b.Markdown(3000)
	if !strings.Contains(out, "fact 50 ") || strings.Contains(out, "✓ fact 1 ") {
		t.Error("facts kept the oldest, not the newest")
	}
	if !strings.Contains(out, "1. step 1\n") {
		t.Error("next steps lost their first items")
	}
}

func TestPrompt(t *testing.T) {
	for _, l := range []string{"", "en", "zh"} {
		p, err := Prompt("TP-A", l)
		if err != nil || !strings.Contains(p, "TP-A") {
			t.Errorf("%q: %v %q", l, err, p)
		}
	}
	if _, err := Prompt("TP-A", "de"); err == nil {
		t.Error("an unknown language was accepted")
	}
	if p, _ := Prompt("TP-\x1b[2J", "en"); strings.Contains(p, "\x1b") {
		t.Error("the id reached the prompt unsanitised")
	}
}

// TestPromptNamesItsCommands: tp's prompt names tp's commands; the
// drop-in's names the reference's syntax under the name it was called by,
// in both languages, and never tp's.
func TestPromptNamesItsCommands(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cmds      func(string) Commands
		want, not []string
	}{
		{TPCommands, []string{"`tp open TP-A`", "`tp checkpoint TP-A --expected-version N`"}, []string{"--file"}},
		{func(id string) Commands { return DropInCommands("task-passport", id) },
			[]string{"`task-passport open TP-A`", "`task-passport checkpoint --file state.json --expected-version N`"}, []string{"`tp "}},
		{func(id string) Commands { return DropInCommands("taskpack", id) },
			[]string{"`taskpack open TP-A`", "`taskpack checkpoint --file state.json --expected-version N`"}, []string{"`tp ", "task-passport"}},
	} {
		for _, lang := range []string{"en", "zh"} {
			p, err := PromptWith("TP-A", lang, c.cmds)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(p, w) {
					t.Errorf("%s: %q does not name %s", lang, p, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(p, n) {
					t.Errorf("%s: %q names %s", lang, p, n)
				}
			}
		}
	}
}
