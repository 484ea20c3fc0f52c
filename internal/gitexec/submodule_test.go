package gitexec

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A submodule is a repository of its own inside the acts clone, with its
// own config in .git/modules/<name>/config, which an agent who can write
// the clone can write too, and which the probe of the outer repository
// never lists. git goes into it on its own: a fetch fetches it on demand
// (with its remote's upload-pack), a merge or checkout with
// submodule.recurse checks it out (with its filters), and status asks it
// whether it is modified (its clean filters). The remote, for its part,
// can push the commit that moves the submodule (D20).

// submoduleWorld is a clone, dir, of remote with a submodule sub (whose
// remote is subRemote) checked out, a newer commit of the submodule pushed
// to remote from elsewhere (so fetch and merge have a submodule to move),
// and the submodule's config naming the marker program as its filter,
// which every file of it uses, and as its remote's upload-pack.
func submoduleWorld(t *testing.T) (dir, evil, marker string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	tmp := t.TempDir()
	marker = filepath.Join(tmp, "ran")
	evil = filepath.Join(tmp, "evil.sh")
	write(t, evil, "#!/bin/sh\ntouch '"+marker+"'\ncat\n")
	// A remote program that passed its input through would wait for ever.
	evilRemote := filepath.Join(tmp, "evil-remote.sh")
	write(t, evilRemote, "#!/bin/sh\ntouch '"+marker+"'\nexit 1\n")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "protocol.file.allow=always"}, args...)...)
		cmd.Dir = dir
		// The clone's submodule steps run git in the submodule, which
		// takes protocol.file.allow only from the environment.
		cmd.Env = append(os.Environ(), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=protocol.file.allow", "GIT_CONFIG_VALUE_0=always")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	subRemote, remote := filepath.Join(tmp, "sub.git"), filepath.Join(tmp, "remote.git")
	run(tmp, "init", "-q", "--bare", subRemote)
	run(tmp, "init", "-q", "--bare", remote)
	run(tmp, "clone", "-q", subRemote, "subw")
	write(t, filepath.Join(tmp, "subw", "f.txt"), "one\n")
	write(t, filepath.Join(tmp, "subw", ".gitattributes"), "* filter=x\n")
	run(filepath.Join(tmp, "subw"), "add", ".")
	run(filepath.Join(tmp, "subw"), "commit", "-q", "-m", "s1")
	run(filepath.Join(tmp, "subw"), "push", "-q", "origin", "HEAD:main")
	dir = filepath.Join(tmp, "dir")
	run(tmp, "clone", "-q", remote, dir)
	write(t, filepath.Join(dir, "STATE.md"), "# state\n")
	run(dir, "add", "STATE.md")
	run(dir, "submodule", "add", "-q", subRemote, "sub")
	run(dir, "commit", "-q", "-m", "one")
	run(dir, "push", "-q", "origin", "HEAD:main")
	run(dir, "branch", "-q", "--set-upstream-to=origin/main")
	// Elsewhere, the submodule moves on and the outer repository records it.
	run(tmp, "clone", "-q", "--recurse-submodules", remote, "other")
	other := filepath.Join(tmp, "other")
	run(filepath.Join(other, "sub"), "checkout", "-q", "main")
	write(t, filepath.Join(other, "sub", "f.txt"), "two\n")
	run(filepath.Join(other, "sub"), "commit", "-q", "-am", "s2")
	run(filepath.Join(other, "sub"), "push", "-q", "origin", "HEAD:main")
	run(other, "add", "sub")
	run(other, "commit", "-q", "-m", "bump")
	run(other, "push", "-q", "origin", "HEAD:main")
	// The agent's part: recursion on, the submodule not ignored, its
	// config naming the program, and a file of it touched so a status
	// must read it through the clean filter.
	gitDir := filepath.Join(dir, ".git")
	cfg(t, gitDir, "submodule.recurse", "true", "fetch.recurseSubmodules", "yes", "push.recurseSubmodules", "on-demand",
		"submodule.sub.ignore", "none", "diff.ignoreSubmodules", "none", "status.submoduleSummary", "true")
	cfg(t, filepath.Join(gitDir, "modules", "sub"), "filter.x.clean", evil, "filter.x.smudge", evil,
		"remote.origin.uploadpack", evilRemote+"; git-upload-pack", "remote.origin.receivepack", evilRemote+"; git-receive-pack")
	write(t, filepath.Join(dir, "sub", "f.txt"), "one\n")
	os.Chtimes(filepath.Join(dir, "sub", "f.txt"), futureTime(), futureTime())
	return dir, evil, marker
}

// The commands tp runs in an acts clone, as it runs them.
var submoduleForms = [][]string{
	{"status", "--porcelain", "--", "STATE.md"},
	{"status", "--porcelain"},
	{"diff", "--cached", "--name-only"},
	{"fetch", "--quiet", "origin"},
	{"merge", "--no-edit", "-q", "origin/main"},
	{"add", "--", "STATE.md"},
	{"commit", "--quiet", "--no-verify", "-m", "msg", "--", "STATE.md"},
	{"push", "origin", "HEAD:refs/heads/main"},
}

func TestSubmoduleRunsNoProgram(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	{
		// Plain git runs the submodule's program for one of the forms.
		dir, _, marker := submoduleWorld(t)
		for _, args := range submoduleForms {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			cmd.Run()
		}
		if !exists(marker) {
			t.Skipf("plain git (%s) ran no program of the submodule's config; nothing to prove", gitVersion())
		}
	}
	for _, args := range submoduleForms {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			dir, _, marker := submoduleWorld(t)
			write(t, filepath.Join(dir, "STATE.md"), "# state\n- [ ] two\n")
			g, err := Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			if args[0] == "push" {
				_, err = g.Push(ctx, args[1], args[2:]...)
			} else {
				_, err = g.Run(ctx, args...)
			}
			if exists(marker) {
				t.Errorf("git %s ran the program the submodule's configuration named (err %v)", strings.Join(args, " "), err)
			}
		})
	}
}

// futureTime is a modification time no index entry has, so git must read
// the file again to know whether it changed.
func futureTime() time.Time { return time.Now().Add(time.Hour) }
