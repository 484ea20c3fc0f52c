package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// machinePaths match paths that exist only on one machine: the folders
// this project was first written in, and anyone's home folder. Tests and
// scripts find such things through environment variables
// (TP_REFERENCE_DIR, TP_BAGIT_PY, TP_SPEC_FIXTURES) or testdata; examples
// say /path/to/… or ~/…. They are written as patterns (a bracket in each)
// so that this file does not itself name the paths it forbids.
var machinePaths = []*regexp.Regexp{
	regexp.MustCompile(`/w[o]rk/`),
	regexp.MustCompile(`\.\./s[h]ared/`),
	regexp.MustCompile(`/\.m[i]rror/`),
	regexp.MustCompile(`/tmp/t[p]ref`),
	regexp.MustCompile(`/tmp/b[a]git-python`),
	// anyone's home folder, but not the same words inside a URL's path
	regexp.MustCompile(`(?:^|[\s"'(=:\x60])/(?:h[o]me|U[s]ers)/[A-Za-z]`),
}

// TestNoMachinePaths fails when a Go file, testscript, script or CI file
// names a path outside the repository that only one machine has.
func TestNoMachinePaths(t *testing.T) {
	self := map[string]bool{"paths_test.go": true}
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && strings.HasPrefix(name, ".") && name != ".ci" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(name)
		if ext != ".go" && ext != ".txtar" && ext != ".sh" && ext != ".md" && name != "Makefile" && name != "run" || self[name] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, p := range machinePaths {
			if m := p.Find(b); m != nil {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s names %q, a path only one machine has: use an environment variable, testdata or a placeholder", rel, strings.TrimSpace(string(m)))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("checked only %d files: the walk is broken", checked)
	}
}
