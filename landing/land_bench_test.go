package landing

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/pack"
)

// randomReader is n bytes of deterministic noise (incompressible luggage).
type randomReader struct {
	r *rand.ChaCha8
	n int64
}

func (r *randomReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.n {
		p = p[:r.n]
	}
	r.r.Read(p)
	r.n -= int64(len(p))
	return len(p), nil
}

// textReader is n bytes of log-like text (compressible luggage).
type textReader struct {
	n, i int64
	line string
}

func (t *textReader) Read(p []byte) (int, error) {
	if t.n <= 0 {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && t.n > 0 {
		p[k] = t.line[t.i%int64(len(t.line))]
		k++
		t.i++
		t.n--
	}
	return k, nil
}

// mixedPack writes a bag with size bytes of luggage, half random, half text.
func mixedPack(tb testing.TB, dir string, size int64) string {
	tb.Helper()
	half := size / 2
	line := "2026-09-03T14:20:00Z INFO revenue EMEA=1234567 APAC=7654321 AMER=5555555 ok\n"
	src := pack.Source{Object: mustParseTB(tb, handObj), Luggage: []pack.LuggageSource{
		{Name: "data/random.bin", Size: half, Open: func() (io.ReadCloser, error) {
			return io.NopCloser(&randomReader{r: rand.NewChaCha8([32]byte{1}), n: half}), nil
		}},
		{Name: "logs/text.log", Size: size - half, Open: func() (io.ReadCloser, error) {
			return io.NopCloser(&textReader{n: size - half, line: line}), nil
		}},
	}}
	path := filepath.Join(dir, "mixed.taskpack")
	if err := pack.Write(path, src, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		tb.Fatal(err)
	}
	return path
}

func mustParseTB(tb testing.TB, s string) *ojson.Value {
	tb.Helper()
	v, err := ojson.ParseStrict([]byte(s))
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// BenchmarkLand256MiB lands a 256 MiB pack (half random, half text): open,
// plan, extract with digest verification and fsync, save. The bytes/s
// figure is luggage written per second.
func BenchmarkLand256MiB(b *testing.B) {
	benchLand(b, 256<<20)
}

// BenchmarkLand16MiB is the same at a size that fits a quick run.
func BenchmarkLand16MiB(b *testing.B) {
	benchLand(b, 16<<20)
}

func benchLand(b *testing.B, size int64) {
	dir := b.TempDir()
	path := mixedPack(b, dir, size)
	b.SetBytes(size)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		st, err := store.Open(filepath.Join(dir, "store", string(rune('a'+i%26))+strings.Repeat("x", i/26)))
		if err != nil {
			b.Fatal(err)
		}
		p, err := pack.Open(path, pack.Options{})
		if err != nil {
			b.Fatal(err)
		}
		pl, err := PlanLanding(context.Background(), p, st, Env{Machine: "m", Actor: "a"})
		if err != nil {
			b.Fatal(err)
		}
		ld, err := Land(context.Background(), p, pl, st, Decisions{})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
		b.StopTimer()
		os.RemoveAll(ld.FilesDir)
		b.StartTimer()
	}
}

// manyPack writes a bag of n small text files (about 100–1,500 bytes each)
// in 50 folders.
func manyPack(tb testing.TB, dir string, n int) string {
	tb.Helper()
	src := pack.Source{Object: mustParseTB(tb, handObj)}
	for i := range n {
		data := strings.Repeat("line of a small file "+strings.Repeat("x", i%7)+"\n", 4+i%50)
		src.Luggage = append(src.Luggage, pack.LuggageSource{
			Name: "d" + string(rune('a'+i%25)) + string(rune('a'+i/25%2)) + "/f" + strings.Repeat("0", 4) + itoa(i) + ".txt",
			Size: int64(len(data)),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(data)), nil },
		})
	}
	path := filepath.Join(dir, "many.taskpack")
	if err := pack.Write(path, src, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		tb.Fatal(err)
	}
	return path
}

func itoa(i int) string { return ojson.FormatNumber(float64(i)) }

// BenchmarkLand5000Small lands a pack of 5,000 small files as tp land
// does (digests checked while extracting): what the one flush for all of
// them (internal/durable's batch) and the small-file path are for.
func BenchmarkLand5000Small(b *testing.B) {
	dir := b.TempDir()
	path := manyPack(b, dir, 5000)
	i := 0
	for b.Loop() {
		i++
		st, err := store.Open(filepath.Join(dir, "store", "s"+itoa(i)))
		if err != nil {
			b.Fatal(err)
		}
		p, err := pack.Open(path, pack.Options{DeferLuggage: true}) // as tp land opens it
		if err != nil {
			b.Fatal(err)
		}
		pl, err := PlanLanding(context.Background(), p, st, Env{Machine: "m", Actor: "a"})
		if err != nil {
			b.Fatal(err)
		}
		_, err = Land(context.Background(), p, pl, st, Decisions{})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
		// Nothing is removed until the end: on ext4, creating files right
		// after deleting thousands makes the inode allocator scan the
		// recently deleted ones, which would measure the rm, not the landing.
	}
}
