package actsession

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"github.com/tp-dev/tp/internal/trust"
	"golang.org/x/crypto/ssh"
)

// gitIn runs git in dir for a test (not through gitexec: this is the
// test's own set-up, as a person would type it).
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitCmd(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	return cmd
}

// twoClones is a bare repository and two clones of it, each with an acts
// dir tracked on main: two machines sharing one record log (D20). It is a
// copy of one built once (clonesTemplate), the clones' remote moved to the
// copy's bare repository: the same repositories, without a dozen git
// processes each time.
func twoClones(t *testing.T) (bare, a, b string) {
	t.Helper()
	tpl := clonesTemplate(t)
	root := t.TempDir()
	bare, a, b = filepath.Join(root, "bare.git"), filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range [][2]string{{tpl.bare, bare}, {tpl.a, a}, {tpl.b, b}} {
		if err := os.CopyFS(d[1], os.DirFS(d[0])); err != nil {
			t.Fatal(err)
		}
	}
	for _, clone := range []string{a, b} {
		conf := filepath.Join(clone, ".git", "config")
		c, err := os.ReadFile(conf)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(c), tpl.bare) {
			t.Fatalf("%s does not name the template's remote %s:\n%s", conf, tpl.bare, c)
		}
		if err := os.WriteFile(conf, []byte(strings.ReplaceAll(string(c), tpl.bare, bare)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return bare, a, b
}

// clones is twoClones' template, built once with plain git in a folder
// of its own, removed when the tests end (TestMain).
var clones clonesBuilt

type clonesBuilt struct {
	once       sync.Once
	bare, a, b string
	err        error
}

func clonesTemplate(t *testing.T) *clonesBuilt {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	clones.once.Do(func() {
		root, err := os.MkdirTemp("", "actsession-clones-")
		if err != nil {
			clones.err = err
			return
		}
		templateRoot = root
		bare, a, b := filepath.Join(root, "bare.git"), filepath.Join(root, "a"), filepath.Join(root, "b")
		git := func(dir string, args ...string) {
			if clones.err != nil {
				return
			}
			cmd := gitCmd(dir, args...)
			if out, err := cmd.CombinedOutput(); err != nil {
				clones.err = fmt.Errorf("git %v: %v\n%s", args, err, out)
			}
		}
		git(root, "init", "--quiet", "--bare", bare)
		git(root, "clone", "--quiet", bare, a)
		if clones.err == nil {
			clones.err = os.MkdirAll(filepath.Join(a, "acts"), 0o755)
		}
		if clones.err == nil {
			clones.err = os.WriteFile(filepath.Join(a, "acts", ".keep"), nil, 0o644)
		}
		git(a, "checkout", "--quiet", "-b", "main")
		git(a, "add", ".")
		git(a, "commit", "--quiet", "-m", "start")
		git(a, "push", "--quiet", "-u", "origin", "main")
		git(root, "clone", "--quiet", bare, b)
		clones.bare, clones.a, clones.b = bare, a, b
	})
	if clones.err != nil {
		t.Fatal(clones.err)
	}
	return &clones
}

// templateRoot is the folder of the templates TestMain removes.
var templateRoot string

func TestMain(m *testing.M) {
	code := m.Run()
	if templateRoot != "" {
		os.RemoveAll(templateRoot)
	}
	os.Exit(code)
}

// batchFixture is a project with n raised acts in an acts dir (dir), a
// session over it, and a principal key that counts its look-ups.
type batchFixture struct {
	s     *Session
	keys  []string
	doc   string
	key   recordlog.PrincipalKey
	finds *int
}

func newBatchFixture(t *testing.T, dir string, n int) *batchFixture {
	t.Helper()
	l := recordlog.OpenLog(dir)
	// This machine's trust store, as the command line opens it (D19
	// revised): whose settlements count, and what it applied.
	ts, err := trust.Open(filepath.Join(t.TempDir(), "trust"))
	if err != nil {
		t.Fatal(err)
	}
	l.Trust = ts
	doc := filepath.Join(t.TempDir(), "STATE.md")
	var b strings.Builder
	b.WriteString("## Tasks\n\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [ ] [owner] Chore number %d\n", i)
	}
	if err := os.WriteFile(doc, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &batchFixture{doc: doc, finds: new(int)}
	f.s = New(l, Options{})
	f.sync(t)
	ls, err := f.s.List(context.Background(), "garden")
	if err != nil {
		t.Fatal(err)
	}
	// In the document's order: keys[i] is "Chore number i+1".
	f.keys = make([]string, n)
	for _, st := range ls.Acts {
		var i int
		fmt.Sscanf(st.Text, "Chore number %d", &i)
		f.keys[i-1] = st.Key
	}
	alice := sshtest.Signer(t)
	nonce := 0
	f.key = recordlog.PrincipalKey{
		Find: func(func(ssh.PublicKey) bool) (sshsign.Found, error) {
			*f.finds++
			return sshsign.Found{Signer: alice, From: "test"}, nil
		},
		Name: "alice", By: "ps:tp@test", Now: "2026-12-01T09:05:00Z",
		Nonce: func() string { nonce++; return fmt.Sprintf("n%d", nonce) },
	}
	return f
}

func (f *batchFixture) sync(t *testing.T) {
	t.Helper()
	prof, err := acts.ProfileFor("en", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Sync(context.Background(), SyncRequest{Document: f.doc, Project: "garden", Profile: prof, Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
}

var batchNonce int

// settle builds a settlement of key as the log holds it now.
func (f *batchFixture) settle(t *testing.T, key, outcome string) PrincipalWrite {
	t.Helper()
	found, err := f.s.Find(context.Background(), "garden", key)
	if err != nil {
		t.Fatal(err)
	}
	batchNonce++
	n := batchNonce
	rs, err := acts.BuildSettle(found.State, acts.Sender{By: "ps:tp@test", Decider: "p:alice", Now: "2026-12-01T09:05:00Z", Nonce: func() string { return fmt.Sprintf("s%d", n) }}, outcome, "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return PrincipalWrite{Project: "garden", Key: key, Records: rs, Signer: f.key, Register: true}
}

func (f *batchFixture) records(t *testing.T) int {
	t.Helper()
	ld, err := f.s.Log.Load("garden")
	if err != nil {
		t.Fatal(err)
	}
	return len(ld.Records)
}

// Settling many acts is one batch (issue 17): the key is looked up once,
// every record is signed and written, one commit carries them all and one
// push sends it.
func TestWritePrincipalBatch(t *testing.T) {
	t.Parallel()
	bare, a, _ := twoClones(t)
	f := newBatchFixture(t, filepath.Join(a, "acts"), 4)
	commits := func() string { return gitIn(t, bare, "rev-list", "--count", "main") }
	before := commits()
	var ws []PrincipalWrite
	for i, k := range f.keys[:3] {
		ws = append(ws, f.settle(t, k, []string{"done", "dropped", "done"}[i]))
	}
	rep, err := f.s.WritePrincipalBatch(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	if *f.finds != 1 {
		t.Errorf("the key was looked up %d times, want once", *f.finds)
	}
	if len(rep.Registered) != 1 {
		t.Errorf("registered %d first principals, want 1", len(rep.Registered))
	}
	for i, w := range rep.Writes {
		if w.State.Status != acts.StatusSettled || w.State.Outcome != []string{"done", "dropped", "done"}[i] {
			t.Errorf("%s: %s %s", f.keys[i], w.State.Status, w.State.Outcome)
		}
		if !strings.HasPrefix(w.Records[0].Sig, "-----BEGIN SSH SIGNATURE") {
			t.Errorf("%s: not signed", f.keys[i])
		}
	}
	// One commit over what sync had pushed, and it is upstream.
	if n, b := commits(), before; n != fmt.Sprint(atoi(b)+1) {
		t.Errorf("upstream went from %s to %s commits, want one more", b, n)
	}
	ld, _ := f.s.Log.Load("garden")
	if len(ld.Rejected) != 0 {
		t.Errorf("rejected: %v", ld.Rejected)
	}
}

func atoi(s string) int { var n int; fmt.Sscan(s, &n); return n }

// All or nothing (issue 17): one act that cannot be settled — settled
// already, its terms revised since the settlement was built, named twice,
// a record id taken — and nothing of the batch is signed, written or
// committed; the error names that act and why.
func TestWritePrincipalBatchAllOrNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, f *batchFixture, ws []PrincipalWrite) []PrincipalWrite
		why   string
	}{
		{"already settled", func(t *testing.T, f *batchFixture, ws []PrincipalWrite) []PrincipalWrite {
			if _, err := f.s.WritePrincipal(context.Background(), f.settle(t, f.keys[1], "done")); err != nil {
				t.Fatal(err)
			}
			return ws
		}, "already settled (done)"},
		{"terms revised", func(t *testing.T, f *batchFixture, ws []PrincipalWrite) []PrincipalWrite {
			b, _ := os.ReadFile(f.doc)
			if err := os.WriteFile(f.doc, []byte(strings.Replace(string(b), "Chore number 2", "Chore number 2, both sides", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			f.sync(t)
			return ws
		}, "the terms were revised (rev 1 → 2)"},
		{"named twice", func(t *testing.T, f *batchFixture, ws []PrincipalWrite) []PrincipalWrite {
			return append(ws, f.settle(t, f.keys[1], "dropped"))
		}, "named twice"},
		{"record id taken", func(t *testing.T, f *batchFixture, ws []PrincipalWrite) []PrincipalWrite {
			r := ws[1].Records[0]
			r.Outcome = "dropped"
			if _, err := f.s.Log.WriteAll([]acts.Record{r}); err != nil {
				t.Fatal(err)
			}
			return ws
		}, "in the log already"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, a, _ := twoClones(t)
			f := newBatchFixture(t, filepath.Join(a, "acts"), 3)
			var ws []PrincipalWrite
			for _, k := range f.keys {
				ws = append(ws, f.settle(t, k, "done"))
			}
			ws = tc.spoil(t, f, ws)
			head := gitIn(t, a, "rev-parse", "HEAD")
			n := f.records(t)
			*f.finds = 0
			_, err := f.s.WritePrincipalBatch(context.Background(), ws)
			var be *BatchError
			if !errors.As(err, &be) || len(be.Problems) != 1 || be.Problems[0].Key != f.keys[1] || !strings.Contains(be.Problems[0].Why, tc.why) {
				t.Fatalf("err = %v, want %s's problem %q alone", err, f.keys[1], tc.why)
			}
			if !strings.Contains(err.Error(), "none was") {
				t.Errorf("the error does not say nothing was written: %v", err)
			}
			if m := f.records(t); m != n {
				t.Errorf("%d records written by a refused batch", m-n)
			}
			if gitIn(t, a, "rev-parse", "HEAD") != head {
				t.Error("a refused batch committed")
			}
			if *f.finds != 0 {
				t.Errorf("a refused batch looked the key up %d times", *f.finds)
			}
			for _, k := range []string{f.keys[0], f.keys[2]} {
				if fd, _ := f.s.Find(context.Background(), "garden", k); fd.State.Status == acts.StatusSettled {
					t.Errorf("%s was settled by a refused batch", k)
				}
			}
		})
	}
}

// A key that is not a principal of one of the batch's projects is refused
// before anything is registered, signed or written.
func TestWritePrincipalBatchRefusesAStranger(t *testing.T) {
	t.Parallel()
	f := newBatchFixture(t, filepath.Join(t.TempDir(), "acts"), 2)
	if _, err := f.s.WritePrincipal(context.Background(), f.settle(t, f.keys[0], "done")); err != nil {
		t.Fatal(err)
	}
	mallory := sshtest.Signer(t)
	w := f.settle(t, f.keys[1], "done")
	stranger := f.key
	stranger.Find = func(func(ssh.PublicKey) bool) (sshsign.Found, error) {
		return sshsign.Found{Signer: mallory, From: "test"}, nil
	}
	w.Signer = stranger
	n := f.records(t)
	if _, err := f.s.WritePrincipalBatch(context.Background(), []PrincipalWrite{w}); err == nil || !strings.Contains(err.Error(), "not a principal") {
		t.Fatalf("err = %v", err)
	}
	if f.records(t) != n {
		t.Error("a stranger's batch wrote records")
	}
}
