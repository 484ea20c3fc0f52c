package gitexec

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
// which every file of it uses, and as its remote's upload-pack. It is a
// copy of one template built once (submoduleTemplate), its absolute paths
// moved to the copy's folder: the same repositories as building them
// again, without some thirty git processes, two of them recursive clones,
// per world.
func submoduleWorld(t *testing.T) (dir, evil, marker string) {
	t.Helper()
	tpl := submoduleTemplate(t)
	tmp := t.TempDir()
	for _, name := range []string{"dir", "remote.git", "sub.git"} {
		if err := os.CopyFS(filepath.Join(tmp, name), os.DirFS(filepath.Join(tpl, name))); err != nil {
			t.Fatal(err)
		}
	}
	// Every absolute path the repositories hold is in these two files
	// (the superproject's remote and submodule URL, the submodule's
	// remote, the programs); .gitmodules names the submodule relatively.
	dir = filepath.Join(tmp, "dir")
	for _, conf := range []string{filepath.Join(dir, ".git", "config"), filepath.Join(dir, ".git", "modules", "sub", "config")} {
		b, err := os.ReadFile(conf)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tpl) {
			t.Fatalf("%s does not name the template's folder %s:\n%s", conf, tpl, b)
		}
		if err := os.WriteFile(conf, []byte(strings.ReplaceAll(string(b), tpl, tmp)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	evil, marker = submodulePrograms(t, tmp)
	// A file of the submodule touched, so a status must read it through
	// the clean filter.
	write(t, filepath.Join(dir, "sub", "f.txt"), "one\n")
	os.Chtimes(filepath.Join(dir, "sub", "f.txt"), futureTime(), futureTime())
	return dir, evil, marker
}

// submodulePrograms writes the marker programs into tmp: evil, a filter
// that creates marker and passes its input through, and evil-remote.sh,
// an upload-pack or receive-pack that creates marker and fails (one that
// passed its input through would wait for ever).
func submodulePrograms(t *testing.T, tmp string) (evil, marker string) {
	t.Helper()
	marker = filepath.Join(tmp, "ran")
	evil = filepath.Join(tmp, "evil.sh")
	write(t, evil, "#!/bin/sh\ntouch '"+marker+"'\ncat\n")
	write(t, filepath.Join(tmp, "evil-remote.sh"), "#!/bin/sh\ntouch '"+marker+"'\nexit 1\n")
	return evil, marker
}

// subTemplate is submoduleWorld's template, built once with plain git in a
// folder under TestMain's home (removed with it).
var subTemplate struct {
	once sync.Once
	root string
	err  error
}

func submoduleTemplate(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	subTemplate.once.Do(func() { subTemplate.root, subTemplate.err = buildSubmoduleTemplate() })
	if subTemplate.err != nil {
		t.Fatal(subTemplate.err)
	}
	return subTemplate.root
}

func buildSubmoduleTemplate() (string, error) {
	tmp, err := os.MkdirTemp(os.Getenv("HOME"), "submodule-")
	if err != nil {
		return "", err
	}
	var failed error
	run := func(dir string, args ...string) {
		if failed != nil {
			return
		}
		cmd := exec.Command("git", append([]string{"-c", "protocol.file.allow=always"}, args...)...)
		cmd.Dir = dir
		// The clone's submodule steps run git in the submodule, which
		// takes protocol.file.allow only from the environment.
		cmd.Env = append(os.Environ(), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=protocol.file.allow", "GIT_CONFIG_VALUE_0=always")
		if out, err := cmd.CombinedOutput(); err != nil {
			failed = fmt.Errorf("git %v: %v: %s", args, err, out)
		}
	}
	put := func(path, s string) {
		if failed == nil {
			failed = os.WriteFile(path, []byte(s), 0o644)
		}
	}
	subRemote, remote := filepath.Join(tmp, "sub.git"), filepath.Join(tmp, "remote.git")
	run(tmp, "init", "-q", "--bare", subRemote)
	run(tmp, "init", "-q", "--bare", remote)
	run(tmp, "clone", "-q", subRemote, "subw")
	put(filepath.Join(tmp, "subw", "f.txt"), "one\n")
	put(filepath.Join(tmp, "subw", ".gitattributes"), "* filter=x\n")
	run(filepath.Join(tmp, "subw"), "add", ".")
	run(filepath.Join(tmp, "subw"), "commit", "-q", "-m", "s1")
	run(filepath.Join(tmp, "subw"), "push", "-q", "origin", "HEAD:main")
	dir := filepath.Join(tmp, "dir")
	run(tmp, "clone", "-q", remote, dir)
	put(filepath.Join(dir, "STATE.md"), "# state\n")
	run(dir, "add", "STATE.md")
	// Relative to the superproject's remote: .gitmodules, which is
	// committed, names no folder of the template.
	run(dir, "submodule", "add", "-q", "../sub.git", "sub")
	run(dir, "commit", "-q", "-m", "one")
	run(dir, "push", "-q", "origin", "HEAD:main")
	run(dir, "branch", "-q", "--set-upstream-to=origin/main")
	// Elsewhere, the submodule moves on and the outer repository records it.
	run(tmp, "clone", "-q", "--recurse-submodules", remote, "other")
	other := filepath.Join(tmp, "other")
	run(filepath.Join(other, "sub"), "checkout", "-q", "main")
	put(filepath.Join(other, "sub", "f.txt"), "two\n")
	run(filepath.Join(other, "sub"), "commit", "-q", "-am", "s2")
	run(filepath.Join(other, "sub"), "push", "-q", "origin", "HEAD:main")
	run(other, "add", "sub")
	run(other, "commit", "-q", "-m", "bump")
	run(other, "push", "-q", "origin", "HEAD:main")
	// The agent's part: recursion on, the submodule not ignored, and its
	// config naming the programs.
	gitDir := filepath.Join(dir, ".git")
	for _, kv := range [][3]string{
		{gitDir, "submodule.recurse", "true"}, {gitDir, "fetch.recurseSubmodules", "yes"},
		{gitDir, "push.recurseSubmodules", "on-demand"}, {gitDir, "submodule.sub.ignore", "none"},
		{gitDir, "diff.ignoreSubmodules", "none"}, {gitDir, "status.submoduleSummary", "true"},
		{filepath.Join(gitDir, "modules", "sub"), "filter.x.clean", filepath.Join(tmp, "evil.sh")},
		{filepath.Join(gitDir, "modules", "sub"), "filter.x.smudge", filepath.Join(tmp, "evil.sh")},
		{filepath.Join(gitDir, "modules", "sub"), "remote.origin.uploadpack", filepath.Join(tmp, "evil-remote.sh") + "; git-upload-pack"},
		{filepath.Join(gitDir, "modules", "sub"), "remote.origin.receivepack", filepath.Join(tmp, "evil-remote.sh") + "; git-receive-pack"},
	} {
		run("", "--git-dir="+kv[0], "config", "--add", kv[1], kv[2])
	}
	return tmp, failed
}

// The commands tp runs in an acts clone, as it runs them.
var submoduleForms = [][]string{
	{"status", "--porcelain", "--", "STATE.md"},
	{"status", "--porcelain"},
	{"status", "--porcelain=v2", "-z", "--no-renames", "--untracked-files=all", "--ignored", "--branch", "--ahead-behind", "--", "."},
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
