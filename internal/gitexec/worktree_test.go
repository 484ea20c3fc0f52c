package gitexec

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// core.worktree in the repository's config (D20): an agent that can write
// the acts clone's .git/config points the work tree at another folder —
// the user's home, the trust store's parent — and the next merge of what
// the remote brings writes the remote's files there, outside the acts dir.
// Git must keep the work tree where the .git it found is.
func TestAdversarialWorkTreeStaysHome(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, w *world, outside string)
	}{
		{"core.worktree", func(t *testing.T, w *world, outside string) {
			cfg(t, filepath.Join(w.dir, ".git"), "core.worktree", outside)
		}},
		{"core.worktree through include.path", func(t *testing.T, w *world, outside string) {
			inc := filepath.Join(w.tmp, "inc")
			write(t, inc, "[core]\n\tworktree = "+outside+"\n")
			cfg(t, filepath.Join(w.dir, ".git"), "include.path", inc)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, plainGit := range []bool{true, false} {
				// Another clone pushed a file the merge will check out.
				w := newWorldAhead(t)
				outside := filepath.Join(w.tmp, "outside")
				if err := os.MkdirAll(outside, 0o755); err != nil {
					t.Fatal(err)
				}
				tc.setup(t, w, outside)
				if plainGit {
					for _, args := range [][]string{{"fetch", "-q", "origin"}, {"merge", "--no-edit", "-q", "origin/main"}} {
						cmd := exec.Command("git", args...)
						cmd.Dir = w.dir
						cmd.Run()
					}
					if !exists(filepath.Join(outside, "pwn.txt")) {
						t.Skipf("plain git (%s) does not write outside through %s; nothing to prove", gitVersion(), tc.name)
					}
					continue
				}
				ctx := context.Background()
				g, err := Open(ctx, w.dir)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := g.Run(ctx, "fetch", "-q", "origin"); err != nil {
					t.Fatal(err)
				}
				_, merr := g.Run(ctx, "merge", "--no-edit", "-q", "origin/main")
				if exists(filepath.Join(outside, "pwn.txt")) {
					t.Fatalf("%s: the merge wrote the remote's file outside the repository's folder", tc.name)
				}
				if merr != nil || !exists(filepath.Join(w.dir, "pwn.txt")) {
					t.Fatalf("the merge did not work in the repository's own folder: %v", merr)
				}
			}
		})
	}
}

// core.sparseCheckout in the repository's config (D20): an agent limits the
// acts clone's checkout to some folders, and every record the remote brings
// for the others stays out of the work tree, where tp reads the log — a
// principal's settlement pushed from another machine is never seen here,
// silently. Git must check out everything a merge brings.
func TestAdversarialSparseCheckoutHidesNothing(t *testing.T) {
	t.Parallel()
	for _, plainGit := range []bool{true, false} {
		// Another clone pushed a record the merge will check out.
		w := newWorldAhead(t)
		cfg(t, filepath.Join(w.dir, ".git"), "core.sparseCheckout", "true", "core.sparseCheckoutCone", "false")
		write(t, filepath.Join(w.dir, ".git", "info", "sparse-checkout"), "/*\n!/demo/\n")
		got := filepath.Join(w.dir, "demo", "records", "s.json")
		if plainGit {
			for _, args := range [][]string{{"fetch", "-q", "origin"}, {"merge", "--no-edit", "-q", "origin/main"}} {
				cmd := exec.Command("git", args...)
				cmd.Dir = w.dir
				cmd.Run()
			}
			if exists(got) {
				t.Skipf("plain git (%s) checks the file out in spite of the sparse checkout; nothing to prove", gitVersion())
			}
			continue
		}
		ctx := context.Background()
		g, err := Open(ctx, w.dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Run(ctx, "fetch", "-q", "origin"); err != nil {
			t.Fatal(err)
		}
		if _, err := g.Run(ctx, "merge", "--no-edit", "-q", "origin/main"); err != nil {
			t.Fatal(err)
		}
		if !exists(got) {
			t.Fatalf("the merged record is not in the work tree: the repository's sparse checkout hid it")
		}
	}
}
