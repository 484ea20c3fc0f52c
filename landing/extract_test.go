package landing

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// Files up to smallLuggage are read whole and written on the worker; bigger
// ones stream in chunks. Both paths land the bytes the pack vouched for,
// and both refuse bytes that differ from the manifest (landing deferred, so
// only the extraction can tell), leaving nothing behind.
func TestExtractBothPaths(t *testing.T) {
	sizes := []int{1, smallLuggage - 1, smallLuggage, smallLuggage + 1, 3<<20 + 17}
	for _, n := range sizes {
		data := make([]byte, n)
		rand.NewChaCha8([32]byte{byte(n), byte(n >> 8), byte(n >> 16)}).Read(data)
		for _, tamper := range []bool{false, true} {
			name := "intact"
			if tamper {
				name = "tampered"
			}
			t.Run(name+"/"+ojson.FormatNumber(float64(n)), func(t *testing.T) {
				b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), []file{{Name: "dir/blob.bin", Data: data}}, func(entries *[]file) {
					if !tamper {
						return
					}
					for i, e := range *entries {
						if e.Name == "data/files/dir/blob.bin" {
							bad := bytes.Clone(e.Data)
							bad[len(bad)/2] ^= 0xff // same size: only the digest can tell
							(*entries)[i].Data = bad
						}
					}
				})
				path := filepath.Join(t.TempDir(), "p.taskpack")
				if err := os.WriteFile(path, b, 0o600); err != nil {
					t.Fatal(err)
				}
				p, err := pack.Open(path, pack.Options{DeferLuggage: true})
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				st := testStore(t)
				pl, err := PlanLanding(context.Background(), p, st, envOn("m", "bob"))
				if err != nil {
					t.Fatal(err)
				}
				before := snapshot(t, st.Dir())
				ld, err := Land(context.Background(), p, pl, st, Decisions{})
				if tamper {
					var pe *pack.Error
					if !errors.As(err, &pe) || pe.Rule != pack.RuleDigest {
						t.Fatalf("Land = %v, want a %s error", err, pack.RuleDigest)
					}
					sameSnapshot(t, before, snapshot(t, st.Dir()))
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(ld.FilesDir, "dir", "blob.bin"))
				if err != nil || !bytes.Equal(got, data) {
					t.Fatalf("landed %d bytes (%v), want the %d the pack vouched for", len(got), err, n)
				}
			})
		}
	}
}
