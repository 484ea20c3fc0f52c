package gitexec

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The adversarial list of issue 15 (D20): a repository tp runs git in — an
// acts clone an agent can write, or a remote on this disk — names a marker
// program through one configuration key or hook. Each case first shows
// plain git runs the marker for the operation (or skips, naming the git
// version), then that the same operation through Git never does.

// world is one case's repositories: dir, a clone of the bare repository
// remote (which has one commit on main), and the marker program evil,
// which creates marker when run.
type world struct {
	dir, remote, evil, marker, tmp string
}

func newWorld(t *testing.T) *world { return copyWorld(t, false) }

// newWorldAhead is newWorld with a remote that has one more commit on
// main, pushed from another clone: it adds pwn.txt and
// demo/records/s.json, which a fetch and merge bring into the work tree.
func newWorldAhead(t *testing.T) *world { return copyWorld(t, true) }

func copyWorld(t *testing.T, ahead bool) *world {
	t.Helper()
	tpl := worldTemplate(t)
	remote := tpl.remote
	if ahead {
		remote = template.ahead
	}
	dir := filepath.Join(t.TempDir(), "r")
	tmp := t.TempDir()
	w := &world{dir: dir, tmp: tmp, remote: filepath.Join(tmp, "remote.git"), marker: filepath.Join(tmp, "ran"), evil: filepath.Join(tmp, "evil.sh")}
	// A copy of the template, its origin pointed at this world's remote:
	// the same repositories as building them again, without a dozen git
	// processes per world.
	if err := os.CopyFS(dir, os.DirFS(tpl.dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(w.remote, os.DirFS(remote)); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, ".git", "config")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), tpl.remote) {
		t.Fatalf("the template's config does not name its remote %s:\n%s", tpl.remote, b)
	}
	if err := os.WriteFile(conf, []byte(strings.ReplaceAll(string(b), tpl.remote, w.remote)), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, w.evil, "#!/bin/sh\ntouch '"+w.marker+"'\ncat >/dev/null 2>&1 </dev/null\nexit 1\n")
	return w
}

// template is the world every case starts from, built once with plain
// git: a clone of a bare repository with one commit on main, and one more
// commit here, so a push has something to send; and ahead, the remote
// with another commit (newWorldAhead).
var template struct {
	once               sync.Once
	dir, remote, ahead string
	err                error
}

func worldTemplate(t *testing.T) *world {
	t.Helper()
	template.once.Do(func() {
		root, err := os.MkdirTemp(os.Getenv("HOME"), "world-") // removed with TestMain's home
		if err != nil {
			template.err = err
			return
		}
		template.dir, template.remote = filepath.Join(root, "r"), filepath.Join(root, "remote.git")
		template.ahead = filepath.Join(root, "ahead.git")
		dir, other := template.dir, filepath.Join(root, "other")
		steps := [][]string{
			{"", "init", "-q", dir},
			{"write", "r/STATE.md", "# state\n"},
			{dir, "add", "STATE.md"},
			{dir, "commit", "-q", "-m", "one"},
			{"", "init", "-q", "--bare", template.remote},
			{dir, "remote", "add", "origin", template.remote},
			{dir, "push", "-q", "origin", "main"},
			{dir, "branch", "-q", "--set-upstream-to=origin/main"},
			// ahead.git: the remote and a commit another clone pushed
			{"", "clone", "-q", "--bare", template.remote, template.ahead},
			{"", "clone", "-q", template.ahead, other},
			{"write", "other/pwn.txt", "owned\n"},
			{"write", "other/demo/records/s.json", "{}\n"},
			{other, "add", "pwn.txt", "demo"},
			{other, "commit", "-q", "-m", "pwn"},
			{other, "push", "-q", "origin", "HEAD:main"},
			{"write", "r/STATE.md", "# state\n- [ ] two\n"},
			{dir, "commit", "-q", "-am", "two"},
		}
		for _, s := range steps {
			if s[0] == "write" {
				p := filepath.Join(root, s[1])
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					template.err = err
					return
				}
				if err := os.WriteFile(p, []byte(s[2]), 0o644); err != nil {
					template.err = err
					return
				}
				continue
			}
			cmd := exec.Command("git", s[1:]...)
			cmd.Dir = s[0]
			if out, err := cmd.CombinedOutput(); err != nil {
				template.err = fmt.Errorf("git %v: %v: %s", s[1:], err, out)
				return
			}
		}
	})
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if template.err != nil {
		t.Fatal(template.err)
	}
	return &world{dir: template.dir, remote: template.remote}
}

func mustGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
}

// cfg adds each key and value to gitDir's config file, as `git config
// --add` would (remote.origin.url replaces the clone's), written as text
// in one go: what an agent who can write the file writes, without a git
// process per key.
func cfg(t *testing.T, gitDir string, kv ...string) {
	t.Helper()
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "remote.origin.url" {
			mustGit(t, "", "--git-dir="+gitDir, "config", kv[i], kv[i+1])
			continue
		}
		first, last := strings.IndexByte(kv[i], '.'), strings.LastIndexByte(kv[i], '.')
		if first <= 0 || last == len(kv[i])-1 {
			t.Fatalf("cfg: %q is not section[.subsection].name", kv[i])
		}
		b.WriteString("[" + kv[i][:first])
		if first != last {
			b.WriteString(" " + configQuote(kv[i][first+1:last]))
		}
		b.WriteString("]\n\t" + kv[i][last+1:] + " = " + configQuote(kv[i+1]) + "\n")
	}
	f, err := os.OpenFile(filepath.Join(gitDir, "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(b.String()); err != nil {
		t.Fatal(err)
	}
}

// configQuote is s as a quoted string of git's config syntax.
func configQuote(s string) string {
	if strings.ContainsAny(s, "\n\x00") {
		panic("cfg: a line break in " + s)
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// unauthorized is an HTTP remote that asks for credentials, so git asks its
// credential helpers and askpass.
func unauthorized(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/x.git"
}

type op struct {
	args []string // a git command; "push" is made through Git.Push
}

var (
	opFetch  = op{[]string{"fetch", "--quiet", "origin"}}
	opPush   = op{[]string{"push", "origin", "HEAD:refs/heads/main"}}
	opCommit = op{[]string{"commit", "--quiet", "-am", "three"}}
	opDiff   = op{[]string{"diff"}}
	opMerge  = op{[]string{"merge", "--no-edit", "--quiet", "other"}}
)

func (o op) plain(dir string) {
	cmd := exec.Command("git", o.args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader("")
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	cmd.Run()
}

func (o op) safe(ctx context.Context, g *Git) error {
	if o.args[0] == "push" {
		_, err := g.Push(ctx, o.args[1], o.args[2:]...)
		return err
	}
	_, err := g.Run(ctx, o.args...)
	return err
}

var adversarial = []struct {
	name  string
	op    op
	setup func(t *testing.T, w *world)
}{
	{"remote.origin.uploadpack", opFetch, func(t *testing.T, w *world) {
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.uploadpack", w.evil+"; git-upload-pack")
	}},
	{"remote.origin.uploadpack after an empty one", opFetch, func(t *testing.T, w *world) {
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.uploadpack", w.evil+"; git-upload-pack", "remote.origin.uploadpack", "")
	}},
	{"remote.origin.receivepack", opPush, func(t *testing.T, w *world) {
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.receivepack", w.evil+"; git-receive-pack")
	}},
	{"remote.origin.uploadpack through include.path", opFetch, func(t *testing.T, w *world) {
		inc := filepath.Join(w.tmp, "inc.cfg")
		write(t, inc, "[remote \"origin\"]\n\tuploadpack = \""+w.evil+"; git-upload-pack\"\n")
		cfg(t, filepath.Join(w.dir, ".git"), "include.path", inc)
	}},
	{"remote.origin.receivepack through includeIf", opPush, func(t *testing.T, w *world) {
		inc := filepath.Join(w.tmp, "inc.cfg")
		write(t, inc, "[remote \"origin\"]\n\treceivepack = \""+w.evil+"; git-receive-pack\"\n")
		cfg(t, filepath.Join(w.dir, ".git"), "includeIf.gitdir:/**.path", inc)
	}},
	{"core.sshCommand", opFetch, func(t *testing.T, w *world) {
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.url", "example.invalid:x.git", "core.sshCommand", w.evil)
	}},
	{"core.sshCommand through include.path", opFetch, func(t *testing.T, w *world) {
		inc := filepath.Join(w.tmp, "inc.cfg")
		write(t, inc, "[core]\n\tsshCommand = \""+w.evil+"\"\n")
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.url", "example.invalid:x.git", "include.path", inc)
	}},
	{"core.gitProxy", opFetch, func(t *testing.T, w *world) {
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.url", "git://example.invalid/x.git", "core.gitProxy", w.evil)
	}},
	{"core.askPass", opFetch, func(t *testing.T, w *world) {
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.url", unauthorized(t), "core.askPass", w.evil)
	}},
	{"credential.helper", opFetch, func(t *testing.T, w *world) {
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.url", unauthorized(t), "credential.helper", "!"+w.evil)
	}},
	{"credential.<url>.helper", opFetch, func(t *testing.T, w *world) {
		u := unauthorized(t)
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.url", u, "credential."+u+".helper", "!"+w.evil)
	}},
	{"gpg.program with commit.gpgSign", opCommit, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		cfg(t, filepath.Join(w.dir, ".git"), "commit.gpgSign", "true", "gpg.program", w.evil)
	}},
	{"gpg.ssh.program with gpg.format ssh", opCommit, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		cfg(t, filepath.Join(w.dir, ".git"), "commit.gpgSign", "true", "gpg.format", "ssh", "user.signingKey", "key::ssh-ed25519 AAAA", "gpg.ssh.program", w.evil)
	}},
	{"core.fsmonitor", opCommit, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		cfg(t, filepath.Join(w.dir, ".git"), "core.fsmonitor", w.evil)
	}},
	{"filter.<driver>.clean", opCommit, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, ".gitattributes"), "*.md filter=x\n")
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		cfg(t, filepath.Join(w.dir, ".git"), "filter.x.clean", w.evil)
	}},
	{"diff.external", opDiff, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		cfg(t, filepath.Join(w.dir, ".git"), "diff.external", w.evil)
	}},
	{"diff.<driver>.textconv", opDiff, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, ".git", "info", "attributes"), "*.md diff=x\n")
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		cfg(t, filepath.Join(w.dir, ".git"), "diff.x.textconv", w.evil)
	}},
	{"merge.<driver>.driver", opMerge, func(t *testing.T, w *world) {
		mustGit(t, w.dir, "branch", "-q", "other", "HEAD~")
		mustGit(t, w.dir, "checkout", "-q", "other")
		write(t, filepath.Join(w.dir, "STATE.md"), "# state\n- [ ] other\n")
		mustGit(t, w.dir, "commit", "-q", "-am", "other")
		mustGit(t, w.dir, "checkout", "-q", "main")
		write(t, filepath.Join(w.dir, ".git", "info", "attributes"), "*.md merge=x\n")
		cfg(t, filepath.Join(w.dir, ".git"), "merge.x.driver", w.evil+" %O %A %B")
	}},
	// Hooks named in configuration (git 2.54 and later; older gits skip):
	// in the clone, through an include, and in a remote on this disk.
	{"hook.<name>.command for pre-commit", opCommit, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		cfg(t, filepath.Join(w.dir, ".git"), "hook.evil.command", w.evil, "hook.evil.event", "pre-commit")
	}},
	{"hook.<name>.command for post-commit, through include.path", opCommit, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		inc := filepath.Join(w.tmp, "inc.cfg")
		write(t, inc, "[hook \"evil\"]\n\tcommand = \""+w.evil+"\"\n\tevent = post-commit\n")
		cfg(t, filepath.Join(w.dir, ".git"), "include.path", inc)
	}},
	{"hook.<name>.command for reference-transaction", opCommit, func(t *testing.T, w *world) {
		write(t, filepath.Join(w.dir, "STATE.md"), "changed\n")
		cfg(t, filepath.Join(w.dir, ".git"), "hook.evil.command", w.evil, "hook.evil.event", "reference-transaction")
	}},
	{"hook.<name>.command for post-merge", opMerge, func(t *testing.T, w *world) {
		mustGit(t, w.dir, "branch", "-q", "other", "HEAD")
		mustGit(t, w.dir, "checkout", "-q", "other")
		write(t, filepath.Join(w.dir, "NEW.md"), "new\n")
		mustGit(t, w.dir, "add", "NEW.md")
		mustGit(t, w.dir, "commit", "-q", "-m", "other")
		mustGit(t, w.dir, "checkout", "-q", "main")
		cfg(t, filepath.Join(w.dir, ".git"), "hook.evil.command", w.evil, "hook.evil.event", "post-merge")
	}},
	{"hook.<name>.command for pre-push", opPush, func(t *testing.T, w *world) {
		cfg(t, filepath.Join(w.dir, ".git"), "hook.evil.command", w.evil, "hook.evil.event", "pre-push")
	}},
	{"hook.<name>.command for pre-receive in a remote on this disk", opPush, func(t *testing.T, w *world) {
		cfg(t, w.remote, "hook.evil.command", w.evil, "hook.evil.event", "pre-receive")
	}},
	{"hook.<name>.command for post-receive in a remote on this disk, an odd name", opPush, func(t *testing.T, w *world) {
		cfg(t, w.remote, "hook.$(touch x) 'a=b'.command", w.evil, "hook.$(touch x) 'a=b'.event", "post-receive")
	}},
	{"hooks of a remote on this disk", opPush, func(t *testing.T, w *world) {
		for _, h := range []string{"pre-receive", "update", "post-receive", "post-update", "reference-transaction", "proc-receive"} {
			write(t, filepath.Join(w.remote, "hooks", h), "#!/bin/sh\ntouch '"+w.marker+"'\n")
		}
	}},
	{"core.hooksPath of a remote on this disk", opPush, func(t *testing.T, w *world) {
		hooks := filepath.Join(w.tmp, "hooks")
		write(t, filepath.Join(hooks, "pre-receive"), "#!/bin/sh\ntouch '"+w.marker+"'\n")
		cfg(t, w.remote, "core.hooksPath", hooks)
	}},
	{"hooks of a pushurl on this disk", opPush, func(t *testing.T, w *world) {
		other := filepath.Join(w.tmp, "other.git")
		mustGit(t, "", "init", "-q", "--bare", other)
		write(t, filepath.Join(other, "hooks", "pre-receive"), "#!/bin/sh\ntouch '"+w.marker+"'\n")
		cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.pushurl", "file://"+other)
	}},
	{"core.alternateRefsCommand of a remote on this disk", opPush, func(t *testing.T, w *world) {
		alt := filepath.Join(w.tmp, "alt.git")
		mustGit(t, "", "init", "-q", "--bare", alt)
		write(t, filepath.Join(w.remote, "objects", "info", "alternates"), filepath.Join(alt, "objects")+"\n")
		cfg(t, w.remote, "core.alternateRefsCommand", w.evil)
	}},
	{"updateInstead with a smudge filter in a remote on this disk", opPush, func(t *testing.T, w *world) {
		// the remote is a work tree with main checked out
		work := filepath.Join(w.tmp, "work")
		mustGit(t, "", "clone", "-q", w.remote, work)
		write(t, filepath.Join(work, ".git", "info", "attributes"), "*.md filter=x\n")
		cfg(t, filepath.Join(work, ".git"), "receive.denyCurrentBranch", "updateInstead", "filter.x.smudge", w.evil)
		write(t, filepath.Join(work, ".git", "hooks", "push-to-checkout"), "#!/bin/sh\ntouch '"+w.marker+"'\n")
		mustGit(t, w.dir, "remote", "set-url", "origin", work)
		mustGit(t, w.dir, "fetch", "-q", "origin")
	}},
}

func TestAdversarialConfigRunsNoProgram(t *testing.T) {
	t.Parallel()
	for _, a := range adversarial {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			a.setup(t, w)
			a.op.plain(w.dir)
			if !exists(w.marker) {
				t.Skipf("plain %s (%s) does not run the marker through %s; nothing to prove", a.op.args[0], gitVersion(), a.name)
			}

			w = newWorld(t)
			a.setup(t, w)
			ctx := context.Background()
			g, err := Open(ctx, w.dir)
			if err != nil {
				t.Fatal(err)
			}
			err = a.op.safe(ctx, g)
			if exists(w.marker) {
				t.Fatalf("%s: git %s ran a program the configuration named", a.name, a.op.args[0])
			}
			t.Logf("%s: %v", a.op.args[0], err)
		})
	}
}

// The protections do not stop the work: a fetch and a push to a bare
// repository on this disk, and to one reached by file://, still succeed.
func TestFetchAndPushStillWork(t *testing.T) {
	t.Parallel()
	for _, url := range []string{"path", "file"} {
		t.Run(url, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			if url == "file" {
				mustGit(t, w.dir, "remote", "set-url", "origin", "file://"+w.remote)
			}
			ctx := context.Background()
			g, err := Open(ctx, w.dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := g.Run(ctx, "fetch", "--quiet", "origin"); err != nil {
				t.Fatal(err)
			}
			if _, err := g.Push(ctx, "origin", "HEAD:refs/heads/main"); err != nil {
				t.Fatal(err)
			}
			out, _ := exec.Command("git", "--git-dir="+w.remote, "log", "--format=%s", "-1", "main").Output()
			if strings.TrimSpace(string(out)) != "two" {
				t.Fatalf("remote's main is %q, want the pushed commit", out)
			}
		})
	}
}

func TestPushRefusesMixedURLsAndOptionNames(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cfg(t, filepath.Join(w.dir, ".git"), "remote.origin.pushurl", w.remote, "remote.origin.pushurl", "example.invalid:x.git")
	ctx := context.Background()
	g, _ := Open(ctx, w.dir)
	if _, err := g.Push(ctx, "origin", "HEAD:refs/heads/main"); err == nil || !strings.Contains(err.Error(), "one kind at a time") {
		t.Fatalf("mixed push URLs: err = %v", err)
	}
	if _, err := g.Push(ctx, "--receive-pack="+w.evil, "HEAD"); err == nil || exists(w.marker) {
		t.Fatalf("an option as a remote's name: err = %v, ran = %v", err, exists(w.marker))
	}
}

func TestIsLocalURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"/srv/acts.git", true},
		{"../acts.git", true},
		{"acts.git", true},
		{"./a:b", true},
		{"file:///srv/acts.git", true},
		{`C:\acts.git`, true},
		{"C:/acts.git", true},
		{"host:acts.git", false},
		{"git@github.com:o/acts.git", false},
		{"ssh://host/acts.git", false},
		{"https://host/acts.git", false},
		{"git://host/acts.git", false},
		{"ext::sh -c x", false},
	} {
		if got := IsLocalURL(tc.url); got != tc.want {
			t.Errorf("IsLocalURL(%q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}
