package pack

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// seeds loads the fuzz seeds from testdata/vectors. A fuzz target without
// seeds fails rather than silently fuzzing from nothing.
func seeds(f *testing.F, patterns ...string) {
	n := 0
	for _, p := range patterns {
		files, _ := filepath.Glob(p)
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("no seeds found for %v", patterns)
	}
}

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
	lim := Limits{MaxTotal: 64 << 20, MaxEntries: 1000}
	p, err := Open(path, Options{Limits: lim})
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
		if err := Convert(path, out, WriteOptions{AllowLarge: true}); err == nil {
			q, err := Open(out, Options{Limits: lim})
			if err != nil {
				t.Fatalf("tp cannot read what it converted: %v", err)
			}
			q.Close()
		}
	}
	if _, err := Conformance(path, Options{Limits: lim}); err != nil {
		if _, ok := err.(*Error); !ok {
			t.Fatalf("Conformance error is not an *Error: %T %v", err, err)
		}
	}
}

// quickMinimize caps the fuzzer's minimising of each new interesting input
// at a quarter of a second, unless -fuzzminimizetime was given. A pack is a
// ZIP with CRCs and sha256 manifests (or JSON with sha256 sums): almost no
// cut keeps an input's coverage, so the minimiser's quadratic pass runs to
// its 60 s default on every input that finds new coverage, even a 1 KiB one,
// and the workers spent the whole run minimising (6 execs in 20 s).
// Crashers are still minimised, within the same cap.
func quickMinimize(f *testing.F) {
	set := false
	flag.Visit(func(fl *flag.Flag) { set = set || fl.Name == "test.fuzzminimizetime" })
	if !set {
		if err := flag.Set("test.fuzzminimizetime", "250ms"); err != nil {
			f.Fatal(err)
		}
	}
}

// The seeds are the small vectors only (tiny-* come from fuzzgen_test.go,
// the others are hand-made cases); the 100 KiB reference fixtures are read by
// the interop tests, and as seeds each mutation of them cost a 100 KiB write
// and verify.
func FuzzOpenBag(f *testing.F) {
	seeds(f, "testdata/vectors/*.taskpack")
	quickMinimize(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) { exercise(t, dir, b, "f.taskpack") })
}

func FuzzOpenFlat(f *testing.F) {
	seeds(f, "testdata/vectors/*.json", "testdata/vectors/*.tpx")
	quickMinimize(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) { exercise(t, dir, b, "f.taskpack.json") })
}
