package landing

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The TUI's receipt carries files the person picks on the screen (issue 17):
// confined to the folder tp runs in (no link or .. out of it), each listed
// with its name in the pack and its size, and refused for what pack.Write
// refuses (a credential, D5) before anything is written. Written attack
// first: every way out of the folder is an OutsideError.
func TestCheckLuggage(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "id_ed25519")
	must(t, os.WriteFile(secret, []byte("private"), 0o600))
	within := t.TempDir()
	must(t, os.WriteFile(filepath.Join(within, "notes.md"), []byte("# notes\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(within, "token.txt"), []byte("deploy key ghp_"+strings.Repeat("x1Y2", 9)+"\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(within, "figs", "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(within, "figs", "sub", "a.svg"), []byte("<svg/>"), 0o644))
	must(t, os.Symlink(secret, filepath.Join(within, "figs", "key")))       // inside a folder: not carried
	must(t, os.Symlink(secret, filepath.Join(within, "key")))               // a link out
	must(t, os.Symlink(outside, filepath.Join(within, "out")))              // a folder link out
	must(t, os.Symlink("notes.md", filepath.Join(within, "notes-link.md"))) // a link that stays inside

	for _, p := range []string{"key", "out", "out/id_ed25519", "../" + filepath.Base(outside) + "/id_ed25519", secret, filepath.Join(within, "..", filepath.Base(outside))} {
		t.Run("outside "+p, func(t *testing.T) {
			_, err := CheckLuggage([]string{"notes.md", p}, within)
			var oe *OutsideError
			if !errors.As(err, &oe) {
				t.Fatalf("%s: err = %v, want an OutsideError", p, err)
			}
		})
	}

	got, err := CheckLuggage([]string{"notes.md", "figs", "notes-link.md", "token.txt"}, within)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
		if !strings.HasPrefix(f.Path, func() string { r, _ := filepath.EvalSymlinks(within); return r }()) {
			t.Errorf("%s is read from %s, outside the folder", f.Name, f.Path)
		}
	}
	// The link inside a folder is not carried; the link to notes.md is
	// carried under its own name, read from the file it names.
	if n := strings.Join(names, " "); n != "notes.md figs/sub/a.svg notes-link.md token.txt" {
		t.Fatalf("names %s", n)
	}
	if got[0].Size != int64(len("# notes\n")) || got[2].Size != got[0].Size {
		t.Errorf("sizes %d %d", got[0].Size, got[2].Size)
	}
	for i, f := range got {
		if refused := len(f.Refused) > 0; refused != (i == 3) {
			t.Errorf("%s: refused %v", f.Name, f.Refused)
		}
	}
	if r := strings.Join(got[3].Refused, " "); !strings.Contains(r, "credential") || strings.Contains(r, strings.Repeat("x1Y2", 9)) {
		t.Errorf("the credential is not named, or is shown whole: %s", r)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// D5-repository: a folder picked on the screen that holds a repository
// lists its metadata as refused (its compressed history cannot be checked
// for credentials), and every other file as it is.
func TestCheckLuggageRefusesRepositoryMetadata(t *testing.T) {
	within := t.TempDir()
	for _, f := range []string{"proj/a.txt", "proj/.git/HEAD", "proj/.git/config", "proj/.git/objects/ab/cdef", "proj/.git/refs/heads/main"} {
		must(t, os.MkdirAll(filepath.Join(within, filepath.Dir(f)), 0o755))
		must(t, os.WriteFile(filepath.Join(within, f), []byte("x\n"), 0o644))
	}
	got, err := CheckLuggage([]string{"proj"}, within)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		refused := len(c.Refused) > 0
		if want := strings.HasPrefix(c.Name, "proj/.git/"); refused != want {
			t.Errorf("%s: refused %v, want %v (%q)", c.Name, refused, want, c.Refused)
		}
	}
	if len(got) != 5 {
		t.Fatalf("%d files listed, want 5 (nothing hidden): %+v", len(got), got)
	}
}
