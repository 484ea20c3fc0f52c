package pack

import (
	"reflect"
	"testing"
)

func TestGitDirs(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  []string
	}{
		{[]string{"a.txt", "b/c.txt", ".gitignore", ".gitattributes", "x.git/config"}, nil},
		{[]string{".git/config", ".git/hooks/pre-commit"}, []string{".git/"}},
		{[]string{"repo/.git/HEAD", "repo/src/a.go"}, []string{"repo/.git/"}},
		{[]string{"a/.GIT/config", "b/.Git./config", "c/GIT~1/config"}, []string{"a/.GIT/", "b/.Git./", "c/GIT~1/"}},
		{[]string{"x/.git/modules/y/.git/config"}, []string{"x/.git/"}},
	} {
		got := GitDirs(c.names)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("GitDirs(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
