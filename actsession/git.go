package actsession

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/gitexec"
	"github.com/tp-dev/tp/internal/sanitize"
)

// Acts across machines (D20): when the acts dir is a git working tree with
// an upstream, commands that write records commit them (one commit per
// command) and push; commands that read pull first. One file per record
// (D9) means two machines never write the same file, so merging their
// commits never conflicts on records; a conflict in any other file (say
// allowed_signers) stops the pull and undoes it, leaving nothing half
// merged. A push that fails leaves the commit local; the next command's
// pull step pushes it.

// Repo is an acts dir inside a git working tree that has an upstream.
type Repo struct {
	Dir      string // the acts dir
	Upstream string // e.g. origin/main
	remote   string // the upstream's remote, e.g. origin
	branch   string // the upstream's branch there, e.g. refs/heads/main
	prefix   string // the acts dir's path in the work tree, "" or ending in "/"
	g        *gitexec.Git

	email     string // user.email, when emailRead
	emailRead bool
}

// OpenRepo returns the acts dir's repository, or nil when the dir is not
// in a git working tree, has no upstream, or git is not installed: the log
// then stays on this disk.
func OpenRepo(ctx context.Context, dir string) (*Repo, error) {
	if _, err := os.Stat(dir); err != nil || !insideGitTree(dir) {
		return nil, nil // no git process for an acts dir that is no repository
	}
	g, err := gitexec.Open(ctx, dir)
	if errors.Is(err, gitexec.ErrNoGit) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// One rev-parse says whether dir is in a work tree, where in it (the
	// prefix git's porcelain paths carry), the branch and its upstream; it
	// fails on a detached HEAD or a branch without one. It is probed: a
	// core.worktree in the repository's config moves the work tree.
	out, err := g.Read(ctx, "rev-parse", "--is-inside-work-tree", "--show-prefix", "--symbolic-full-name", "HEAD", "--abbrev-ref", "@{upstream}")
	lines := strings.Split(string(out), "\n")
	if err != nil || len(lines) < 4 || lines[0] != "true" || !strings.HasPrefix(lines[2], "refs/heads/") {
		return nil, nil
	}
	b := strings.TrimPrefix(lines[2], "refs/heads/")
	// Fetch from and push to the upstream by name: a bare `git push`
	// would follow pushRemote, push.default and remote.*.push, which the
	// repository's config chooses. The branch's remote and merge and the
	// committer's address come from one listing, matched here exactly
	// (the last value wins, as git's --get).
	r := &Repo{Dir: dir, Upstream: lines[3], prefix: lines[1], g: g, emailRead: true}
	cfg, _ := g.Read(ctx, "config", "--null", "--get-regexp", `^(branch\..*\.(remote|merge)|user\.email)$`)
	for _, e := range strings.Split(string(cfg), "\x00") {
		key, value, _ := strings.Cut(e, "\n")
		switch key {
		case "branch." + b + ".remote":
			r.remote = value
		case "branch." + b + ".merge":
			r.branch = value
		case "user.email":
			r.email = value
		}
	}
	if r.remote == "" || r.remote == "." || strings.HasPrefix(r.remote, "-") || !strings.HasPrefix(r.branch, "refs/heads/") {
		return nil, fmt.Errorf("%s: the branch's upstream (%s) is not a branch of a remote; tp pushes the acts log only to one (D20)", dir, r.Upstream)
	}
	return r, nil
}

// insideGitTree reports whether dir or a folder above it has a .git entry
// (a folder, or the file a worktree or submodule has).
func insideGitTree(dir string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return true // let git decide
	}
	for {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		up := filepath.Dir(d)
		if up == d {
			return false
		}
		d = up
	}
}

// GitConflictError is a pull that would merge changes to the same file made on
// two machines. The merge was undone: nothing changed here.
type GitConflictError struct {
	Dir   string
	Files []string
}

func (e *GitConflictError) Error() string {
	return fmt.Sprintf("%s: pulling from upstream conflicts in %s (changed here and on another machine); the merge was undone and nothing changed — resolve it with git in that folder, then run tp again",
		e.Dir, strings.Join(e.Files, ", "))
}

// Pull fetches the upstream and merges it, then pushes commits an earlier
// command could not push. warn is a fetch or push that failed (the
// upstream unreachable: the command works on this machine's copy and its
// commits stay local, nothing is lost); err is a merge that could not be
// made (a conflict), after which nothing changed.
func (r *Repo) Pull(ctx context.Context) (warn, err error) {
	if _, ferr := r.g.Run(ctx, "fetch", "--quiet", r.remote); ferr != nil {
		// Records written with --offline (or by a command whose commit
		// failed) are committed all the same; a later command pushes them.
		if _, err := r.Commit(ctx, offlineSubject); err != nil {
			return nil, err
		}
		return fmt.Errorf("%s: %w (working on this machine's copy; what is written here is pushed by a later command)", r.Dir, ferr), nil
	}
	// One status, after the fetch, says both what is loose under the acts
	// dir and how far HEAD and the upstream it fetched are apart.
	st, err := r.status(ctx, true)
	if err != nil {
		return nil, err
	}
	// Records written with --offline (or by a command whose commit
	// failed) are committed first, so the merge never meets them loose.
	done, err := r.commit(ctx, offlineSubject, st)
	if err != nil {
		return nil, err
	}
	ahead, behind := st.ahead, st.behind
	switch {
	case !st.counted:
		// No counts in the status (the upstream's branch is gone): ask
		// rev-list, which says why.
		if behind, ahead, err = r.counts(ctx); err != nil {
			return nil, err
		}
	case done:
		ahead++
	}
	if ahead, err = r.mergeBehind(ctx, behind, ahead); err != nil {
		return nil, err
	}
	if ahead == 0 {
		return nil, nil
	}
	// Push the commits an earlier command could not.
	return r.push(ctx), nil
}

// offlineSubject is the message of the commit Pull makes of loose records.
const offlineSubject = "tp acts: records written while offline"

// merge merges the upstream when it has commits HEAD lacks, and returns
// how many commits HEAD then has that the upstream lacks (what a push
// would send).
func (r *Repo) merge(ctx context.Context) (ahead int, err error) {
	behind, ahead, err := r.counts(ctx)
	if err != nil {
		return ahead, err
	}
	return r.mergeBehind(ctx, behind, ahead)
}

// mergeBehind is merge once the counts are known: behind commits the
// upstream has that HEAD lacks, ahead the other way. Past the merge, ahead
// is 0 or more than 0 as what a push would send is, not always its count.
func (r *Repo) mergeBehind(ctx context.Context, behind, ahead int) (int, error) {
	if behind == 0 {
		return ahead, nil
	}
	if _, err := r.g.Run(ctx, append(r.identity(ctx), "merge", "--no-edit", "--quiet", "@{upstream}")...); err != nil {
		out, _ := r.g.Read(ctx, "diff", "--name-only", "--diff-filter=U")
		files := strings.Fields(string(out))
		if _, aerr := r.g.Run(ctx, "merge", "--abort"); aerr != nil && len(files) > 0 {
			return 0, fmt.Errorf("%s: merge failed (%v) and could not be undone (%v): resolve it with git", r.Dir, err, aerr)
		}
		if len(files) > 0 {
			sort.Strings(files)
			return 0, &GitConflictError{Dir: r.Dir, Files: files}
		}
		return 0, fmt.Errorf("%s: merging the upstream: %w (nothing changed)", r.Dir, err)
	}
	if ahead > 0 {
		return ahead, nil // the merge only adds to what HEAD has
	}
	// HEAD was behind only: a fast-forward leaves HEAD at the upstream and
	// nothing to push, a merge commit (merge.ff=false in the repository's
	// config) one. Two names, read from the refs alone.
	out, err := r.g.Read(ctx, "rev-parse", "HEAD", "@{upstream}")
	if err != nil {
		return 0, fmt.Errorf("%s: %w", r.Dir, err)
	}
	if heads := strings.Fields(string(out)); len(heads) == 2 && heads[0] == heads[1] {
		return 0, nil
	}
	return 1, nil
}

// counts is how many commits the upstream has that HEAD lacks, and HEAD
// has that the upstream lacks, from one rev-list.
func (r *Repo) counts(ctx context.Context) (behind, ahead int, err error) {
	out, err := r.g.Read(ctx, "rev-list", "--left-right", "--count", "@{upstream}...HEAD")
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", r.Dir, err)
	}
	if _, err := fmt.Sscan(string(out), &behind, &ahead); err != nil {
		return 0, 0, fmt.Errorf("%s: git rev-list: %q: %w", r.Dir, sanitize.Line(string(out)), err)
	}
	return behind, ahead, nil
}

func (r *Repo) push(ctx context.Context) error {
	if _, err := r.g.Push(ctx, r.remote, "HEAD:"+r.branch); err != nil {
		if errors.Is(err, gitexec.ErrMixedPushURLs) {
			return fmt.Errorf("%s: %w", r.Dir, err)
		}
		return fmt.Errorf("%s: %w (the commit stays here; the next tp acts command pushes it)", r.Dir, err)
	}
	return nil
}

// Commit commits everything new or changed under the acts dir as one
// commit whose message is subject and the records it adds; false when
// there was nothing to commit.
func (r *Repo) Commit(ctx context.Context, subject string) (bool, error) {
	st, err := r.status(ctx, false)
	if err != nil {
		return false, err
	}
	return r.commit(ctx, subject, st)
}

// commit is Commit after the status: it adds what the status found and
// commits it, naming each file. What tp writes is committed even where an
// ignore rule says otherwise: a .gitignore a remote pushed (or an agent
// wrote, or .git/info/exclude, or core.excludesFile in the clone's config)
// would keep the principal's settlement on this machine, never pushed,
// with nothing said (D20).
func (r *Repo) commit(ctx context.Context, subject string, st gitStatus) (bool, error) {
	if len(st.names) == 0 {
		return false, nil // no add: the common case of Pull's commit
	}
	// Per-machine files stay out even without the .gitignore init writes.
	if _, err := r.g.Run(ctx, "add", "--all", "--", ".", ":(exclude,glob)**/*.lock", ":(exclude,glob)**/.tmp-*"); err != nil {
		return false, fmt.Errorf("%s: %w", r.Dir, err)
	}
	if len(st.force) > 0 {
		if _, err := r.g.Run(ctx, append([]string{"add", "--force", "--"}, st.force...)...); err != nil {
			return false, fmt.Errorf("%s: %w", r.Dir, err)
		}
	}
	var b strings.Builder
	b.WriteString(subject)
	b.WriteString("\n\n")
	for _, n := range st.names {
		b.WriteString(describePath(n))
		b.WriteByte('\n')
	}
	args := append(r.identity(ctx), "commit", "--quiet", "--no-verify", "--no-gpg-sign", "-m", b.String(), "--", ".")
	if _, err := r.g.Run(ctx, args...); err != nil {
		// A change the add made nothing of (staged, then undone in the
		// work tree; a file the attributes normalise back) leaves nothing
		// to commit, which is no error.
		if _, derr := r.g.Read(ctx, "diff", "--cached", "--quiet", "--no-ext-diff", "--no-textconv", "HEAD", "--", "."); derr == nil {
			return false, nil
		}
		return false, fmt.Errorf("%s: %w", r.Dir, err)
	}
	return true, nil
}

// gitStatus is what one `git status` of the acts dir says.
type gitStatus struct {
	// names are the files the commit takes, relative to the acts dir and
	// sorted: every change but an ignored file that is not the log's and a
	// per-machine file (a lock, a writer's temporary file); force are the
	// ignored ones that are the log's.
	names, force []string
	// ahead and behind count the commits HEAD has that the upstream lacks
	// and the other way, when counted (asked for, and the upstream there).
	ahead, behind int
	counted       bool
}

// status runs `git status --porcelain=v2 -z --ignored` of the acts dir,
// with the branch's counts against its upstream when branch is set.
func (r *Repo) status(ctx context.Context, branch bool) (gitStatus, error) {
	args := []string{"status", "--porcelain=v2", "-z", "--no-renames", "--untracked-files=all", "--ignored"}
	if branch {
		args = append(args, "--branch", "--ahead-behind")
	}
	out, err := r.g.Read(ctx, append(args, "--", ".")...)
	if err != nil {
		return gitStatus{}, fmt.Errorf("%s: %w", r.Dir, err)
	}
	return r.parseStatus(out)
}

// parseStatus reads porcelain v2 (git-status(1)), NUL-terminated: headers
// ("# branch.ab +A -B"), changed entries ("1 XY sub mH mI mW hH hI path",
// "u XY sub m1 m2 m3 mW h1 h2 h3 path", "2 …" with the original path in
// the next field), untracked ("? path") and ignored ("! path"). Paths are
// the work tree's; the acts dir's prefix is taken off.
func (r *Repo) parseStatus(out []byte) (gitStatus, error) {
	var st gitStatus
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		e := fields[i]
		if len(e) < 2 || e[1] != ' ' {
			continue
		}
		var p string
		switch e[0] {
		case '#':
			if ab, ok := strings.CutPrefix(e, "# branch.ab "); ok {
				if _, err := fmt.Sscanf(ab, "+%d -%d", &st.ahead, &st.behind); err != nil {
					return gitStatus{}, fmt.Errorf("%s: git status: %q: %w", r.Dir, sanitize.Line(e), err)
				}
				st.counted = true
			}
			continue
		case '1':
			p = nthField(e, 8)
		case '2':
			p = nthField(e, 9)
			i++ // the original path
		case 'u':
			p = nthField(e, 10)
		case '?', '!':
			p = e[2:]
		default:
			continue
		}
		rel, ok := strings.CutPrefix(p, r.prefix)
		switch {
		case p == "":
		case e[0] == '!':
			if ok && logFile(rel) {
				st.force = append(st.force, rel)
				st.names = append(st.names, rel)
			}
		case perMachine(p):
		case ok:
			st.names = append(st.names, rel)
		}
	}
	sort.Strings(st.names)
	return st, nil
}

// nthField is what follows the first n spaces of e (a path, which may hold
// spaces itself), or "" when e has fewer.
func nthField(e string, n int) string {
	for ; n > 0; n-- {
		sp := strings.IndexByte(e, ' ')
		if sp < 0 {
			return ""
		}
		e = e[sp+1:]
	}
	return e
}

// perMachine reports whether p is a file the add's exclusions leave out:
// a lock or a writer's temporary file.
func perMachine(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	return strings.HasSuffix(base, ".lock") || strings.HasPrefix(base, ".tmp-")
}

// identity is what git needs to make a commit (or a merge commit) when the
// user has configured none: git refuses without one, and the records say
// who wrote them, so the commit's author matters less than the record's.
// user.email is read with the upstream when the repository is opened
// (OpenRepo), else here once.
func (r *Repo) identity(ctx context.Context) []string {
	if !r.emailRead {
		who, _ := r.g.Read(ctx, "config", "user.email")
		r.email, r.emailRead = string(who), true
	}
	if strings.TrimSpace(r.email) != "" {
		return nil
	}
	return []string{"-c", "user.name=tp", "-c", "user.email=tp@localhost"}
}

// Push pushes this clone's commits; on a rejected push (the upstream moved
// on) it pulls once and pushes again. A failure leaves the commit local.
func (r *Repo) Push(ctx context.Context) error {
	if err := r.push(ctx); err == nil {
		return nil
	}
	if _, err := r.g.Run(ctx, "fetch", "--quiet", r.remote); err != nil {
		return fmt.Errorf("%s: %w (the commit stays here; the next tp acts command pushes it)", r.Dir, err)
	}
	if _, err := r.merge(ctx); err != nil {
		return err
	}
	return r.push(ctx)
}

// logFile reports whether p (relative to the acts dir, as git prints it)
// is a file of the log tp writes: a record, an acknowledgement, a
// principal change or allowed_signers of a project folder tp named, never
// a writer's temporary file or a lock.
func logFile(p string) bool {
	parts := strings.Split(filepath.ToSlash(p), "/")
	if _, ok := recordlog.DecodeName(parts[0]); !ok || len(parts) < 2 {
		return false
	}
	last := parts[len(parts)-1]
	if durable.IsTemp(last) || strings.HasSuffix(last, ".lock") {
		return false
	}
	switch {
	case len(parts) == 2:
		return parts[1] == "allowed_signers"
	case len(parts) == 3:
		switch parts[1] {
		case "records", "principals":
			return strings.HasSuffix(last, ".json")
		case "acked":
			return true
		}
	}
	return false
}

// describePath names what a file of the log is, for commit messages:
// "record <id> (<project>)", "acknowledged <id>", or the path.
func describePath(p string) string {
	parts := strings.Split(filepath.ToSlash(p), "/")
	if len(parts) != 3 {
		return p
	}
	project, ok := recordlog.DecodeName(parts[0])
	if !ok {
		return p
	}
	switch parts[1] {
	case "records":
		if id, ok := recordlog.DecodeName(strings.TrimSuffix(parts[2], ".json")); ok {
			return "record " + id + " (" + project + ")"
		}
	case "acked":
		if id, ok := recordlog.DecodeName(parts[2]); ok {
			return "acknowledged " + id + " (" + project + ")"
		}
	case "principals":
		return "principal change " + strings.TrimSuffix(parts[2], ".json") + " (" + project + ")"
	}
	return p
}

// GitIgnore is what an acts repository ignores: per-machine lock files and
// writers' temporary files.
const GitIgnore = "# per machine, never shared (tp acts)\n*.lock\n.registrar.lock\n.tmp-*\n"

// InitRepo makes dir the acts dir over git (D20): it clones url into dir
// (which must not exist, or be empty); an empty repository gets a first
// commit (the .gitignore of per-machine files), pushed with its upstream
// set. A dir that already is such a clone of url is left as it is.
func InitRepo(ctx context.Context, dir, url string) (created bool, err error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		r, rerr := OpenRepo(ctx, dir)
		if rerr == nil && r != nil {
			if got, _ := r.g.Read(ctx, "remote", "get-url", "origin"); strings.TrimSpace(string(got)) == url {
				return false, nil
			}
		}
		return false, fmt.Errorf("%s exists and is not empty (and is not a clone of %s with an upstream): move it away, or make it one with git by hand", dir, url)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return false, err
	}
	g, err := gitexec.Open(ctx, parent)
	if err != nil {
		return false, err
	}
	if _, err := g.Run(ctx, "clone", "--quiet", "--", url, dir); err != nil {
		return false, err
	}
	cg, err := gitexec.Open(ctx, dir)
	if err != nil {
		return false, err
	}
	empty := false
	if _, err := cg.Read(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		empty = true
	}
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); err == nil && !empty {
		return false, nil
	}
	if err := os.WriteFile(ignore, []byte(GitIgnore), 0o644); err != nil {
		return false, err
	}
	r := &Repo{Dir: dir, g: cg}
	if _, err := r.Commit(ctx, "tp acts init: the acts log (D20)"); err != nil {
		return false, err
	}
	branch, err := cg.Read(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return false, fmt.Errorf("%s: %w", dir, err)
	}
	b := strings.TrimSpace(string(branch))
	if _, err := cg.Push(ctx, "origin", "HEAD:refs/heads/"+b); err != nil {
		return false, fmt.Errorf("%s: %w", dir, err)
	}
	if _, err := cg.Run(ctx, "branch", "--quiet", "--set-upstream-to=origin/"+b); err != nil {
		return false, fmt.Errorf("%s: %w", dir, err)
	}
	return empty, nil
}
