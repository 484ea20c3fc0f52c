package gitexec

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A driver of the user's own global config (a filter, a diff or a merge
// driver: git-lfs installs one for every repository) runs only where a
// file's attributes name it, and in an acts clone the attributes are the
// remote's: a pushed .gitattributes chose which of the user's programs
// ran on content the remote wrote, and git-lfs then read the pushed
// .lfsconfig to learn which server to ask. Each case shows plain git, with
// the user's global config, running the marker through the user's driver,
// then the same operation through Git running nothing (D20).
var userDrivers = []struct {
	name   string
	global string // the user's global config, beside TestMain's; %EVIL% is the marker program
	attrs  string // the .gitattributes the other branch (the remote's) brings
	op     op
	// file is what the remote's branch changes: a new file merges cleanly
	// (and is checked out through the filter), STATE.md conflicts with
	// this clone's own change (and is merged by the merge driver).
	file      string
	conflicts bool
	// here: the attributes are in this clone's work tree already (an
	// earlier merge brought them), where git looks for a merge driver and
	// a diff's; a filter's are read from the commit being checked out.
	here bool
}{
	{"filter.<driver>.smudge", "[filter \"x\"]\n\tsmudge = %EVIL%\n", "*.md filter=x\n", opMerge, "NEW.md", false, false},
	{"filter.<driver>.smudge, required", "[filter \"x\"]\n\tsmudge = %EVIL%\n\trequired = true\n", "*.md filter=x\n", opMerge, "NEW.md", false, false},
	{"filter.<driver>.process", "[filter \"x\"]\n\tprocess = %EVIL%\n", "*.md filter=x\n", opMerge, "NEW.md", false, false},
	{"merge.<driver>.driver", "[merge \"x\"]\n\tdriver = %EVIL% %O %A %B\n", "*.md merge=x\n", opMerge, "STATE.md", true, true},
	{"diff.<driver>.command", "[diff \"x\"]\n\tcommand = %EVIL%\n", "*.md diff=x\n", opDiff, "STATE.md", false, true},
	{"diff.<driver>.textconv", "[diff \"x\"]\n\ttextconv = %EVIL%\n", "*.md diff=x\n", opDiff, "STATE.md", false, true},
}

func TestUserDriversRunOnNoPushedAttributes(t *testing.T) {
	t.Parallel()
	for _, d := range userDrivers {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			setup := func() (*world, []string) {
				w := newWorld(t)
				own, err := os.ReadFile(os.Getenv("GIT_CONFIG_GLOBAL"))
				if err != nil {
					t.Fatal(err)
				}
				global := filepath.Join(w.tmp, "gitconfig")
				write(t, global, string(own)+strings.ReplaceAll(d.global, "%EVIL%", w.evil))
				env := append(os.Environ(), "GIT_CONFIG_GLOBAL="+global)
				remote := os.Environ() // the set-up is the remote's work, without the user's drivers
				// The remote's branch starts before this clone's last commit,
				// which changed STATE.md.
				gitEnv(t, w.dir, remote, "branch", "-q", "other", "HEAD~")
				if d.here {
					write(t, filepath.Join(w.dir, ".gitattributes"), d.attrs)
					gitEnv(t, w.dir, remote, "add", ".gitattributes")
					gitEnv(t, w.dir, remote, "commit", "-q", "-m", "the remote's attributes, merged before")
				}
				if d.op.args[0] == "diff" {
					write(t, filepath.Join(w.dir, d.file), "# state\n- [ ] changed here\n")
				} else {
					// The remote's branch: its attributes and its change.
					gitEnv(t, w.dir, remote, "checkout", "-q", "other")
					write(t, filepath.Join(w.dir, ".gitattributes"), d.attrs)
					write(t, filepath.Join(w.dir, d.file), "# state\n- [ ] other\n")
					gitEnv(t, w.dir, remote, "add", ".gitattributes", d.file)
					gitEnv(t, w.dir, remote, "commit", "-q", "-m", "the remote's")
					gitEnv(t, w.dir, remote, "checkout", "-q", "main")
				}
				os.Remove(w.marker) // the set-up's own checkouts may have run it
				return w, env
			}

			w, env := setup()
			cmd := exec.Command("git", d.op.args...)
			cmd.Dir, cmd.Env, cmd.Stdin = w.dir, env, strings.NewReader("")
			cmd.Run()
			if !exists(w.marker) {
				t.Skipf("plain git %s (%s) runs no driver of the user's for %s; nothing to prove", d.op.args[0], gitVersion(), d.name)
			}

			w, env = setup()
			ctx := context.Background()
			g, err := Open(ctx, w.dir)
			if err != nil {
				t.Fatal(err)
			}
			g.base = baseEnv(env)
			_, err = g.Run(ctx, d.op.args...)
			if exists(w.marker) {
				t.Fatalf("%s: git %s ran the user's driver on attributes the remote pushed", d.name, d.op.args[0])
			}
			// The driver is off, not broken: the merge or diff itself works,
			// a required filter included.
			if err != nil && !d.conflicts {
				t.Fatalf("%s: git %s failed with the driver off: %v", d.name, d.op.args[0], err)
			}
		})
	}
}

func gitEnv(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
}
