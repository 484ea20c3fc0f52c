package pack

import (
	"path"
	"reflect"
	"strings"
	"testing"
)

func TestGitDirs(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  []string
	}{
		{[]string{"a.txt", "b/c.txt", ".gitignore", ".gitattributes", "x.git/config", "HEAD", "objects.txt"}, nil},
		{[]string{".git/config", ".git/hooks/pre-commit"}, []string{".git/"}},
		{[]string{"repo/.git/HEAD", "repo/src/a.go"}, []string{"repo/.git/"}},
		{[]string{"a/.GIT/config", "b/.Git./config", "c/GIT~1/config"}, []string{"a/.GIT/", "b/.Git./", "c/GIT~1/"}},
		{[]string{"x/.git/modules/y/.git/config"}, []string{"x/.git/"}},
		{[]string{"w/.hg/hgrc"}, []string{"w/.hg/"}},
		{[]string{"sub/.git"}, []string{"sub/.git/"}}, // a gitfile ("gitdir: …")
		// Bare repositories: HEAD beside objects and refs, or beside commondir.
		{[]string{"b.git/HEAD", "b.git/objects/info/packs", "b.git/refs/heads/x", "b.git/config"}, []string{"b.git/"}},
		{[]string{"HEAD", "objects/x", "refs/y"}, []string{"./"}},
		{[]string{"wt/HEAD", "wt/commondir"}, []string{"wt/"}},
		{[]string{"k/head", "k/OBJECTS/x", "k/Refs/y"}, []string{"k/"}},
		// HEAD alone, or without refs, is no repository.
		{[]string{"n/HEAD", "n/objects/x"}, nil},
	} {
		got := GitDirs(c.names)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("GitDirs(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

func TestRepoMetadataLandsAs(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  map[string]string
	}{
		{[]string{"a.txt"}, map[string]string{}},
		{[]string{"repo/.git/config", "repo/.git/hooks/post-checkout", "repo/a.txt"},
			map[string]string{"repo/.git/config": "repo/.git-disarmed/config", "repo/.git/hooks/post-checkout": "repo/.git-disarmed/hooks/post-checkout"}},
		// The pack holds the disarmed name too: the next one free.
		{[]string{".git/config", ".git-disarmed/x", ".GIT-DISARMED-2"},
			map[string]string{".git/config": ".git-disarmed-3/config"}},
		{[]string{"b/HEAD", "b/objects/p", "b/refs/h"}, map[string]string{"b/HEAD": "b/HEAD-disarmed"}},
		{[]string{"sub/.git", "sub/f"}, map[string]string{"sub/.git": "sub/.git-disarmed"}},
		{[]string{"m/.hg/hgrc"}, map[string]string{"m/.hg/hgrc": "m/.hg-disarmed/hgrc"}},
	} {
		_, got := RepoMetadata(c.names)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("RepoMetadata(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

// FuzzRepoMetadata: whatever names a pack holds, what lands holds no
// repository git or Mercurial would find, and no two files land on one
// name (compared without case, as a case-insensitive disk does).
func FuzzRepoMetadata(f *testing.F) {
	f.Add("repo/.git/config\nrepo/a.txt")
	f.Add("b/HEAD\nb/objects/x\nb/refs/y\nb/HEAD-disarmed")
	f.Add(".git/x\n.git-disarmed/y\n.git-disarmed-2")
	f.Add("HEAD\ncommondir\n.hg/hgrc\nGIT~1/x")
	f.Fuzz(func(t *testing.T, list string) {
		seen := map[string]bool{}
		var names []string
		for _, n := range strings.Split(list, "\n") {
			if n == "" || strings.HasPrefix(n, "/") || strings.HasSuffix(n, "/") || strings.Contains(n, "//") || seen[strings.ToLower(n)] {
				continue
			}
			bad := false
			for _, p := range strings.Split(n, "/") {
				bad = bad || p == "." || p == ".."
			}
			if bad {
				continue
			}
			seen[strings.ToLower(n)] = true
			names = append(names, n)
		}
		// A file and a folder of one name cannot both be luggage.
		for _, n := range names {
			for d := path.Dir(n); d != "."; d = path.Dir(d) {
				if seen[strings.ToLower(d)] {
					return
				}
			}
		}
		_, landAs := RepoMetadata(names)
		landed := map[string]bool{}
		children := map[string]map[string]bool{}
		for _, n := range names {
			on := n
			if as, ok := landAs[n]; ok {
				on = as
			}
			if landed[strings.ToLower(on)] {
				t.Fatalf("two files land as %q (%q)", on, names)
			}
			landed[strings.ToLower(on)] = true
			parts := strings.Split(on, "/")
			for i, p := range parts {
				if isRepoComponent(p) {
					t.Fatalf("%q lands as %q, a repository's metadata", n, on)
				}
				parent := strings.ToLower(strings.Join(parts[:i], "/"))
				if children[parent] == nil {
					children[parent] = map[string]bool{}
				}
				// git's HEAD is a file: a folder named HEAD makes no repository.
				if i < len(parts)-1 && strings.EqualFold(p, "HEAD") {
					continue
				}
				children[parent][strings.ToLower(p)] = true
			}
		}
		for dir, in := range children {
			if bareRepo(in) {
				t.Fatalf("folder %q lands as a bare repository (%q → %q)", dir, names, landAs)
			}
		}
	})
}
