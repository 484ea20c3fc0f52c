package acts

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedExamples are the fixture examples beside the spec; they must pass.
const sharedExamples = "../../shared/conformance/acts"

func runDir(t *testing.T, dir string) {
	t.Helper()
	var out bytes.Buffer
	passed, failed, err := RunConformance(dir, &out)
	if err != nil {
		t.Fatalf("RunConformance(%s): %v\n%s", dir, err, out.String())
	}
	if failed > 0 || passed == 0 {
		t.Fatalf("RunConformance(%s): %d passed, %d failed\n%s", dir, passed, failed, out.String())
	}
	t.Logf("%s: %s", dir, strings.TrimSpace(out.String()))
}

func TestConformanceSharedExamples(t *testing.T) {
	if _, err := os.Stat(sharedExamples); err != nil {
		t.Skipf("shared examples not present: %v", err)
	}
	runDir(t, sharedExamples)
}

func TestConformanceSuite(t *testing.T) {
	runDir(t, filepath.Join("testdata", "conformance"))
}
