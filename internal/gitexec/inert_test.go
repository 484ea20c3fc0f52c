package gitexec

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// inertForms are the queries tp's callers make that skip the probe
// (actsession's OpenRepo, merge and push, the identity and signing-key
// look-ups), as they make them.
var inertForms = [][]string{
	{"rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"},
	{"rev-parse", "--verify", "--quiet", "HEAD"},
	{"rev-parse", "HEAD", "@{upstream}"},
	{"symbolic-ref", "--quiet", "--short", "HEAD"},
	{"config", "--get", "branch.main.remote"},
	{"config", "--get", "branch.main.merge"},
	{"config", "--null", "--get-regexp", `^(branch\..*\.(remote|merge)|user\.email)$`},
	{"config", "user.email"},
	{"config", "user.name"},
	{"config", "--global", "--get", "user.signingkey"},
	{"remote", "get-url", "origin"},
	{"remote", "get-url", "--push", "--all", "origin"},
}

// arm makes w's clone name the marker program through every key git runs
// a program from (each subsection key with a driver the attributes select,
// every hook, the program keys without a subsection, a remote helper, and
// the same again through include.path), with a file changed since it was
// staged, so that content-reading commands meet a filter.
func arm(t *testing.T, w *world) {
	t.Helper()
	gitDir := filepath.Join(w.dir, ".git")
	for _, h := range []string{"pre-commit", "commit-msg", "post-commit", "post-checkout", "post-merge", "pre-push",
		"reference-transaction", "post-index-change", "post-rewrite", "pre-auto-gc", "fsmonitor-watchman"} {
		write(t, filepath.Join(gitDir, "hooks", h), "#!/bin/sh\ntouch '"+w.marker+"'\n")
	}
	write(t, filepath.Join(w.dir, ".gitattributes"), "* filter=x diff=x merge=x\n")
	write(t, filepath.Join(gitDir, "info", "attributes"), "* filter=x diff=x merge=x\n")
	inc := filepath.Join(w.tmp, "inc.cfg")
	write(t, inc, "[filter \"x\"]\n\tprocess = \""+w.evil+"\"\n[core]\n\tpager = \""+w.evil+"\"\n")
	cfg(t, gitDir,
		"filter.x.clean", w.evil, "filter.x.smudge", w.evil, "filter.x.required", "true",
		"diff.x.textconv", w.evil, "diff.x.command", w.evil, "diff.external", w.evil,
		"merge.x.driver", w.evil+" %O %A %B",
		"core.fsmonitor", w.evil, "core.hooksPath", filepath.Join(gitDir, "hooks"),
		"core.askPass", w.evil, "core.editor", w.evil, "sequence.editor", w.evil,
		"core.alternateRefsCommand", w.evil, "core.sshCommand", w.evil, "core.gitProxy", w.evil,
		"credential.helper", "!"+w.evil, "gpg.program", w.evil, "gpg.ssh.program", w.evil,
		"commit.gpgSign", "true", "tag.gpgSign", "true", "log.showSignature", "true",
		"pager.config", w.evil, "pager.rev-parse", w.evil, "pager.rev-list", w.evil,
		"pager.symbolic-ref", w.evil, "pager.remote", w.evil,
		"uploadpack.packObjectsHook", w.evil, "interactive.diffFilter", w.evil,
		"remote.origin.vcs", "evil", "include.path", inc)
	write(t, filepath.Join(w.dir, "STATE.md"), "# changed since staged\n")
}

// Every query that skips the probe starts no program in a repository
// armed through every key, with only the fixed overrides. A command that
// reads content (add) in the same repository, given only those overrides,
// does run one (so the arming works and the probe is what stops it); and
// through Git it is probed and runs none.
func TestInertCommandsRunNoProgram(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	arm(t, w)
	g, err := Open(ctx, w.dir)
	if err != nil {
		t.Fatal(err)
	}
	g.command(ctx, fixed, []string{"add", "STATE.md"}).Run()
	if !exists(w.marker) {
		t.Skipf("git add (%s) with only the fixed overrides runs no program in the armed repository; nothing to prove", gitVersion())
	}

	w = newWorld(t)
	arm(t, w)
	if g, err = Open(ctx, w.dir); err != nil {
		t.Fatal(err)
	}
	probes := 0
	g.onProbe = func() { probes++ }
	for _, args := range inertForms {
		if !inert(args) {
			t.Errorf("%v is not inert", args)
			continue
		}
		out, err := g.Read(ctx, args...)
		if exists(w.marker) {
			t.Fatalf("git %s ran a program the configuration named", strings.Join(args, " "))
		}
		t.Logf("git %s: %q %v", strings.Join(args, " "), out, err)
	}
	if probes != 0 {
		t.Errorf("%d probes for the inert queries, want none", probes)
	}
	if _, err := g.Run(ctx, "add", "STATE.md"); exists(w.marker) || probes != 1 {
		t.Errorf("add through Git: err %v, marker %v, probes %d; want no marker and one probe", err, exists(w.marker), probes)
	}
}

// inert counts only the exact forms: another option, another subcommand,
// a query that uses the work tree, or no subcommand is probed.
func TestInertIsExact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"rev-parse", "--verify", "HEAD"}, true},
		{[]string{"rev-parse", "--is-inside-work-tree"}, false},
		{[]string{"rev-parse", "--show-toplevel"}, false},
		{[]string{"config", "--edit"}, false},
		{[]string{"config", "-e"}, false},
		{[]string{"config", "--list"}, false},
		// rev-list reads commits, which a promisor remote fetches on demand.
		{[]string{"rev-list", "--count", "HEAD..@{upstream}"}, false},
		{[]string{"rev-list", "--left-right", "--count", "@{upstream}...HEAD"}, false},
		{[]string{"remote", "get-url", "origin"}, true},
		{[]string{"remote", "update"}, false},
		{[]string{"remote"}, false},
		{[]string{"symbolic-ref", "HEAD"}, true},
		{[]string{"status", "--porcelain"}, false},
		{[]string{"add", "--all"}, false},
		{[]string{"diff", "--cached", "--name-only"}, false},
		{[]string{"ls-files", "-z"}, false},
		{[]string{"fetch", "origin"}, false},
		{nil, false},
	} {
		if got := inert(tc.args); got != tc.want {
			t.Errorf("inert(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
