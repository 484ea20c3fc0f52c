package landing

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/internal/uitest"
)

func TestPackFilesRun(t *testing.T) {
	lug := []common.LuggageFile{{Name: "verify.sh"}, {Name: "scripts/check.py"}, {Name: "Makefile"}, {Name: "package.json"}, {Name: "notes.md"}}
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"sh verify.sh", []string{"verify.sh"}},
		{"./verify.sh && echo ok", []string{"verify.sh"}},
		{"bash -c './verify.sh'", []string{"verify.sh"}},
		{"python3 scripts/check.py --fast", []string{"scripts/check.py"}},
		{"python3 ./scripts/../scripts/check.py", []string{"scripts/check.py"}},
		{"make test", []string{"Makefile (read by make)"}},
		{"/usr/bin/make -C . test", []string{"Makefile (read by make)"}},
		{"npm test; sh verify.sh", []string{"package.json (read by npm)", "verify.sh"}},
		{"cargo test", nil}, // no Cargo.toml in the pack
		{"python3 --version", nil},
		{"cat notes.md", []string{"notes.md"}},
		{"echo verify.shx", nil},
	} {
		if got := packFilesRun(tc.cmd, lug); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("packFilesRun(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// D12: a command that runs a file of the pack says so in its confirmation,
// since that file's content is the sender's and not on screen; one that
// runs nothing of the pack says nothing.
func TestConfirmSaysWhatItRunsFromThePack(t *testing.T) {
	for _, tc := range []struct {
		how  string
		warn string
	}{
		{"sh ./notes.md", "It runs what came in the pack: notes.md."},
		{"python3 --version", ""},
	} {
		p := uitest.SamplePlan()
		p.Checks[0].How = tc.how
		d := newLandingApp(t, &fakeLander{plan: p}, t.TempDir())
		d.Keys("tab", "r")
		v := strings.Join(strings.Fields(d.View()), " ")
		if tc.warn == "" && strings.Contains(v, "It runs what came in the pack") {
			t.Errorf("how %q: a warning for a command that runs nothing of the pack:\n%s", tc.how, d.View())
		}
		if tc.warn != "" && !strings.Contains(v, tc.warn) {
			t.Errorf("how %q: no %q:\n%s", tc.how, tc.warn, d.View())
		}
	}
}
