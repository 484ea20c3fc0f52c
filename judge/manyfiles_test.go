package judge

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// Judging a pack of many small files allocates in proportion to its bytes,
// not several buffers per file: 1,000 files of 1 MiB of zeros (a 1 MB pack)
// took 8 s and 2.6 GB (issue 11). The guard: bytes allocated per luggage
// byte stay below 2 (they were above 10: the file held whole, grown by
// doubling, encoded and decoded into fresh buffers, a scanner buffer
// each). scripts/work-limits.sh measures the resident set under
// /usr/bin/time.
func TestManySmallFilesAllocateBounded(t *testing.T) {
	// Not parallel: it reads the process's allocation count, and the
	// parallel tests only start when the serial ones are done.
	if testing.Short() {
		t.Skip("builds 64 MiB of luggage")
	}
	const n, size = 64, 1 << 20
	zeros := make([]byte, size)
	var lug []file
	for i := 0; i < n; i++ {
		lug = append(lug, file{Name: fmt.Sprintf("z/%d", i), Data: zeros})
	}
	path := packtest.WriteTemp(t, "many.taskpack", packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), lug, nil))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := Conformance(path, pack.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Conformant {
		t.Fatalf("not conformant: %+v", r.Checks)
	}
	per := float64(after.TotalAlloc-before.TotalAlloc) / float64(n*size)
	t.Logf("%.2f bytes allocated per luggage byte", per)
	if per > 2 {
		t.Fatalf("judging %d files of %d bytes allocated %.1f bytes per luggage byte", n, size, per)
	}
}
