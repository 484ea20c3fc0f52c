package pack

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
)

// TestDuplicateAfterNormalisation is D10: two names that differ only in
// Unicode normalisation (é as one code point and as e + combining accent)
// are one file on macOS, so they collide like a case-folded pair, in the
// bag, in the flat form and in the writer.
func TestDuplicateAfterNormalisation(t *testing.T) {
	nfc, nfd := "caf\u00e9.txt", "cafe\u0301.txt"
	dir := t.TempDir()
	bag := filepath.Join(dir, "n.taskpack")
	os.WriteFile(bag, packtest.HostileZip(t, func(zw *zip.Writer) {
		packtest.AddFile("data/files/"+nfc, []byte("one"), nil)(zw)
		packtest.AddFile("data/files/"+nfd, []byte("two"), nil)(zw)
	}), 0o644)
	flat := filepath.Join(dir, "n.taskpack.json")
	os.WriteFile(flat, packtest.RawFlat(t, packtest.RefObject(t), packtest.Att(nfc, []byte("one")), packtest.Att(nfd, []byte("two"))), 0o644)
	for _, path := range []string{bag, flat} {
		p, err := Open(path, Options{})
		if p != nil {
			p.Close()
		}
		wantRule(t, err, RuleDuplicate)
	}
	src := Source{Object: packtest.RefObject(t), Luggage: []LuggageSource{memLuggage(nfc, "one"), memLuggage(nfd, "two")}}
	out := filepath.Join(dir, "w.taskpack")
	if err := Write(out, src, EncodingBag, WriteOptions{}); err == nil {
		t.Fatal("the writer packed two names that are one file on macOS")
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a refused write left a file")
	}
	// One name alone, in either form, is fine.
	for _, n := range []string{nfc, nfd} {
		src := Source{Object: packtest.RefObject(t), Luggage: []LuggageSource{memLuggage(n, "one")}}
		if err := Write(filepath.Join(dir, "ok.taskpack"), src, EncodingBag, WriteOptions{}); err != nil {
			t.Fatalf("%q: %v", n, err)
		}
	}
}

func memLuggage(name, data string) LuggageSource {
	return LuggageSource{Name: name, Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(data)), nil
	}}
}
