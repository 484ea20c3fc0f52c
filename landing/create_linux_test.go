//go:build linux

package landing

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// createIn makes one new file in its folder and nothing else: not through
// a link planted under the name, not over a file that is there, not
// outside the folder whatever the name says (issue 20: luggage files made
// without os.Root for speed must stay as confined).
func TestCreateInStaysInItsFolder(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "in")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "outside.txt")
	if err := os.WriteFile(outside, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "there"), []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	df := newFolderFile(f)
	for _, name := range []string{"link", "there", "../outside.txt", "../new.txt", "a/b", "..", ".", ""} {
		if err := createIn(df, name, []byte("attacker")); err == nil {
			t.Errorf("createIn(%q) wrote", name)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Errorf("the file outside now holds %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "there")); string(b) != "first" {
		t.Errorf("the file there now holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(base, "new.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file appeared outside the folder: %v", err)
	}
	if err := createIn(df, "ok.txt", []byte("luggage")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, "ok.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "ok.txt")); string(b) != "luggage" || st.Mode().Perm()&0o111 != 0 {
		t.Errorf("ok.txt holds %q, mode %v", b, st.Mode())
	}
}
