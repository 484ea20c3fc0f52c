package gitexec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository whose config names a promisor remote (remote.<name>.promisor,
// or extensions.partialClone) fetches a missing object on demand from any
// command that reads one: rev-list, merge, ls-tree, log. That fetch is a
// child `git fetch` that tp never sees, so the --upload-pack tp gives its
// own fetches is not on its command line: git runs the repository's
// remote.<name>.uploadpack on this machine for a remote on this disk, and
// its credential helpers for one over HTTP. An agent that can write the
// acts clone's .git/config, and point a ref at an object that is not there,
// would have tp run its program as the principal (D20).

// lazyForms are the commands tp runs that read objects a ref names.
var lazyForms = [][]string{
	{"rev-list", "--left-right", "--count", "@{upstream}...HEAD"},
	{"status", "--porcelain=v2", "--branch", "--ahead-behind"},
	{"ls-tree", "--name-only", "@{upstream}", "--", "STATE.md"},
	{"merge", "--no-edit", "-q", "origin/main"},
	{"log", "--format=%an %s", "origin/main"},
	{"fetch", "--quiet", "origin"},
}

// missing points origin/main at an object the repository does not have.
func missing(t *testing.T, w *world) {
	t.Helper()
	ref := filepath.Join(w.dir, ".git", "refs", "remotes", "origin", "main")
	if err := os.MkdirAll(filepath.Dir(ref), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, ref, strings.Repeat("1234567890", 4)+"\n")
	os.Remove(filepath.Join(w.dir, ".git", "packed-refs"))
}

func TestLazyFetchRunsNoProgram(t *testing.T) {
	t.Parallel()
	evilPack := func(w *world) string { return w.evil + "; git-upload-pack" }
	cases := []struct {
		name  string
		setup func(t *testing.T, w *world)
	}{
		{"remote.origin.promisor and uploadpack", func(t *testing.T, w *world) {
			cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.promisor", "true", "remote.origin.uploadpack", evilPack(w))
		}},
		{"the same through include.path", func(t *testing.T, w *world) {
			inc := filepath.Join(w.tmp, "inc.cfg")
			write(t, inc, "[remote \"origin\"]\n\tpromisor = true\n\tuploadpack = \""+evilPack(w)+"\"\n")
			cfg(t, filepath.Join(w.dir, ".git"), "include.path", inc)
		}},
		{"extensions.partialClone and uploadpack", func(t *testing.T, w *world) {
			gitDir := filepath.Join(w.dir, ".git")
			mustGit(t, "", "--git-dir="+gitDir, "config", "core.repositoryformatversion", "1")
			cfg(t, gitDir, "extensions.partialClone", "origin", "remote.origin.uploadpack", evilPack(w))
		}},
		{"a promisor over HTTP and a credential helper", func(t *testing.T, w *world) {
			cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.url", unauthorized(t),
				"remote.origin.promisor", "true", "credential.helper", "!"+w.evil, "core.askPass", w.evil)
		}},
	}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			tc.setup(t, w)
			missing(t, w)
			op{lazyForms[0]}.plain(w.dir)
			if !exists(w.marker) {
				t.Skipf("plain git rev-list (%s) fetched nothing on demand here; nothing to prove", gitVersion())
			}
			// One world for every form: each is refused or fails on the
			// missing object, which no form can fetch (the programs fail),
			// so none changes what the next one meets; the marker is
			// removed after each.
			w = newWorld(t)
			tc.setup(t, w)
			missing(t, w)
			g, err := Open(ctx, w.dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, args := range lazyForms {
				_, err = g.Run(ctx, args...)
				if exists(w.marker) {
					t.Errorf("git %s ran the program the repository's configuration named (err %v)", strings.Join(args, " "), err)
					os.Remove(w.marker)
				}
				if !errors.Is(err, ErrPromisor) {
					t.Errorf("git %s: err %v, want ErrPromisor", strings.Join(args, " "), err)
				}
				// Without the probe that refuses the repository (as an
				// inert query runs), the fixed overrides and noTransport
				// alone still let no on-demand fetch start a program.
				if transportCommands[args[0]] {
					continue
				}
				g.command(ctx, fixed, args).Run()
				if exists(w.marker) {
					os.Remove(w.marker)
					t.Errorf("git %s with noTransport ran the program the repository's configuration named", strings.Join(args, " "))
				}
			}
		})
	}
}
