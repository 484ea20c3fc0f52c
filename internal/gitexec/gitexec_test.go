package gitexec

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMain gives every test one isolated home and global git config (the
// same for all, so the tests can run in parallel: none writes to it). The
// plain gits of the tests' set-up and proofs run no automatic gc or
// maintenance after a commit, fetch or push (a process or two each, which no
// case is about; tp's own gits have both off in command scope).
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "gitexec-home-")
	if err != nil {
		panic(err)
	}
	global := filepath.Join(home, "gitconfig")
	if err := os.WriteFile(global, []byte("[user]\n\tname = Tester\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n[receive]\n\tautogc = false\n"), 0o644); err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	os.Setenv("GIT_CONFIG_GLOBAL", global)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// repo makes a repository in a fresh folder with plain git and the
// isolated global config of TestMain, and returns its path.
func repo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := filepath.Join(t.TempDir(), "r")
	plain(t, "", "init", "-q", dir)
	return dir
}

func plain(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && len(args) > 0 && args[0] == "init" {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out), err
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o755); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// setConfig appends raw text to the repository's own .git/config, as a
// pack's luggage would carry it.
func setConfig(t *testing.T, dir, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// attack describes a repository that makes plain git run a program, and the
// git commands (status, add, commit) that trigger it.
type attack struct {
	name  string
	setup func(t *testing.T, dir, marker string)
}

func shellTouch(marker string) string { return "touch '" + marker + "'; exit 0" }

var attacks = []attack{
	{"core.fsmonitor", func(t *testing.T, dir, marker string) {
		hook := filepath.Join(dir, "..", "fsmon.sh")
		write(t, hook, "#!/bin/sh\n"+shellTouch(marker)+"\n")
		setConfig(t, dir, "[core]\n\tfsmonitor = \""+hook+"\"\n")
	}},
	{"hooks in .git/hooks", func(t *testing.T, dir, marker string) {
		for _, h := range []string{"pre-commit", "commit-msg", "post-commit", "reference-transaction", "post-index-change"} {
			write(t, filepath.Join(dir, ".git", "hooks", h), "#!/bin/sh\n"+shellTouch(marker)+"\n")
		}
	}},
	{"core.hooksPath", func(t *testing.T, dir, marker string) {
		hooks := filepath.Join(dir, "..", "myhooks")
		write(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\n"+shellTouch(marker)+"\n")
		setConfig(t, dir, "[core]\n\thooksPath = \""+hooks+"\"\n")
	}},
	{"filter clean driver", func(t *testing.T, dir, marker string) {
		write(t, filepath.Join(dir, ".gitattributes"), "*.md filter=x\n")
		setConfig(t, dir, "[filter \"x\"]\n\tclean = \"touch '"+marker+"'; cat\"\n")
	}},
	{"filter process driver", func(t *testing.T, dir, marker string) {
		write(t, filepath.Join(dir, ".gitattributes"), "*.md filter=y=z\n")
		setConfig(t, dir, "[filter \"y=z\"]\n\tprocess = \"touch '"+marker+"'; false\"\n")
	}},
	{"gpg.program with commit.gpgSign", func(t *testing.T, dir, marker string) {
		prog := filepath.Join(dir, "..", "gpg.sh")
		write(t, prog, "#!/bin/sh\n"+shellTouch(marker)+"\n")
		setConfig(t, dir, "[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = \""+prog+"\"\n")
	}},
	{"include.path pulling in a hook path", func(t *testing.T, dir, marker string) {
		hooks := filepath.Join(dir, "..", "inclhooks")
		write(t, filepath.Join(hooks, "pre-commit"), "#!/bin/sh\n"+shellTouch(marker)+"\n")
		write(t, filepath.Join(dir, "..", "extra.cfg"), "[core]\n\thooksPath = \""+hooks+"\"\n")
		setConfig(t, dir, "[include]\n\tpath = ../../extra.cfg\n")
	}},
}

// sequence is what `tp acts sync --commit` does in the document's folder.
func sequence(ctx context.Context, g *Git) error {
	if _, err := g.Read(ctx, "status", "--porcelain", "--", "STATE.md"); err != nil {
		return err
	}
	if _, err := g.Run(ctx, "add", "--", "STATE.md"); err != nil {
		return err
	}
	_, err := g.Run(ctx, "commit", "--quiet", "-m", "msg", "--", "STATE.md")
	return err
}

func TestRepositoryConfigNeverRunsAProgram(t *testing.T) {
	t.Parallel()
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			// Plain git runs it: the attack is real on this git, so the
			// test below can fail.
			dir := repo(t)
			marker := filepath.Join(t.TempDir(), "ran")
			a.setup(t, dir, marker)
			write(t, filepath.Join(dir, "STATE.md"), "# state\n")
			plain(t, dir, "status", "--porcelain")
			plain(t, dir, "add", "--", "STATE.md")
			plain(t, dir, "commit", "--quiet", "-m", "msg", "--", "STATE.md")
			if !exists(marker) {
				t.Skipf("this git (%s) does not run %s; nothing to prove", gitVersion(), a.name)
			}

			dir = repo(t)
			marker = filepath.Join(t.TempDir(), "ran")
			a.setup(t, dir, marker)
			write(t, filepath.Join(dir, "STATE.md"), "# state\n")
			ctx := context.Background()
			g, err := Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			err = sequence(ctx, g)
			if exists(marker) {
				t.Fatalf("%s: a program named by the repository's config ran", a.name)
			}
			t.Logf("sequence: %v", err)
		})
	}
}

func gitVersion() string {
	out, _ := exec.Command("git", "--version").Output()
	return strings.TrimSpace(string(out))
}

// A harmless repository still commits, with the user's identity from the
// global config.
func TestCommitStillWorks(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	write(t, filepath.Join(dir, "STATE.md"), "# state\n")
	ctx := context.Background()
	g, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := sequence(ctx, g); err != nil {
		t.Fatal(err)
	}
	out, err := g.Read(ctx, "log", "--format=%an %s")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "Tester msg" {
		t.Fatalf("log = %q", got)
	}
}

// GIT_DIR and GIT_WORK_TREE from the environment do not redirect git: it
// finds the repository from the folder alone.
func TestEnvironmentDoesNotChooseTheRepository(t *testing.T) {
	dir := repo(t)
	other := repo(t)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.hookspath'='/tmp'")
	ctx := context.Background()
	g, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := g.Read(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("toplevel = %q, want %q", got, want)
	}
}

// A bare repository hidden in a folder is not discovered.
func TestEmbeddedBareRepositoryNotDiscovered(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	bare := filepath.Join(t.TempDir(), "b")
	plain(t, "", "init", "-q", "--bare", bare)
	ctx := context.Background()
	g, err := Open(ctx, bare)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Read(ctx, "rev-parse", "--git-dir"); err == nil {
		t.Fatal("a bare repository was used without being named")
	}
	_ = dir
}

func TestNeutraliseKeepsTheUsersValues(t *testing.T) {
	t.Parallel()
	list := strings.Join([]string{
		"global", "credential.helper\nstore",
		"global", "gpg.program\n/usr/bin/gpg2",
		"global", "core.editor\nvim",
		"global", "filter.lfs.process\ngit-lfs filter-process",
		"global", "filter.lfs.required\ntrue",
		"local", "credential.helper\n!evil",
		"local", "gpg.program\nevil",
		"local", "filter.a=b.clean\nevil",
		"local", "user.name\nMallory",
		"local", "core.fsmonitor\nevil",
		"worktree", "diff.x.textconv\nevil",
		"global", "credential.helper\ncache",
	}, "\x00") + "\x00"
	got := neutralise([]byte(list))
	want := [][2]string{
		// every driver's programs, the user's too: off, never given back,
		// and no filter required
		{"filter.lfs.process", ""}, {"filter.lfs.required", "false"},
		{"filter.a=b.clean", ""}, {"filter.a=b.required", "false"},
		{"diff.x.textconv", ""},
		// the program keys without a subsection: always reset, the user's
		// own value given back
		{"core.askpass", ""},
		{"core.editor", ""}, {"core.editor", "vim"},
		{"sequence.editor", ""}, {"diff.external", ""}, {"interactive.difffilter", ""},
		{"core.alternaterefscommand", ""},
		{"gpg.program", ""}, {"gpg.program", "/usr/bin/gpg2"},
		{"gpg.openpgp.program", ""}, {"gpg.x509.program", ""}, {"gpg.ssh.program", ""},
		{"gpg.ssh.defaultkeycommand", ""},
		// (core.fsmonitor is fixed)
		// every helper cleared last, the user's given back in order
		{"credential.helper", ""}, {"credential.helper", "store"}, {"credential.helper", "cache"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("neutralise:\n got %q\nwant %q", got, want)
	}
}

func TestGitMessageIsOneReadableLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"fatal: not a git repository (or any of the parent directories): .git\n", "fatal: not a git repository (or any of the parent directories): .git"},
		{"Author identity unknown\n\n*** Please tell me who you are.\n\nfatal: unable to auto-detect email address\n",
			"Author identity unknown; *** Please tell me who you are.; fatal: unable to auto-detect email address"},
		{"To /tmp/r.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to '/tmp/r.git'\nhint: Updates were rejected because the remote contains work\nhint: that you do not have locally.\n",
			"To /tmp/r.git; ! [rejected]        main -> main (fetch first); error: failed to push some refs to '/tmp/r.git'"},
		{"error: bad name \x1b[31mred\r\n", `error: bad name \x1b[31mred`},
	} {
		if got := gitMessage(tc.in); got != tc.want {
			t.Errorf("gitMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// git's several lines ("nothing to commit" comes on stdout, in paragraphs)
// reach the person as one line, not with escaped line breaks.
func TestFailureMessageHasNoEscapedLineBreaks(t *testing.T) {
	t.Parallel()
	dir := repo(t)
	ctx := context.Background()
	g, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.Run(ctx, "commit", "-m", "x")
	if err == nil {
		t.Fatal("a commit with nothing to commit succeeded")
	}
	if !strings.Contains(err.Error(), "nothing to commit") {
		t.Errorf("error lost git's message: %q", err)
	}
	if strings.Contains(err.Error(), `\n`) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error shows line breaks: %q", err)
	}
	if !strings.HasPrefix(err.Error(), "git commit: exit status ") {
		t.Errorf("error does not name the command: %q", err)
	}
}
