package judge

import (
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestOwnWritesAreConformant: what tp writes, in either encoding, is
// conformant (pack's TestWriteBagIsABag and TestWriteFlat check the bytes).
func TestOwnWritesAreConformant(t *testing.T) {
	t.Parallel()
	for _, enc := range []pack.Encoding{pack.EncodingBag, pack.EncodingFlat} {
		path := filepath.Join(t.TempDir(), "out.taskpack")
		if enc == pack.EncodingFlat {
			path += ".json"
		}
		if err := pack.Write(path, srcOf(packtest.RefObject(t), packtest.MixedLuggage...), enc, pack.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		r, err := Conformance(path, pack.Options{})
		if err != nil || !r.Conformant {
			t.Fatalf("tp's own %s is not conformant: %v %v", enc, err, failing(r))
		}
	}
}
