package pack

import (
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
)

// genLuggage writes n bytes of generated luggage: random (incompressible)
// or text (compressible, like logs and source).
func genLuggage(b *testing.B, dir, name string, n int64, text bool) LuggageSource {
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewSource(int64(len(name))))
	buf := make([]byte, 1<<20)
	words := []string{"revenue ", "region ", "slide ", "deck ", "close ", "numbers ", "EMEA ", "APAC ", "\n", "2026-09-03 ", "ok "}
	for written := int64(0); written < n; {
		if text {
			buf = buf[:0]
			for len(buf) < 1<<20-16 {
				buf = append(buf, words[r.Intn(len(words))]...)
			}
		} else {
			buf = buf[:1<<20]
			r.Read(buf)
		}
		k := int64(len(buf))
		if written+k > n {
			k = n - written
		}
		f.Write(buf[:k])
		written += k
	}
	f.Close()
	return LuggageSource{Name: name, Size: n, Open: func() (io.ReadCloser, error) { return os.Open(p) }}
}

const benchBytes = 64 << 20

func benchSource(b *testing.B) (Source, string) {
	dir := b.TempDir()
	src := Source{Object: packtest.RefObject(b)}
	src.Luggage = append(src.Luggage,
		genLuggage(b, dir, "random.bin", benchBytes/2, false),
		genLuggage(b, dir, "text.log", benchBytes/2, true))
	return src, dir
}

// BenchmarkPack writes a 64 MiB mixed bag (half random, half text).
func BenchmarkPack(b *testing.B) {
	src, dir := benchSource(b)
	out := filepath.Join(dir, "out.taskpack")
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Write(out, src, EncodingBag, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify opens (and so verifies every byte of) the same bag.
func BenchmarkVerify(b *testing.B) {
	src, dir := benchSource(b)
	out := filepath.Join(dir, "out.taskpack")
	if err := Write(out, src, EncodingBag, WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := Open(out, Options{Strict: true})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}

// BenchmarkConvertToFlat turns the bag into the flat form (base64 and utf8
// inline, streamed).
func BenchmarkConvertToFlat(b *testing.B) {
	src, dir := benchSource(b)
	out := filepath.Join(dir, "out.taskpack")
	if err := Write(out, src, EncodingBag, WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Convert(out, filepath.Join(dir, "out.taskpack.json"), WriteOptions{AllowLarge: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenFlat reads (and so decodes and verifies every attachment of)
// the 64 MiB pack in the flat form.
func BenchmarkOpenFlat(b *testing.B) {
	src, dir := benchSource(b)
	out := filepath.Join(dir, "out.taskpack.json")
	if err := Write(out, src, EncodingFlat, WriteOptions{AllowLarge: true}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := Open(out, Options{Strict: true})
		if err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}
