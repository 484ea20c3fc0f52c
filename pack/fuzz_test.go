package pack

import (
	"flag"

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
