package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// BagIt §2.1.3 percent-encodes "%" in manifest paths, and tp writes it so;
// bagit.py (and the reference) write paths literally. A reader must accept
// both, or bags from those writers with "%25" in a name fail C1.
func TestManifestPercentPaths(t *testing.T) {
	obj := packtest.RefObject(t)
	passport := ojson.Canonical(obj)
	for _, tc := range []struct {
		name, file, listed string
	}{
		{"literal %25 (bagit.py)", "50%25 x.txt", "data/files/50%25 x.txt"},
		{"encoded % (RFC 8493)", "100% done.txt", "data/files/100%25 done.txt"},
		{"literal lone %", "100% done.txt", "data/files/100% done.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte("payload\n")
			b := packtest.RawBag(t, passport, []file{{Name: tc.file, Data: data}}, func(entries *[]file) {
				tags := map[string][]byte{}
				for i, e := range *entries {
					if e.Name == "manifest-sha256.txt" {
						(*entries)[i].Data = []byte(strings.Replace(string(e.Data), "data/files/"+tc.file, tc.listed, 1))
					}
					tags[(*entries)[i].Name] = (*entries)[i].Data
				}
				var tm strings.Builder
				for _, n := range []string{"bagit.txt", "bag-info.txt", "manifest-sha256.txt"} {
					fmt.Fprintf(&tm, "%s  %s\n", packtest.HexSum(tags[n]), n)
				}
				for i, e := range *entries {
					if e.Name == "tagmanifest-sha256.txt" {
						(*entries)[i].Data = []byte(tm.String())
					}
				}
			})
			path := filepath.Join(t.TempDir(), "p.taskpack")
			os.WriteFile(path, b, 0o600)
			p, err := Open(path, Options{Limits: DefaultLimits(), Strict: true})
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer p.Close()
			found := false
			for _, l := range p.Luggage {
				found = found || l.Name == tc.file
			}
			if !found {
				t.Errorf("luggage %q not read: %+v", tc.file, p.Luggage)
			}
		})
	}
}
