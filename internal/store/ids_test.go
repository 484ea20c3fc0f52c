package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// IDs names the <id>.json files without reading them (the home screen's
// first frame, issue 20): an unreadable one is listed too (List reports
// it), other names and folders are not; the most recently modified first.
func TestIDsListsWithoutReading(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, f := range []struct{ name, body string }{
		{"TP-AAAA-AAAA.json", `{"id":"TP-AAAA-AAAA"}`},
		{"TP-BBBB-BBBB.json", `not json at all`},
		{"TP-CCCC-CCCC.json", `{"id":"TP-CCCC-CCCC"}`},
		{"notes.txt", "x"},
		{"bad id!.json", "{}"},
	} {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := now.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "TP-DDDD-DDDD.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	ids, err := s.IDs()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"TP-CCCC-CCCC", "TP-BBBB-BBBB", "TP-AAAA-AAAA"}; !slices.Equal(ids, want) {
		t.Fatalf("IDs = %v, want %v", ids, want)
	}
	if _, err := (&Store{dir: filepath.Join(dir, "missing")}).IDs(); err != nil {
		t.Fatalf("a store folder not made yet: %v", err)
	}
}
