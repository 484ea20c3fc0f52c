package judge

import (
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/pack"
)

// BenchmarkConformance judges the same bag: C1, C7 and C9 over every byte.
func BenchmarkConformance(b *testing.B) {
	src, dir := benchSource(b)
	out := filepath.Join(dir, "out.taskpack")
	if err := pack.Write(out, src, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Conformance(out, pack.Options{})
		if err != nil || !r.Conformant {
			b.Fatal(err, failing(r))
		}
	}
}

// BenchmarkConformanceSmall judges the README's example pack, a few KB: the
// size an agent's script judges many times, where start-up and per-call
// set-up rather than bytes decide the time (issue 20's conformance row).
func BenchmarkConformanceSmall(b *testing.B) {
	path := filepath.Join("..", "examples", "handoff.taskpack")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Conformance(path, pack.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
