package pack

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// seeds loads the fuzz seeds from testdata: the reference fixtures and the
// hand-made vectors. A fuzz target without seeds fails rather than silently
// fuzzing from nothing.
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
func exercise(t *testing.T, b []byte, name string) {
	path := filepath.Join(t.TempDir(), name)
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
		out := filepath.Join(t.TempDir(), "out")
		if err := Convert(path, out+".taskpack.json", WriteOptions{AllowLarge: true}); err == nil {
			if _, err := Open(out+".taskpack.json", Options{Limits: lim}); err != nil {
				t.Fatalf("tp cannot read what it converted: %v", err)
			}
		}
	}
	if _, err := Conformance(path, Options{Limits: lim}); err != nil {
		if _, ok := err.(*Error); !ok {
			t.Fatalf("Conformance error is not an *Error: %T %v", err, err)
		}
	}
}

func FuzzOpenBag(f *testing.F) {
	seeds(f, "testdata/ref/*.taskpack", "testdata/vectors/*.taskpack")
	f.Fuzz(func(t *testing.T, b []byte) { exercise(t, b, "f.taskpack") })
}

func FuzzOpenFlat(f *testing.F) {
	seeds(f, "testdata/ref/*.taskpack.json", "testdata/vectors/*.json", "testdata/vectors/*.tpx")
	f.Fuzz(func(t *testing.T, b []byte) { exercise(t, b, "f.taskpack.json") })
}
