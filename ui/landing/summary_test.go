package landing

import (
	"strings"
	"testing"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/internal/uitest"
)

// The integrity row says "verified" once: the core's how ("BagIt manifests
// (sha256) verified") follows the ✓ without repeating it; a pack that did
// not verify keeps the core's words whole.
func TestSummaryIntegritySaysVerifiedOnce(t *testing.T) {
	for _, tc := range []struct {
		verified bool
		want     string
	}{
		{true, "✓ verified · 2 files · 3.0 MiB · .taskpack · BagIt manifests (sha256)"},
		{false, "✗ not verified · 2 files · 3.0 MiB · .taskpack · BagIt manifests (sha256) verified"},
	} {
		p := uitest.SamplePlan()
		p.Integrity.Verified = tc.verified
		p.Integrity.Detail = "BagIt manifests (sha256) verified"
		c := uitest.Common(t, common.Deps{})
		c.Width = 120
		d := uitest.NewDriver(t, &uitest.Screen{C: NewWithPlan(c, p)})
		v := d.View()
		row := ""
		for _, ln := range strings.Split(v, "\n") {
			if strings.HasPrefix(ln, "Integrity") {
				row = strings.TrimSpace(strings.TrimPrefix(ln, "Integrity"))
			}
		}
		if row != tc.want {
			t.Errorf("verified %v: integrity row %q, want %q", tc.verified, row, tc.want)
		}
	}
}
