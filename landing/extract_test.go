package landing

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/tp-dev/tp/internal/durable"
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
				bad := ""
				if tamper {
					bad = "dir/blob.bin"
				}
				ld, unchanged, err := landRawBag(t, []file{{Name: "dir/blob.bin", Data: data}}, bad, len(data)/2, nil)
				if tamper {
					var pe *pack.Error
					if !errors.As(err, &pe) || pe.Rule != pack.RuleDigest {
						t.Fatalf("Land = %v, want a %s error", err, pack.RuleDigest)
					}
					unchanged()
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

// Small files are read in runs and created a folder at a time (smallRun,
// smallRunBytes): every file lands whole in its folder whatever the run
// holds — runs that fill their bytes before their count, folders
// interleaved — and a file in the middle of a run whose bytes differ from
// the manifest fails the landing with nothing left behind.
func TestExtractRuns(t *testing.T) {
	for _, c := range []struct {
		name   string
		n      int
		size   func(i int) int
		tamper int // -1: none
	}{
		// At least durable.ManyFiles: the flush-once batch, where the runs are.
		{"runs full by their bytes", durable.ManyFiles + 5, func(i int) int {
			if i%3 != 0 {
				return smallLuggage - i%5
			}
			return 1 + i
		}, -1},
		{"many small, folders interleaved", durable.ManyFiles + 3*smallRun + 3, func(i int) int { return 1 + i%200 }, -1},
		{"one tampered mid-run", durable.ManyFiles + 1, func(i int) int { return 10 + i }, 3*smallRun + smallRun/2},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var files []file
			for i := range c.n {
				data := make([]byte, c.size(i))
				rand.NewChaCha8([32]byte{byte(i), byte(i >> 8)}).Read(data)
				files = append(files, file{Name: "d" + ojson.FormatNumber(float64(i%3)) + "/f" + ojson.FormatNumber(float64(i)) + ".bin", Data: data})
			}
			bad := ""
			if c.tamper >= 0 {
				bad = files[c.tamper].Name
			}
			var done, total atomic.Int64 // the last report; workers report runs
			ld, unchanged, err := landRawBag(t, files, bad, 0, func(d, tot int64) { done.Store(d); total.Store(tot) })
			if c.tamper >= 0 {
				var pe *pack.Error
				if !errors.As(err, &pe) || pe.Rule != pack.RuleDigest || pe.Entry != "data/files/"+files[c.tamper].Name {
					t.Fatalf("Land = %v, want a %s error for %s", err, pack.RuleDigest, files[c.tamper].Name)
				}
				unchanged()
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var sum int64
			for _, f := range files {
				sum += int64(len(f.Data))
			}
			if done.Load() != sum || total.Load() != sum {
				t.Fatalf("progress ended at %d of %d, want %d of %d", done.Load(), total.Load(), sum, sum)
			}
			for _, f := range files {
				got, err := os.ReadFile(filepath.Join(ld.FilesDir, filepath.FromSlash(f.Name)))
				if err != nil || !bytes.Equal(got, f.Data) {
					t.Fatalf("%s: %d bytes (%v), want the %d the pack vouched for", f.Name, len(got), err, len(f.Data))
				}
			}
		})
	}
}

// landRawBag lands a bag of files with the landing deferred (only the
// extraction can tell a bad digest), the luggage named tamper, if any, with
// its byte at flips flipped (same size: only the digest can tell).
// unchanged checks that the store is as it was before the landing.
func landRawBag(t *testing.T, files []file, tamper string, flip int, progress func(done, total int64)) (*Landed, func(), error) {
	t.Helper()
	b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), files, func(entries *[]file) {
		for i, e := range *entries {
			if tamper != "" && e.Name == "data/files/"+tamper {
				bad := bytes.Clone(e.Data)
				bad[flip] ^= 0xff
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
	t.Cleanup(func() { p.Close() })
	st := testStore(t)
	pl, err := PlanLanding(context.Background(), p, st, envOn("m", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st.Dir())
	ld, err := Land(context.Background(), p, pl, st, Decisions{Progress: progress})
	return ld, func() { t.Helper(); sameSnapshot(t, before, snapshot(t, st.Dir())) }, err
}
