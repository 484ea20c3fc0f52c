package conformance

import (
	"strings"
	"testing"
)

// TestLifecycleEdgeFixtures runs testdata/lifecycle-edge (records.json and
// lifecycle.json in the docs/acts-fixtures.md format): forks, stale records,
// withdrawn-then-active needs, duplicate sets, and schema edges the main
// suite does not cover.
func TestLifecycleEdgeFixtures(t *testing.T) {
	var out strings.Builder
	passed, failed, err := RunConformance("testdata/lifecycle-edge", &out)
	if err != nil || failed != 0 || passed < 30 {
		t.Fatalf("%d passed, %d failed, %v\n%s", passed, failed, err, out.String())
	}
}
