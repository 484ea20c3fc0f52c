package gitexec

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
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

// A push to a repository on this disk: hooks that repository's own
// configuration names (git 2.54 has no per-event switch, only the
// per-hook one) are switched off by name on the receive-pack's command
// line, whatever the names hold, quoted for the shell git runs it with.
func TestReceiveHooksOffNamesTheRemotesHooks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	odd := "$(touch " + filepath.Join(w.tmp, "ran-by-quote") + ") 'a=b\""
	cfg(t, w.remote, "hook.evil.command", w.evil, "hook.evil.event", "pre-receive",
		"hook."+odd+".command", w.evil, "hook."+odd+".event", "post-receive")
	ctx := context.Background()
	g, err := Open(ctx, w.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, url := range []string{w.remote, "file://" + w.remote, strings.TrimSuffix(w.remote, ".git")} {
		pre := g.receiveHooksOff(ctx, []string{url})
		out, err := exec.Command("sh", "-c", pre+"env").Output()
		if err != nil {
			t.Fatal(err)
		}
		if exists(filepath.Join(w.tmp, "ran-by-quote")) {
			t.Fatalf("the shell ran a hook's name: %s", pre)
		}
		got := map[string]string{}
		for _, kv := range strings.Split(string(out), "\n") {
			if k, v, ok := strings.Cut(kv, "="); ok && (strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") || k == "GIT_CONFIG_COUNT") {
				got[k] = v
			}
		}
		var pairs [][2]string
		for i := 0; i < (len(got)-1)/2; i++ {
			pairs = append(pairs, [2]string{got[fmt.Sprintf("GIT_CONFIG_KEY_%d", i)], got[fmt.Sprintf("GIT_CONFIG_VALUE_%d", i)]})
		}
		for _, name := range []string{"evil", odd} {
			for _, want := range [][2]string{{"hook." + name + ".event", ""}, {"hook." + name + ".enabled", "false"}} {
				if !slices.Contains(pairs, want) {
					t.Errorf("%s: no %q in %q (from %s)", url, want, pairs, pre)
				}
			}
		}
		if got["GIT_CONFIG_COUNT"] != fmt.Sprint(len(pairs)) {
			t.Errorf("%s: GIT_CONFIG_COUNT %q for %d pairs", url, got["GIT_CONFIG_COUNT"], len(pairs))
		}
	}
	if pre := g.receiveHooksOff(ctx, []string{filepath.Join(w.tmp, "none")}); pre != "" {
		t.Errorf("no repository: %q", pre)
	}
}
