package judge

import (
	"archive/zip"
	"fmt"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestAuditArchiveRatio: D10 — a bomb spread over many entries, each too
// small for the per-entry ratio to be judged, is still refused by the
// archive-wide ratio, by Open and by the judge.
func TestAuditArchiveRatio(t *testing.T) {
	t.Parallel()
	lim := pack.Limits{MaxTotal: 1 << 30, MaxEntries: 100_000, MaxRatio: 10, RatioFloor: 64 << 10}
	b := packtest.HostileZip(t, func(zw *zip.Writer) {
		for i := 0; i < 200; i++ {
			packtest.AddFile(fmt.Sprintf("data/files/z%03d", i), packtest.Zeros(60<<10), nil)(zw)
		}
	})
	path := packtest.WriteTemp(t, "x.taskpack", b)
	_, err := pack.Open(path, pack.Options{Limits: lim})
	wantRule(t, err, pack.RuleLimitRatio)
	if r, err := Conformance(path, pack.Options{Limits: lim}); err == nil && r.Conformant {
		t.Error("the judge called a many-entry bomb conformant")
	}
}

// TestAuditTagManifestDigest: §2.1/C1 — tagmanifest-sha256.txt vouches for
// the tag files; a bag-info.txt changed after it was written is an error
// for the reader and a C1 failure for the judge.
func TestAuditTagManifestDigest(t *testing.T) {
	t.Parallel()
	b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), nil, func(es *[]file) {
		for i := range *es {
			if (*es)[i].Name == "bag-info.txt" {
				(*es)[i].Data = append(append([]byte{}, (*es)[i].Data...), "Contact-Name: someone else\n"...)
			}
		}
	})
	path := packtest.WriteTemp(t, "x.taskpack", b)
	_, err := pack.Open(path, pack.Options{})
	wantRule(t, err, pack.RuleDigest)
	r, err := Conformance(path, pack.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := checkOf(r, "C1"); c.Pass {
		t.Errorf("C1 passed a bag whose bag-info.txt does not match tagmanifest-sha256.txt: %s", c.Reason)
	}
}
