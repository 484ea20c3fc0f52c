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

// The summary step shows the signer first (D22), in the core's words.
func TestSummaryShowsSignerFirst(t *testing.T) {
	for _, say := range []string{
		"signed by maria (SHA256:abc), known since 2026-11-03",
		"signed by a key you have not seen (SHA256:abc): trust it?",
		"unsigned: nothing says who sent it or that it arrived unchanged",
	} {
		p := uitest.SamplePlan()
		p.Signer, p.SignerState = say, "known"
		c := uitest.Common(t, common.Deps{})
		c.Width = 140
		d := uitest.NewDriver(t, &uitest.Screen{C: NewWithPlan(c, p)})
		v := d.View()
		signed, title := strings.Index(v, "Signed"), strings.Index(v, "Title")
		if signed < 0 || !strings.Contains(v, say) || (title >= 0 && title < signed) {
			t.Fatalf("the summary does not lead with the signer %q:\n%s", say, v)
		}
	}
}
