package briefing

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/store"
)

// An agent picking the work up is told where the passport's luggage is and
// how much there is; a passport without a luggage folder says nothing of it.
func TestOfStoredNamesTheLuggageFolder(t *testing.T) {
	dir := t.TempDir()
	st := &store.Stored{V: state(t, `{"id":"TP-A","title":"t"}`), Version: 3, Path: filepath.Join(dir, "TP-A.json")}
	if b := OfStored(st); b.FilesDir != "" || strings.Contains(b.Markdown(0), "Luggage") {
		t.Fatalf("no folder, yet %q", b.FilesDir)
	}
	files := filepath.Join(dir, "TP-A.files")
	for _, name := range []string{"outline.md", "figures/logo.svg", "receipt-TP-B@2/close.csv"} {
		p := filepath.Join(files, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink("/etc/passwd", filepath.Join(files, "link")) // not a file of the pack's: not counted
	b := OfStored(st)
	if b.FilesDir != files || b.Files != 3 {
		t.Fatalf("files_dir %q, %d files; want %q, 3", b.FilesDir, b.Files, files)
	}
	if md := b.Markdown(0); !strings.Contains(md, "**Luggage**: 3 files in `"+files+"`") {
		t.Fatalf("markdown:\n%s", md)
	}
}
