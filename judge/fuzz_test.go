package judge

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// exercise runs every entry point over untrusted bytes: none may panic, and
// what Open accepts must stream back its luggage and judge without error.
// dir is the fuzz target's own folder, reused by every input: a worker runs
// its inputs one at a time, and a fresh t.TempDir (two mkdirs and a
// RemoveAll) per input was a good part of each exec's cost.
func exercise(t *testing.T, dir string, b []byte, name string) {
	path := filepath.Join(dir, name)
	// Convert into the other encoding, so both writers are exercised.
	out := filepath.Join(dir, "out.taskpack")
	if filepath.Ext(name) == ".taskpack" {
		out += ".json"
	}
	os.Remove(out)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	lim := pack.Limits{MaxTotal: 64 << 20, MaxEntries: 1000}
	p, err := pack.Open(path, pack.Options{Limits: lim})
	if err == nil {
		for _, l := range p.Luggage {
			rc, err := p.OpenLuggage(l.Name)
			if err != nil {
				t.Fatalf("Open accepted %s but OpenLuggage fails: %v", l.Name, err)
			}
			if _, err := io.Copy(io.Discard, rc); err != nil {
				t.Fatalf("Open accepted %s but its bytes do not verify: %v", l.Name, err)
			}
			rc.Close()
		}
		p.Close()
		if err := pack.Convert(path, out, pack.WriteOptions{AllowLarge: true}); err == nil {
			q, err := pack.Open(out, pack.Options{Limits: lim})
			if err != nil {
				t.Fatalf("tp cannot read what it converted: %v", err)
			}
			q.Close()
		}
	}
	if _, err := Conformance(path, pack.Options{Limits: lim}); err != nil {
		if _, ok := err.(*pack.Error); !ok {
			t.Fatalf("Conformance error is not an *Error: %T %v", err, err)
		}
	}
}

// The seeds are the small vectors only (tiny-* come from fuzzgen_test.go,
// the others are hand-made cases); the 100 KiB reference fixtures are read by
// the interop tests, and as seeds each mutation of them cost a 100 KiB write
// and verify.
func FuzzOpenBag(f *testing.F) {
	packtest.Seeds(f, "../pack/testdata/vectors/*.taskpack")
	packtest.QuickMinimize(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) { exercise(t, dir, b, "f.taskpack") })
}

func FuzzOpenFlat(f *testing.F) {
	packtest.Seeds(f, "../pack/testdata/vectors/*.json", "../pack/testdata/vectors/*.tpx")
	packtest.QuickMinimize(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) { exercise(t, dir, b, "f.taskpack.json") })
}
