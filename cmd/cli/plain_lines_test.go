package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A how of several lines is printed line by line by the plan, each line
// quoted on its own, its last line included (issue 17: plain output keeps
// line structure; nothing hidden).
func TestPlanMultiLineHowKeepsLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	how := strings.Repeat(`echo step\n`, 40) + `rm -rf ~/important\u200b`
	obj := `{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-09-03T14:20:00Z",
	 "origin":{"actor":"bob","machine":"laptop","harness":"x"},
	 "lineage":{"root_id":"TP-AAAA-AAAA","from_version":1,"chain":["TP-AAAA-AAAA@1"]},"note":"",
	 "passport":{"id":"TP-AAAA-AAAA","title":"T","goal":"g","current_state":"s"},
	 "asks":[],
	 "landing_checks":[{"id":"c1","check":"x","how":"` + how + `","required":true}]}`
	path := filepath.Join(dir, "p.taskpack.json")
	os.WriteFile(path, []byte(`{"taskpack":"0.1","encoding":"flat","note_to_reader":"","passport":`+obj+`,"attachments":[]}`), 0o644)
	env := map[string]string{"TP_MACHINE": "m", "TP_ACTOR": "a", "HOME": dir}
	out := tpOK(t, env, "--store", filepath.Join(dir, "s"), "land", path, "--plain", "--dry-run")
	if strings.Contains(out, `echo step\necho step`) {
		t.Errorf("the how is printed on one line:\n%s", out)
	}
	for _, want := range []string{"how, suggested by bob@laptop (41 lines):", "        │ echo step\n        │ echo step\n", "        │ rm -rf ~/important⟨U+200B⟩\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
