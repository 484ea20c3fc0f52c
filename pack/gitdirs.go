package pack

import (
	"sort"
	"strings"
)

// GitDirs lists the folders of luggage that hold a git repository's own
// metadata: every path up to and including a component named ".git"
// (compared without case: on a case-insensitive disk ".GIT" is the same
// folder, and NTFS's short name "GIT~1" is too). A repository's config and
// hooks can name programs that any git run in that folder would start
// (core.fsmonitor, hooks, filter drivers); tp itself never runs them
// (internal/gitexec), but the person must know before other tools do
// (issue 11, D10).
func GitDirs(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		parts := strings.Split(n, "/")
		for i, p := range parts {
			if !isGitComponent(p) {
				continue
			}
			d := strings.Join(parts[:i+1], "/") + "/"
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
			break
		}
	}
	sort.Strings(out)
	return out
}

func isGitComponent(p string) bool {
	// Windows drops trailing dots and spaces from a name.
	p = strings.TrimRight(p, ". ")
	return strings.EqualFold(p, ".git") || strings.EqualFold(p, "git~1")
}
