package pack

import (
	"archive/zip"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
)

// TestAuditBagInfoFields: D2 — bag-info.txt is derived from the pack object
// and payload only, field by field (Bagging-Date is the date of packed_at).
func TestAuditBagInfoFields(t *testing.T) {
	obj := packtest.RefObject(t)
	path := filepath.Join(t.TempDir(), "p.taskpack")
	lug := []byte("hello luggage\n")
	if err := Write(path, srcOf(obj, file{Name: "notes.txt", Data: lug}), EncodingBag, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var info, passport []byte
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		switch f.Name {
		case "bag-info.txt":
			info = b
		case "data/passport.json":
			passport = b
		}
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(info), "\n"), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		got[k] = v
	}
	want := map[string]string{
		"Bagging-Date":               "2026-09-03",
		"External-Identifier":        "TP-K7WF-3NQX",
		"External-Description":       "Prepare the Q4 board deck",
		"Source-Organization":        "Maria",
		"Internal-Sender-Identifier": "studio-imac",
		"Payload-Oxum":               itoa(len(passport)+len(lug)) + ".2",
		"Bag-Spec":                   "taskpack/0.1",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("bag-info.txt %s = %q, want %q\n%s", k, got[k], v, info)
		}
	}
	if got["Bag-Software-Agent"] == "" {
		t.Errorf("bag-info.txt has no Bag-Software-Agent\n%s", info)
	}
}
