package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// testName matches a Go test, benchmark, fuzz target or example as named in
// a document (a subtest's path after "/" is not part of the name).
// "TestPlan*" names every test whose name begins TestPlan.
var testName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*\*?`)

// testFunc matches the declaration of one in a _test.go file.
var testFunc = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Za-z0-9_]*)\(`)

// declaredTests lists every test function declared in the repository.
func declaredTests(t *testing.T) map[string]bool {
	t.Helper()
	have := map[string]bool{}
	sources(t, func(path, text string) {
		if !strings.HasSuffix(path, "_test.go") {
			return
		}
		for _, m := range testFunc.FindAllStringSubmatch(text, -1) {
			have[m[1]] = true
		}
	})
	return have
}

// TestTraceabilityNamesRealTests fails when TRACEABILITY.md (which rule is
// guarded by which test) names a test that does not exist: a renamed or
// deleted test would otherwise leave a rule looking guarded.
func TestTraceabilityNamesRealTests(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "TRACEABILITY.md"))
	if err != nil {
		t.Fatal(err)
	}
	have := declaredTests(t)
	named := map[string]bool{}
	for _, n := range testName.FindAllString(string(b), -1) {
		named[n] = true
	}
	if len(named) < 20 {
		t.Fatalf("TRACEABILITY.md names only %d tests: the pattern is broken", len(named))
	}
	var missing []string
	for n := range named {
		if prefix, ok := strings.CutSuffix(n, "*"); ok {
			found := false
			for h := range have {
				found = found || strings.HasPrefix(h, prefix)
			}
			if !found {
				missing = append(missing, n)
			}
			continue
		}
		if !have[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	for _, n := range missing {
		t.Errorf("TRACEABILITY.md names %s, but no _test.go file declares it", n)
	}
}

func TestTestNamePattern(t *testing.T) {
	got := testName.FindAllString("`TestScripts/interop_refgen`, TestX_y and BenchmarkRun; Testing, Fuzzy, FuzzOpenBag, TestPlan*", -1)
	want := []string{"TestScripts", "TestX_y", "BenchmarkRun", "FuzzOpenBag", "TestPlan*"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}
