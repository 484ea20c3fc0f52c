package gitexec

import (
	"slices"
	"strings"
	"testing"
)

// git 2.54 runs hooks named in configuration ([hook "x"] event = post-merge,
// command = …) besides the hooks folder, which core.hooksPath does not
// reach: an agent who writes them into the acts clone's config would have
// its command run by the next merge, commit or push tp makes (D20). Every
// hook the listing names, in any scope but the command line (hooks are
// off, the user's too, as the folder's are), is switched off and loses its
// events; and every hook event is switched off as a whole, for the gits
// that know that switch.
func TestConfigHooksAreSwitchedOff(t *testing.T) {
	t.Parallel()
	list := strings.Join([]string{
		"local", "hook.Evil.command\n/tmp/evil",
		"local", "hook.Evil.event\npost-merge",
		"local", "hook.other.event\nreference-transaction",
		"global", "hook.mine.command\nlint",
		"command", "hook.cmdline.command\nok",
	}, "\x00") + "\x00"
	got := neutralise([]byte(list))
	for _, name := range []string{"Evil", "other", "mine"} {
		for _, want := range [][2]string{{"hook." + name + ".event", ""}, {"hook." + name + ".enabled", "false"}} {
			if !slices.Contains(got, want) {
				t.Errorf("neutralise: no %q in %q", want, got)
			}
		}
	}
	if slices.Contains(got, [2]string{"hook.cmdline.enabled", "false"}) {
		t.Errorf("a hook named on tp's own command line was switched off")
	}
	for _, ev := range []string{"pre-commit", "post-commit", "post-merge", "post-checkout", "pre-push", "reference-transaction", "post-rewrite", "pre-auto-gc", "post-index-change"} {
		if !slices.Contains(fixed, [2]string{"hook." + ev + ".enabled", "false"}) {
			t.Errorf("fixed does not switch off the %s event", ev)
		}
	}
}
