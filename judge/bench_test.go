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
