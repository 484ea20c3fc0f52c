package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// machinePaths are paths that exist only on the machines this project was
// first written on; tests and scripts find such things through environment
// variables (TP_REFERENCE_DIR, TP_BAGIT_PY, TP_SPEC_FIXTURES) or testdata.
var machinePaths = []string{"/work/", "../shared/", "/.mirror/", "/tmp/tpref", "/tmp/bagit-python"}

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
		if ext != ".go" && ext != ".txtar" && ext != ".sh" && name != "Makefile" && name != "run" || self[name] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, p := range machinePaths {
			if strings.Contains(string(b), p) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s names %q, a path only one machine has: use an environment variable or testdata", rel, p)
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
