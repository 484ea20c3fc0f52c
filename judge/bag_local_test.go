package judge

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestLocalHeaderNameMustMatch is D10: an entry whose local header names
// another file than the central directory does (what a streaming unzip would
// extract is not what was verified) is refused with the file and the rule,
// by Open and by Conformance (C1, exit 2), in plain and ZIP64 archives.
func TestLocalHeaderNameMustMatch(t *testing.T) {
	t.Parallel()
	good := packtest.BagOf(t, packtest.RefObject(t))
	const entry = "data/files/outline.md"
	for _, c := range []struct {
		name string
		b    []byte
		ok   bool
	}{
		{"untouched", good, true},
		{"untouched, ZIP64 offsets", packtest.ToZip64Offsets(t, good), true},
		{"another name", packtest.PatchLocalName(t, good, entry, "data/files/outlinX.md"), false},
		{"a name that climbs out", packtest.PatchLocalName(t, good, entry, "../../../../../etc/pw"), false},
		{"another name, ZIP64 offsets", packtest.ToZip64Offsets(t, packtest.PatchLocalName(t, good, entry, "data/files/evil___.md")), false},
		{"another compression method", packtest.PatchLocalField(t, good, entry, 8, 0), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The archive still reads as a ZIP: only the name differs.
			if _, err := zip.NewReader(bytes.NewReader(c.b), int64(len(c.b))); err != nil {
				t.Fatalf("the test archive is not a ZIP: %v", err)
			}
			path := filepath.Join(t.TempDir(), "x.taskpack")
			os.WriteFile(path, c.b, 0o644)
			for _, strict := range []bool{false, true} {
				p, err := pack.Open(path, pack.Options{Strict: strict})
				if c.ok {
					if err != nil {
						t.Fatalf("refused a good bag: %v", err)
					}
					p.Close()
					continue
				}
				e := wantRule(t, err, pack.RuleZipFormat)
				if e.File != path || !strings.Contains(err.Error(), "local header") || strings.Contains(err.Error(), "\n") {
					t.Errorf("error: %v", err)
				}
			}
			r, err := Conformance(path, pack.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Conformant != c.ok {
				t.Fatalf("conformant %v, want %v: %v", r.Conformant, c.ok, failing(r))
			}
			if !c.ok && (r.Checks[1].Pass || !strings.Contains(r.Checks[1].Reason, pack.RuleZipFormat)) {
				t.Errorf("C1: %+v", r.Checks[1])
			}
		})
	}
}
