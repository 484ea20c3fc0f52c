// Package gitexec is the one way tp runs the system git.
//
// A folder tp runs git in may have come out of a pack, or be an acts
// repository an agent or a remote can write (D20): its .git/config can name
// programs (core.fsmonitor, hooks, filter drivers, gpg.program,
// remote.*.uploadpack, …), directly or through include.path/includeIf, that
// plain `git status`, `git fetch` or `git commit` would run. Every git
// process started here therefore (D20 lists the rules and what they leave
// open):
//
//   - has hooks off (core.hooksPath is the null device, and every hook
//     named in configuration and every hook event switched off), fsmonitor off,
//     signing and signature checks off, and the user's own value (or none)
//     for every program key git reads last-wins (core.askPass, gpg.program,
//     gpg.<format>.program, diff.external, core.pager, …), set in command
//     scope, which git reads after every file and every include;
//   - gets core.sshCommand, the git:// proxy and the editors through the
//     environment (GIT_SSH_COMMAND, GIT_PROXY_COMMAND, GIT_EDITOR), which
//     git consults before any config;
//   - has credential.helper reset in command scope and given back the user's
//     global helpers, so no helper of the repository's is asked;
//   - for the program keys with a subsection no fixed list can name
//     (filter.<driver>.*, merge.<driver>.driver, diff.<driver>.*,
//     remote.<name>.vcs, pager.<cmd>), reads right before each command which
//     ones the repository sets (the listing runs nothing and includes what
//     include.path pulls in) and resets them — except before the few
//     queries of refs and configuration that no such key acts on ([inert]);
//   - fetches, clones and pushes with --upload-pack=git-upload-pack and
//     --receive-pack=git-receive-pack on the command line: those two keys
//     are read first-wins, so no later config could override them;
//   - refuses a partial clone (a promisor remote in the repository's
//     config), and forbids every transport to each command that is not a
//     fetch, pull, clone, ls-remote or push, so that no fetch of a missing
//     object on demand runs the repository's upload-pack or credential
//     helpers ([ErrPromisor], noTransport);
//   - runs no filter, diff or merge driver, the user's global ones
//     included: the attributes that choose a driver are the remote's in an
//     acts clone (driversOff);
//   - never goes into a submodule: no recursion on fetch, push, merge or
//     checkout, and status and diff ignore submodules, whose own config
//     the probe never sees;
//   - pushes to a repository on this disk (a path or file:// URL, as the
//     remote's url or pushurl) with a receive-pack that has hooks off, so the
//     pushed-to repository's pre-receive/update/post-receive hooks never run
//     as the user ([Git.Push]);
//   - never discovers a bare repository on its own (safe.bareRepository),
//     never uses the ext:: transport, reads no system config
//     (GIT_CONFIG_NOSYSTEM) and inherits no GIT_DIR, GIT_WORK_TREE or
//     config from the environment;
//   - when it only reads, takes no optional locks.
//
// The overrides are passed as GIT_CONFIG_COUNT/KEY/VALUE (command scope, the
// highest), which child git processes (submodules) inherit as well, and which
// carry any subsection name, even one holding '='.
package gitexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tp-dev/tp/internal/sanitize"
)

// fixed is the configuration every git process gets, whatever the scopes say.
var fixed = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", os.DevNull},
	{"core.pager", "cat"},
	{"protocol.ext.allow", "never"},
	{"safe.bareRepository", "explicit"},
	{"commit.verbose", "false"},
	{"commit.gpgSign", "false"},
	{"tag.gpgSign", "false"},
	{"push.gpgSign", "false"},
	{"merge.verifySignatures", "false"},
	{"pull.verifySignatures", "false"},
	{"log.showSignature", "false"},
	{"gc.auto", "0"},
	{"maintenance.auto", "false"},
	{"receive.denyCurrentBranch", "refuse"},
	{"receive.autogc", "false"},
	// A submodule is a repository whose config the probe never reads:
	// git must not go into one on its own (fetching it with its remote's
	// upload-pack, checking it out or asking its status through its
	// filters). status and diff also get --ignore-submodules=all, which
	// beats submodule.<name>.ignore (command).
	{"submodule.recurse", "false"},
	{"fetch.recurseSubmodules", "false"},
	{"push.recurseSubmodules", "no"},
	{"diff.ignoreSubmodules", "all"},
	{"status.submoduleSummary", "false"},
	// Not a program, but a way to hide files: a sparse checkout the
	// repository's config turns on keeps what a merge brings out of the
	// work tree, where tp reads the acts log (D20).
	{"core.sparseCheckout", "false"},
	// Every hook event off as a whole (hook.<event>.enabled, which gits
	// after 2.54 read): with hooks named in configuration (git 2.54),
	// core.hooksPath turns off only the hooks folder. Older gits take
	// these for hooks of those names and do nothing. One for each of
	// hookEvents, in its order (TestFixedSwitchesEveryEventOff); written
	// out so the table is data, not built at every tp start (issue 20).
	{"hook.applypatch-msg.enabled", "false"},
	{"hook.pre-applypatch.enabled", "false"},
	{"hook.post-applypatch.enabled", "false"},
	{"hook.pre-commit.enabled", "false"},
	{"hook.pre-merge-commit.enabled", "false"},
	{"hook.prepare-commit-msg.enabled", "false"},
	{"hook.commit-msg.enabled", "false"},
	{"hook.post-commit.enabled", "false"},
	{"hook.pre-rebase.enabled", "false"},
	{"hook.post-checkout.enabled", "false"},
	{"hook.post-merge.enabled", "false"},
	{"hook.pre-push.enabled", "false"},
	{"hook.pre-receive.enabled", "false"},
	{"hook.update.enabled", "false"},
	{"hook.proc-receive.enabled", "false"},
	{"hook.post-receive.enabled", "false"},
	{"hook.post-update.enabled", "false"},
	{"hook.reference-transaction.enabled", "false"},
	{"hook.push-to-checkout.enabled", "false"},
	{"hook.pre-auto-gc.enabled", "false"},
	{"hook.post-rewrite.enabled", "false"},
	{"hook.sendemail-validate.enabled", "false"},
	{"hook.fsmonitor-watchman.enabled", "false"},
	{"hook.p4-changelist.enabled", "false"},
	{"hook.p4-prepare-changelist.enabled", "false"},
	{"hook.p4-post-changelist.enabled", "false"},
	{"hook.p4-pre-submit.enabled", "false"},
	{"hook.post-index-change.enabled", "false"},
}

// hookEvents are git's hook events (githooks(5)).
var hookEvents = []string{
	"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
	"post-merge", "pre-push", "pre-receive", "update", "proc-receive", "post-receive",
	"post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
	"post-rewrite", "sendemail-validate", "fsmonitor-watchman", "p4-changelist",
	"p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit", "post-index-change",
}

// configHooksOff is, for every hook the listing names in configuration
// (hook.<name>.command, .event or .parallel, git 2.54) in any scope but
// the command line, the pairs that switch it off: no events, and
// enabled false. Hooks are off in every git tp runs, the user's own too,
// as with the hooks folder.
func configHooksOff(es []entry) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, e := range es {
		if e.scope == "command" || !strings.HasPrefix(e.key, "hook.") {
			continue
		}
		rest := e.key[len("hook."):]
		dot := strings.LastIndexByte(rest, '.')
		if dot <= 0 {
			continue
		}
		switch rest[dot+1:] {
		case "command", "event", "parallel":
		default:
			continue
		}
		name := rest[:dot]
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, [2]string{"hook." + name + ".event", ""}, [2]string{"hook." + name + ".enabled", "false"})
	}
	return out
}

// userKeys are the program keys without a subsection that git reads
// last-wins: each is reset in command scope and given the user's global
// value, if any (sequence.editor and core.editor are also beaten by
// GIT_SEQUENCE_EDITOR and GIT_EDITOR in baseEnv).
var userKeys = []string{
	"core.askpass", "core.editor", "sequence.editor", "diff.external",
	"interactive.difffilter", "core.alternaterefscommand",
	"gpg.program", "gpg.openpgp.program", "gpg.x509.program", "gpg.ssh.program",
	"gpg.ssh.defaultkeycommand",
}

// programKey matches the configuration keys whose value git runs (as a
// command or a program path) somewhere in its commands. Keys are matched as
// git prints them: section and name lower-cased, subsection as written.
var programKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)^(?:` +
		`core\.(?:fsmonitor|hookspath|sshcommand|gitproxy|askpass|editor|pager|alternaterefscommand)` +
		`|sequence\.editor|diff\.external|interactive\.difffilter|commit\.gpgsign|tag\.gpgsign` +
		`|gpg\.program|gpg\..*\.program|gpg\.ssh\.defaultkeycommand` +
		`|credential\.helper|credential\..*\.helper` +
		`|filter\..*\.(?:clean|smudge|process)` +
		`|diff\..*\.(?:textconv|command)` +
		`|merge\..*\.driver` +
		`|remote\..*\.(?:uploadpack|receivepack|vcs)` +
		`|pager\..*|uploadpack\.packobjectshook` +
		`)$`)
}) // compiled on first use, not at every tp start

// passThrough names the GIT_ variables of the user's environment a git
// process keeps: who commits, and how the user reaches remotes. Every other
// GIT_ variable (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_CONFIG_*, …)
// is dropped so git finds the repository from the folder alone.
func passThrough(k string) bool {
	switch k {
	case "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
		"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
		"GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT",
		"GIT_ASKPASS", "GIT_TERMINAL_PROMPT", "GIT_CONFIG_GLOBAL",
		"GIT_PROXY_COMMAND":
		return true
	}
	return false
}

// Git runs git in one folder.
type Git struct {
	Dir  string
	base []string // the environment before the config overrides

	onProbe func() // called before each configuration probe (tests count them)
}

// ErrNoGit is returned when git is not on PATH.
var ErrNoGit = errors.New("git is not installed (not found on PATH)")

// Open prepares git for dir. A dir outside any repository is fine; commands
// then fail as git says. Which keys the repository sets is read again
// before each command (see [Git.Command]).
func Open(ctx context.Context, dir string) (*Git, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, ErrNoGit
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return &Git{Dir: dir, base: baseEnv(os.Environ())}, nil
}

// overridesAndTree is the command-scope configuration for the next
// command: the fixed values, the user's values for userKeys and credential
// helpers, and the resets for whatever program key the repository's config
// sets now.
// It also returns the work tree the command must be
// given ("" when git's own choice is safe): when the repository's config
// sets core.worktree (directly or through an include), the folder that
// holds the .git entry git found. A core.worktree an agent wrote into the
// acts clone's .git/config would otherwise make the next merge write
// what the remote brings into any folder — the user's home, the trust
// store — and every add and commit read from there (D20). GIT_WORK_TREE
// beats core.worktree; a submodule's own core.worktree names that same
// folder, so it keeps working.
func (g *Git) overridesAndTree(ctx context.Context) ([][2]string, string, error) {
	// The probe itself runs with the fixed overrides: reading config runs
	// nothing, but keep one way in.
	list := g.listConfig(ctx)
	// A probe that fails (no repository, unreadable config) leaves the
	// fixed overrides and the resets; the command that follows fails the
	// same way.
	pairs := append([][2]string(nil), fixed...)
	tree := ""
	for _, e := range parseList(list) {
		if e.key == "core.worktree" && e.scope != "command" {
			tree = ownTree(g.Dir)
		}
		if promisorKey(e) {
			return nil, "", fmt.Errorf("git in %s: %w (%s)", sanitize.Line(g.Dir), ErrPromisor, sanitize.Line(e.key))
		}
	}
	return append(pairs, neutralise(list)...), tree, nil
}

// listConfig is `git config --null --show-scope --list` in the folder
// (before it, opts: --git-dir=… for another repository), run with the
// fixed overrides: reading config runs nothing, but keep one way in. nil
// when it fails (no repository, unreadable config).
func (g *Git) listConfig(ctx context.Context, opts ...string) []byte {
	args := append(append([]string{"--no-optional-locks"}, opts...), "config", "--null", "--show-scope", "--list")
	probe := exec.CommandContext(ctx, "git", args...)
	probe.Dir = g.Dir
	probe.Env = withConfig(g.base, fixed)
	var out bytes.Buffer
	probe.Stdout = &out
	if probe.Run() != nil {
		return nil
	}
	return out.Bytes()
}

// ErrPromisor is a repository whose configuration names a promisor remote
// (a partial clone). git fetches a missing object from it on demand, from
// within any command that reads one, as a child fetch that runs the
// repository's own remote.<name>.uploadpack: no command-line option
// reaches it, and neither key can be turned off from command scope (a
// promisor named false later is still one, and extensions.partialClone is
// read from the repository's file alone). tp runs git only in full clones
// (D20).
var ErrPromisor = errors.New("the repository is a partial clone (it names a promisor remote); tp runs git only in a full clone, since git would fetch missing objects with the repository's own programs")

// promisorKey: extensions.partialClone, or remote.<name>.promisor set to
// anything but false, in the repository's own configuration or what it
// includes (the user's global and command-line settings are the user's).
func promisorKey(e entry) bool {
	if e.scope != "local" && e.scope != "worktree" {
		return false
	}
	if e.key == "extensions.partialclone" {
		return true
	}
	if strings.HasPrefix(e.key, "remote.") && strings.HasSuffix(e.key, ".promisor") {
		switch strings.ToLower(e.value) {
		case "false", "no", "off", "0":
			return false
		}
		return true
	}
	return false
}

// ownTree is the folder at or above dir that holds a .git entry (a folder,
// or the file of a worktree or submodule): where git finds the
// repository, and so where its work tree belongs. "" when there is none.
func ownTree(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

type entry struct{ scope, key, value string }

func parseList(list []byte) []entry {
	var es []entry
	fields := bytes.Split(list, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		scope := string(fields[i])
		kv := string(fields[i+1])
		key, value, _ := strings.Cut(kv, "\n")
		es = append(es, entry{scope, key, value})
	}
	return es
}

// neutralise turns `git config --null --show-scope --list` output into the
// overrides that take away the repository's say over programs: every key
// of userKeys and credential.helper, and every other program key set in
// local or worktree scope (include.path's content is listed in the scope
// of the file that includes it), is first reset to empty and then given
// each value the user's global or command-line config has for it, in order
// (multi-valued keys such as credential.helper keep the user's list).
func neutralise(list []byte) [][2]string {
	es := parseList(list)
	order := append([]string(nil), userKeys...)
	seen := map[string]bool{}
	for _, k := range order {
		seen[k] = true
	}
	for _, e := range es {
		if (e.scope == "local" || e.scope == "worktree") && programKey().MatchString(e.key) && !seen[e.key] && !isCredential(e.key) && !isDriver(e.key) {
			seen[e.key] = true
			order = append(order, e.key)
		}
	}
	pairs := driversOff(es)
	for _, k := range order {
		if isFixed(k) || isEnvOnly(k) {
			continue
		}
		pairs = append(pairs, [2]string{k, ""})
		for _, e := range es {
			if e.key == k && (e.scope == "global" || e.scope == "command") {
				pairs = append(pairs, [2]string{k, e.value})
			}
		}
	}
	pairs = append(pairs, configHooksOff(es)...)
	// An empty credential.helper in the last scope clears every helper
	// named before it, credential.<url>.helper included; the user's global
	// helpers, of either form, are then named again in their order.
	pairs = append(pairs, [2]string{"credential.helper", ""})
	for _, e := range es {
		if isCredential(e.key) && (e.scope == "global" || e.scope == "command") {
			pairs = append(pairs, [2]string{e.key, e.value})
		}
	}
	return pairs
}

// driversOff is, for every filter, diff and merge driver any scope but
// the command line names, the pairs that switch it off: its programs
// empty (git then leaves the content as it is) and a filter not required
// (a required filter with no program would make every checkout fail).
// Unlike the other program keys, the user's global drivers are not given
// back: a driver runs where a file's attributes name it, and the
// attributes in an acts clone are the remote's (a pushed .gitattributes
// chose which of the user's drivers — git-lfs's filter, installed in the
// global config for every repository — ran on content the remote wrote,
// and git-lfs then asked the server a pushed .lfsconfig named). Nothing tp
// keeps in git needs a driver (D20, TestUserDriversRunOnNoPushedAttributes).
func driversOff(es []entry) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, e := range es {
		if e.scope == "command" {
			continue
		}
		if isDriver(e.key) && !seen[e.key] {
			seen[e.key] = true
			out = append(out, [2]string{e.key, ""})
		}
		if name, ok := filterName(e.key); ok && !seen["filter "+name] {
			seen["filter "+name] = true
			out = append(out, [2]string{"filter." + name + ".required", "false"})
		}
	}
	return out
}

// isDriver: a program key of a filter, diff or merge driver
// (filter.<driver>.clean|smudge|process, diff.<driver>.textconv|command,
// merge.<driver>.driver), keys as git lists them.
func isDriver(key string) bool {
	section, rest, ok := strings.Cut(key, ".")
	if !ok {
		return false
	}
	dot := strings.LastIndexByte(rest, '.')
	if dot <= 0 {
		return false // no subsection: diff.external and the like
	}
	switch name := rest[dot+1:]; section {
	case "filter":
		return name == "clean" || name == "smudge" || name == "process"
	case "diff":
		return name == "textconv" || name == "command"
	case "merge":
		return name == "driver"
	}
	return false
}

// filterName is the driver of a filter.<driver>.<name> key.
func filterName(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "filter.")
	if !ok {
		return "", false
	}
	dot := strings.LastIndexByte(rest, '.')
	if dot <= 0 {
		return "", false
	}
	return rest[:dot], true
}

func isCredential(key string) bool {
	return strings.HasPrefix(key, "credential.") && strings.HasSuffix(key, ".helper") || key == "credential.helper"
}

// isEnvOnly names the keys whose value comes from the environment (baseEnv),
// which git reads before any config.
func isEnvOnly(key string) bool {
	switch key {
	case "core.sshcommand", "core.gitproxy":
		return true
	}
	// remote.<name>.uploadpack/receivepack are beaten on the command line.
	return strings.HasPrefix(key, "remote.") && (strings.HasSuffix(key, ".uploadpack") || strings.HasSuffix(key, ".receivepack"))
}

func isFixed(key string) bool {
	for _, f := range fixed {
		if strings.EqualFold(f[0], key) {
			return true
		}
	}
	return false
}

// baseEnv is env without the GIT_ variables a repository-bound command
// must not inherit, with system config off, the editors and pager fixed,
// and ssh and the git:// proxy chosen from the environment (which git
// consults before core.sshCommand and core.gitProxy, so a repository's
// values for them are never read).
func baseEnv(env []string) []string {
	out := make([]string, 0, len(env)+6)
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") && !passThrough(k) {
			continue
		}
		vars[k] = v
		if k == "GIT_SSH_COMMAND" || k == "GIT_PROXY_COMMAND" {
			continue // set below
		}
		out = append(out, kv)
	}
	ssh := vars["GIT_SSH_COMMAND"]
	if ssh == "" {
		if prog := vars["GIT_SSH"]; prog != "" {
			ssh = shellQuote(prog)
		} else {
			ssh = "ssh"
		}
	}
	// An empty GIT_PROXY_COMMAND stops git reading core.gitProxy and uses
	// no proxy; a user's own is kept.
	return append(out,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_PAGER=cat",
		"GIT_EDITOR=:",
		"GIT_SEQUENCE_EDITOR=:",
		"GIT_SSH_COMMAND="+ssh,
		"GIT_PROXY_COMMAND="+vars["GIT_PROXY_COMMAND"],
	)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// withConfig appends pairs as command-scope configuration.
func withConfig(env []string, pairs [][2]string) []string {
	out := append([]string(nil), env...)
	out = append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(len(pairs)))
	for i, p := range pairs {
		n := strconv.Itoa(i)
		out = append(out, "GIT_CONFIG_KEY_"+n+"="+p[0], "GIT_CONFIG_VALUE_"+n+"="+p[1])
	}
	return out
}

// Command is an *exec.Cmd running `git args…` in the folder with the
// protections above; the caller sets Stdin/Stdout/Stderr and runs it.
// fetch, pull, clone and ls-remote get --upload-pack=git-upload-pack, and
// push gets --receive-pack=git-receive-pack unless the caller (Push) named
// one: the repository's remote.<name>.uploadpack and receivepack are read
// first-wins, so only the command line beats them. Every other command may
// use no transport at all (noTransport). A repository whose configuration
// names a promisor remote is refused ([ErrPromisor]).
func (g *Git) Command(ctx context.Context, args ...string) (*exec.Cmd, error) {
	rest, _ := splitGlobal(args)
	if inert(rest) {
		// Nothing to neutralise: the query starts no program, reads no
		// object and uses no work tree, whatever the configuration says.
		return g.command(ctx, fixed, args), nil
	}
	if g.onProbe != nil {
		g.onProbe()
	}
	pairs, tree, err := g.overridesAndTree(ctx)
	if err != nil {
		return nil, err
	}
	cmd := g.command(ctx, pairs, args)
	if tree != "" {
		cmd.Env = append(cmd.Env, "GIT_WORK_TREE="+tree)
	}
	return cmd, nil
}

// transportCommands are the subcommands that talk to a remote on purpose.
var transportCommands = map[string]bool{"fetch": true, "pull": true, "clone": true, "ls-remote": true, "push": true}

// noTransport forbids every transport git knows, in command scope (which a
// child git inherits): a command that is not a fetch, push or clone never
// needs one, and the one way it could use one is an on-demand fetch of a
// missing object from a promisor remote — a child `git fetch` without
// tp's --upload-pack, which would run the repository's own upload-pack for
// a remote on this disk and its credential helpers for one over HTTP.
// A protocol.<name>.allow of the repository's own for a name not listed
// here can only reach a git-remote-<name> program already on PATH.
var noTransport = [][2]string{
	{"protocol.allow", "never"},
	{"protocol.file.allow", "never"},
	{"protocol.git.allow", "never"},
	{"protocol.ssh.allow", "never"},
	{"protocol.http.allow", "never"},
	{"protocol.https.allow", "never"},
	{"protocol.ftp.allow", "never"},
	{"protocol.ftps.allow", "never"},
}

func (g *Git) command(ctx context.Context, pairs [][2]string, args []string) *exec.Cmd {
	full := []string{"--no-pager"}
	args, opts := splitGlobal(args)
	full = append(full, opts...)
	if len(args) > 0 {
		full = append(full, args[0])
		switch args[0] {
		case "fetch", "pull", "clone", "ls-remote":
			full = append(full, "--upload-pack=git-upload-pack")
		case "push":
			if !hasPrefixArg(args[1:], "--receive-pack=") {
				full = append(full, "--receive-pack=git-receive-pack")
			}
		case "status":
			full = append(full, "--ignore-submodules=all")
		case "diff":
			// No external diff and no textconv either: tp reads names,
			// never a driver's rendering, and diff.external is empty
			// in command scope, which a plain diff would try to run.
			full = append(full, "--ignore-submodules=all", "--no-ext-diff", "--no-textconv")
		}
		full = append(full, args[1:]...)
	}
	if len(args) == 0 || !transportCommands[args[0]] {
		pairs = append(pairs[:len(pairs):len(pairs)], noTransport...)
	}
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = g.Dir
	cmd.Env = withConfig(g.base, pairs)
	return cmd
}

// inert reports whether args (a subcommand and its arguments) is one of
// the queries tp makes that read only refs and configuration: git starts
// no program for them, whatever the repository's configuration names
// (filters, diff and merge drivers and textconv act on file content, remote
// helpers and credential programs on a transport, pagers are off with
// --no-pager, hooks and fsmonitor are off in fixed), and they use no work
// tree. They skip the probe of [Git.Command]: it would find keys that
// these commands never read. Only the exact options below count; any
// other argument that looks like an option, and every other subcommand,
// is probed as before (D20). TestInertCommandsRunNoProgram runs each of
// these forms in a repository that names a program through every key.
func inert(args []string) bool {
	if len(args) == 0 {
		return false
	}
	var opts map[string]bool
	rest := args[1:]
	switch args[0] {
	case "rev-parse":
		opts = map[string]bool{"--abbrev-ref": true, "--symbolic-full-name": true, "--verify": true, "--quiet": true}
	case "symbolic-ref":
		opts = map[string]bool{"--quiet": true, "--short": true}
	// Never rev-list, log or anything else that reads a commit: in a
	// repository that names a promisor remote, reading a missing object
	// fetches it on demand with the repository's own upload-pack, and only
	// the probe refuses such a repository (ErrPromisor,
	// TestLazyFetchRunsNoProgram).
	case "config":
		opts = map[string]bool{"--get": true, "--get-regexp": true, "--global": true, "--null": true}
	case "remote":
		if len(rest) == 0 || rest[0] != "get-url" {
			return false
		}
		rest = rest[1:]
		opts = map[string]bool{"--push": true, "--all": true}
	default:
		return false
	}
	for _, a := range rest {
		if strings.HasPrefix(a, "-") && !opts[a] {
			return false
		}
	}
	return true
}

// splitGlobal separates git's own options before the subcommand (-c k=v,
// --no-optional-locks, …) from the subcommand and its arguments.
func splitGlobal(args []string) (rest, opts []string) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		opts = append(opts, args[0])
		if args[0] == "-c" || args[0] == "-C" {
			if len(args) > 1 {
				opts = append(opts, args[1])
				args = args[1:]
			}
		}
		args = args[1:]
	}
	return args, opts
}

func hasPrefixArg(args []string, prefix string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, prefix) {
			return true
		}
	}
	return false
}

// Run runs a git command that changes something and returns its standard
// output. A failure is an error naming the command, with git's own message
// sanitised (it may quote file names from the folder).
func (g *Git) Run(ctx context.Context, args ...string) ([]byte, error) {
	cmd, err := g.Command(ctx, args...)
	if err != nil {
		return nil, err
	}
	return g.run(cmd, args)
}

// Read runs a git command that only reads: it takes no optional locks, so
// it never rewrites the index behind a concurrent writer.
func (g *Git) Read(ctx context.Context, args ...string) ([]byte, error) {
	cmd, err := g.Command(ctx, append([]string{"--no-optional-locks"}, args...)...)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(cmd.Env, "GIT_OPTIONAL_LOCKS=0")
	return g.run(cmd, args)
}

// localReceivePack is the receive-pack a push to a repository on this disk
// runs there. git starts it with that repository's config and without the
// command-scope overrides given here (a local transport drops
// GIT_CONFIG_COUNT), so it names its own: hooks off (pre-receive, update,
// proc-receive, post-receive, post-update, reference-transaction,
// push-to-checkout; and, for the gits that read the switch, each of those
// events as a whole, which is also off hooks named in that repository's
// configuration), no work-tree update of a checked-out branch (which
// would run that repository's filters), no gc, no fsmonitor, no
// alternate-refs command. All of these are read last-wins, so the command
// line beats that repository's config and whatever it includes.
var localReceivePack = "git" +
	" -c core.hooksPath=" + os.DevNull +
	" -c core.fsmonitor=false" +
	" -c receive.denyCurrentBranch=refuse" +
	" -c receive.autogc=false" +
	" -c core.alternateRefsCommand=" +
	" -c gc.auto=0" +
	" -c hook.pre-receive.enabled=false -c hook.update.enabled=false" +
	" -c hook.proc-receive.enabled=false -c hook.post-receive.enabled=false" +
	" -c hook.post-update.enabled=false -c hook.reference-transaction.enabled=false" +
	" -c hook.push-to-checkout.enabled=false" +
	" receive-pack"

// ErrMixedPushURLs is a remote whose push URLs are some on this disk and
// some not: one push cannot run receive-pack safely on both.
var ErrMixedPushURLs = errors.New("the remote's push URLs are some on this disk and some elsewhere; tp pushes to one kind at a time (give the remote one pushurl)")

// Push runs `git push --quiet <remote> <refspecs>…` to remote (a remote's
// name). Where the remote's push URLs (url or pushurl, after insteadOf and
// pushInsteadOf) are paths on this disk, the receiving side runs with its
// hooks off (localReceivePack); elsewhere it runs git-receive-pack, whose
// hooks are the server's own.
func (g *Git) Push(ctx context.Context, remote string, refspecs ...string) ([]byte, error) {
	if remote == "" || strings.HasPrefix(remote, "-") {
		return nil, fmt.Errorf("git push: %q is not a remote's name", remote)
	}
	out, err := g.Read(ctx, "remote", "get-url", "--push", "--all", remote)
	if err != nil {
		return nil, err
	}
	local, other := 0, 0
	for _, u := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if u = strings.TrimSpace(u); u == "" {
			continue
		}
		if IsLocalURL(u) {
			local++
		} else {
			other++
		}
	}
	rp := "git-receive-pack"
	switch {
	case local > 0 && other > 0:
		return nil, fmt.Errorf("git push: remote %q: %w", remote, ErrMixedPushURLs)
	case local > 0:
		rp = g.receiveHooksOff(ctx, strings.Split(strings.TrimSpace(string(out)), "\n")) + localReceivePack
	}
	return g.Run(ctx, append([]string{"push", "--quiet", "--receive-pack=" + rp, remote}, refspecs...)...)
}

// receiveHooksOff is the shell assignments that switch off, for the
// receive-pack of a push to repositories on this disk (urls), every hook
// those repositories' configuration names (hook.<name>.*, git 2.54), read
// from each one's listing as the probe reads the clone's. localReceivePack
// switches every hook event off as a whole, but git 2.54 has only the
// per-hook switch, and the names are in the other repository's config,
// which the clone's probe never sees. The names are the other
// repository's, so they go through GIT_CONFIG_KEY_<n> (any name, '='
// included) and are quoted for the shell git runs the receive-pack with.
// A path that is no repository gives nothing: the push then fails there.
func (g *Git) receiveHooksOff(ctx context.Context, urls []string) string {
	var pairs [][2]string
	for _, u := range urls {
		dir := receiveGitDir(g.Dir, strings.TrimSpace(u))
		if dir == "" {
			continue
		}
		pairs = append(pairs, configHooksOff(parseList(g.listConfig(ctx, "--git-dir="+dir)))...)
	}
	if len(pairs) == 0 {
		return ""
	}
	// withConfig's variables, as assignments before the shell's command.
	var b strings.Builder
	for _, kv := range withConfig(nil, pairs) {
		k, v, _ := strings.Cut(kv, "=")
		b.WriteString(k + "=" + shellQuote(v) + " ")
	}
	return b.String()
}

// receiveGitDir is the repository git's local transport finds for url (a
// path or file:// URL, relative to dir): the first of path/.git, path,
// path.git/.git and path.git that is a git directory or a .git file, as
// git's enter_repo tries them; "" when none is.
func receiveGitDir(dir, url string) string {
	p := strings.TrimPrefix(url, "file://")
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		p = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	for _, suffix := range []string{"/.git", "", ".git/.git", ".git"} {
		c := p + suffix
		fi, err := os.Stat(c)
		switch {
		case err != nil:
		case fi.Mode().IsRegular():
			return c // a .git file naming the repository
		case fi.IsDir() && pathExists(filepath.Join(c, "HEAD")) && (pathExists(filepath.Join(c, "objects")) || pathExists(filepath.Join(c, "commondir"))):
			return c
		}
	}
	return ""
}

func pathExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// IsLocalURL reports whether git reaches url through its local transport
// (running the other side's programs on this machine, as this user): a
// file:// URL, or a path, which is anything without "://" or a transport
// helper's "::" whose first colon, if any, comes after a slash (git's own
// rule; "host:path" is ssh).
func IsLocalURL(url string) bool {
	if strings.HasPrefix(url, "file://") {
		return true
	}
	if strings.Contains(url, "://") || strings.Contains(url, "::") {
		return false
	}
	colon := strings.IndexByte(url, ':')
	slash := strings.IndexByte(url, '/')
	if colon < 0 || (slash >= 0 && slash < colon) {
		return true
	}
	// A Windows drive ("C:\\x", "C:/x") is a path too.
	return colon == 1 && len(url) > 2 && (url[2] == '\\' || url[2] == '/')
}

func (g *Git) run(cmd *exec.Cmd, args []string) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		name := "git"
		if len(args) > 0 {
			name += " " + args[0]
		}
		msg := gitMessage(errb.String())
		if msg == "" {
			msg = gitMessage(out.String())
		}
		if msg != "" {
			return out.Bytes(), fmt.Errorf("%s: %v: %s", name, err, msg)
		}
		return out.Bytes(), fmt.Errorf("%s: %v", name, err)
	}
	return out.Bytes(), nil
}

// gitMessage is git's own message as one readable line: its lines joined
// with "; " (a line break would otherwise be shown escaped as \n), blank
// lines and git's "hint:" advice about its own commands left out, and the
// rest sanitised (it may quote file names from the folder).
func gitMessage(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "hint:") {
			continue
		}
		keep = append(keep, sanitize.Line(l))
	}
	return strings.Join(keep, "; ")
}
