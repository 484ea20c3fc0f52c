package judge

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zip"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestZip64ManyEntries: more than 65,535 entries need ZIP64's end records;
// tp writes, reads and judges such a bag.
func TestZip64ManyEntries(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes 70,000 entries")
	}
	const n = 70_000
	src := pack.Source{Object: packtest.RefObject(t)}
	for i := 0; i < n; i++ {
		body := []byte("file " + strconv.Itoa(i) + "\n")
		src.Luggage = append(src.Luggage, pack.LuggageSource{Name: "many/" + strconv.Itoa(i) + ".txt", Size: int64(len(body)),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }})
	}
	path := filepath.Join(t.TempDir(), "many.taskpack")
	if err := pack.Write(path, src, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != n+5 {
		t.Fatalf("%d entries, want %d", len(zr.File), n+5)
	}
	zr.Close()
	p, err := pack.Open(path, pack.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Luggage) != n {
		t.Fatalf("%d luggage files, want %d", len(p.Luggage), n)
	}
	p.Close()
	r, err := Conformance(path, pack.Options{})
	if err != nil || !r.Conformant {
		t.Fatalf("not conformant: %v %v", err, failing(r))
	}
	// The default limit (100,000) still refuses more than it allows.
	_, err = pack.Open(path, pack.Options{Limits: pack.Limits{MaxEntries: 65_535}})
	wantRule(t, err, pack.RuleLimitEntries)
}

// TestZip64HugeFile: one luggage file over 4 GiB packs, verifies and judges
// (ZIP64 sizes). Set TP_TEST_HUGE=1 to run it: it streams 4+ GiB three times.
func TestZip64HugeFile(t *testing.T) {
	t.Parallel()
	if os.Getenv("TP_TEST_HUGE") == "" {
		t.Skip("set TP_TEST_HUGE=1 to pack, verify and judge a 4.1 GiB file")
	}
	const size = 4<<30 + 100<<20
	huge := packtest.SparseFile(t, size)
	src := pack.Source{Object: packtest.RefObject(t), Luggage: []pack.LuggageSource{{Name: "huge.bin", Size: size,
		Open: func() (io.ReadCloser, error) { return os.Open(huge) }}}}
	path := filepath.Join(t.TempDir(), "huge.taskpack")
	if err := pack.Write(path, src, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := pack.Open(path, pack.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Luggage[0].Size != size {
		t.Fatalf("size %d, want %d", p.Luggage[0].Size, size)
	}
	p.Close()
	r, err := Conformance(path, pack.Options{})
	if err != nil || !r.Conformant {
		t.Fatalf("not conformant: %v %v", err, failing(r))
	}
}
