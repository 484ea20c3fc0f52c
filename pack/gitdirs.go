package pack

import (
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Repository metadata in luggage (D10-git). A git run in a folder starts
// the programs its repository's config and hooks name (core.fsmonitor,
// hooks, a pager), and a shell prompt runs git in every folder it enters:
// a landed .git/ runs the sender's program the moment the person looks at
// the luggage. tp itself never runs them (internal/gitexec); luggage lands
// with such metadata renamed so that no tool finds a repository in it.

// DisarmSuffix is what a repository's marker gets on landing: ".git"
// becomes ".git-disarmed", a bare repository's "HEAD" "HEAD-disarmed".
const DisarmSuffix = "-disarmed"

// GitDirs lists the folders of luggage that hold a repository's own
// metadata, each with a trailing slash: every path up to and including a
// component named ".git" or ".hg" (compared without case: on a
// case-insensitive disk ".GIT" is the same folder, and NTFS's short name
// "GIT~1" is too), and every folder git would take for a bare repository
// (a HEAD beside objects and refs, or beside commondir).
func GitDirs(names []string) []string {
	dirs, _ := RepoMetadata(names)
	return dirs
}

// RepoMetadata is GitDirs and, for every luggage name that changes, the
// name it lands as: the repository component gets DisarmSuffix (more, when
// the pack holds that name too), and a bare repository's HEAD does. The
// same bytes land; only git's and Mercurial's markers are renamed, so the
// person takes the repository back with one rename (D10-git).
func RepoMetadata(names []string) (dirs []string, landAs map[string]string) {
	taken := map[string]bool{} // every name and folder, without case
	children := map[string]map[string]bool{}
	for _, n := range names {
		parts := strings.Split(n, "/")
		for i := range parts {
			p := strings.ToLower(strings.Join(parts[:i+1], "/"))
			taken[p] = true
			parent := strings.ToLower(strings.Join(parts[:i], "/"))
			if children[parent] == nil {
				children[parent] = map[string]bool{}
			}
			children[parent][strings.ToLower(parts[i])] = true
		}
	}
	// free is the first name beside want, with DisarmSuffix, that no
	// luggage name (and no name given out before) takes, without case.
	free := func(want string) string {
		for k := 1; ; k++ {
			c := want + DisarmSuffix
			if k > 1 {
				c += "-" + strconv.Itoa(k)
			}
			if !taken[strings.ToLower(c)] {
				taken[strings.ToLower(c)] = true
				return c
			}
		}
	}
	seen := map[string]bool{}
	addDir := func(folder string) {
		d := folder + "/"
		if folder == "" {
			d = "./"
		}
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	renamed := map[string]string{} // a component's path in the pack → its new last part
	landAs = map[string]string{}
	for _, n := range names {
		parts := strings.Split(n, "/")
		out := slices.Clone(parts)
		changed, inRepo := false, false
		for i, p := range parts {
			from := strings.Join(parts[:i+1], "/")
			last := i == len(parts)-1
			switch {
			case isRepoComponent(p):
				// .git or .hg, a folder or a gitfile, at any depth: a
				// repository nested in a disarmed one is disarmed too.
				to, ok := renamed[from]
				if !ok {
					to = path.Base(free(from))
					renamed[from] = to
				}
				out[i], changed = to, true
				if !inRepo {
					addDir(from)
				}
				inRepo = true
			case last && strings.EqualFold(p, "HEAD") && bareRepo(children[strings.ToLower(strings.Join(parts[:i], "/"))]):
				// A folder git would take for a repository (a bare one, or
				// a .git folder itself, which git finds by its HEAD when
				// the person enters it): without its HEAD it is none.
				out[i], changed = path.Base(free(from)), true
				if !inRepo {
					addDir(strings.Join(parts[:i], "/"))
				}
			}
		}
		if changed {
			landAs[n] = strings.Join(out, "/")
		}
	}
	sort.Strings(dirs)
	return dirs, landAs
}

// bareRepo reports whether a folder holding these names (lower case) is
// one git would take for a repository: HEAD beside objects and refs, or
// beside commondir (a linked worktree's git folder).
func bareRepo(in map[string]bool) bool {
	return in["head"] && (in["commondir"] || (in["objects"] && in["refs"]))
}

func isRepoComponent(p string) bool {
	// Windows drops trailing dots and spaces from a name.
	p = strings.TrimRight(p, ". ")
	return strings.EqualFold(p, ".git") || strings.EqualFold(p, "git~1") || strings.EqualFold(p, ".hg")
}
