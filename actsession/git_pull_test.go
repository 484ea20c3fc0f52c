package actsession

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Pull (D20) in each state a clone can be in before it reads: what it
// commits, whether it merges, and what the upstream holds afterwards. One
// status after the fetch says both what is loose and how far HEAD and the
// upstream are apart; these are the cases that reading must get right.
func TestPull(t *testing.T) {
	t.Parallel()
	record := filepath.Join("demo", "records", "r~3atask-demo-0123456789.json")
	for _, tc := range []struct {
		name string
		// before, in clone a: a loose record, a commit not pushed, an
		// ignore rule that covers records, merge.ff=false; in clone b: a
		// commit pushed (the upstream moves on)
		loose, unpushed, ignored, noFF, upstreamMoved bool
		// a change staged in a, then undone in its work tree: the status
		// lists it, the add makes nothing of it
		stagedUndone bool

		wantMerges int    // merge commits in the upstream's history afterwards
		wantBody   string // in the message of a's newest commit
		wantPushed bool   // the upstream is a's HEAD afterwards
	}{
		{name: "up to date"},
		{name: "behind: a fast-forward, nothing to push", upstreamMoved: true},
		{name: "behind, merge.ff=false: the merge commit is pushed", upstreamMoved: true, noFF: true, wantMerges: 1, wantPushed: true},
		{name: "a loose record: committed and pushed", loose: true, wantBody: "record r:task-demo-0123456789 (demo)", wantPushed: true},
		{name: "a loose record and behind: committed, merged, pushed", loose: true, upstreamMoved: true, wantMerges: 1, wantBody: "Merge", wantPushed: true},
		{name: "an ignored record: committed all the same", loose: true, ignored: true, wantBody: "record r:task-demo-0123456789 (demo)", wantPushed: true},
		{name: "a commit an earlier command could not push", unpushed: true, wantPushed: true},
		{name: "a change staged and undone: nothing to commit", stagedUndone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bare, a, b := twoClones(t)
			dir := filepath.Join(a, "acts")
			put := func(root, rel, text string) {
				t.Helper()
				p := filepath.Join(root, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.noFF {
				gitIn(t, a, "config", "merge.ff", "false")
			}
			if tc.ignored {
				put(a, ".git/info/exclude", "records/\n")
			}
			if tc.unpushed {
				put(dir, "demo/allowed_signers", "# here\n")
				gitIn(t, a, "add", ".")
				gitIn(t, a, "commit", "--quiet", "-m", "not pushed")
			}
			if tc.loose {
				put(dir, record, "{}\n")
			}
			if tc.stagedUndone {
				put(dir, ".keep", "changed\n")
				gitIn(t, a, "add", ".")
				put(dir, ".keep", "")
			}
			if tc.upstreamMoved {
				put(filepath.Join(b, "acts"), "other/records/r~3atask-other-0123456789.json", "{}\n")
				gitIn(t, b, "add", ".")
				gitIn(t, b, "commit", "--quiet", "-m", "from b")
				gitIn(t, b, "push", "--quiet")
			}
			upstreamBefore := gitIn(t, bare, "rev-parse", "main")
			r, err := OpenRepo(context.Background(), dir)
			if err != nil || r == nil {
				t.Fatalf("OpenRepo: %v %v", r, err)
			}
			warn, err := r.Pull(context.Background())
			if err != nil || warn != nil {
				t.Fatalf("Pull: warn %v, err %v", warn, err)
			}
			if st := gitIn(t, a, "status", "--porcelain", "--untracked-files=all"); st != "" {
				t.Errorf("left loose after the pull:\n%s", st)
			}
			head, upstream := gitIn(t, a, "rev-parse", "HEAD"), gitIn(t, bare, "rev-parse", "main")
			if pushed := upstream != upstreamBefore; pushed != tc.wantPushed {
				t.Errorf("pushed %v, want %v", pushed, tc.wantPushed)
			}
			if head != upstream {
				t.Errorf("HEAD %s, the upstream %s: the pull left them apart", head, upstream)
			}
			if n := gitIn(t, bare, "rev-list", "--count", "--merges", "main"); n != strconv.Itoa(tc.wantMerges) {
				t.Errorf("%s merge commits upstream, want %d", n, tc.wantMerges)
			}
			if tc.upstreamMoved && !fileIn(filepath.Join(dir, "other", "records", "r~3atask-other-0123456789.json")) {
				t.Error("the upstream's record is not in the work tree")
			}
			if tc.wantBody != "" {
				log := gitIn(t, a, "log", "-2", "--format=%s%n%b")
				if !strings.Contains(log, tc.wantBody) {
					t.Errorf("the newest commits say\n%s\nwant %q in them", log, tc.wantBody)
				}
			}
			if tc.loose && !strings.Contains(gitIn(t, bare, "log", "--format=", "--name-only", "main"), "acts/"+filepath.ToSlash(record)) {
				t.Error("the loose record never reached the upstream")
			}
		})
	}
}

func fileIn(p string) bool { _, err := os.Stat(p); return err == nil }
