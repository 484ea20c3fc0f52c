package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
)

// TestNoFileDigestChangesOnlyTheDigest: Options.NoFileDigest leaves
// Pack.Digest empty and everything else as a plain Open gives it, in both
// encodings; without it Digest is the file's own sha256.
func TestNoFileDigestChangesOnlyTheDigest(t *testing.T) {
	t.Parallel()
	for _, enc := range []Encoding{EncodingBag, EncodingFlat} {
		path := filepath.Join(t.TempDir(), "out.taskpack")
		if enc == EncodingFlat {
			path += ".json"
		}
		if err := Write(path, srcOf(packtest.RefObject(t), packtest.MixedLuggage...), enc, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		full, err := Open(path, Options{DeferLuggage: true})
		if err != nil {
			t.Fatal(err)
		}
		defer full.Close()
		bare, err := Open(path, Options{DeferLuggage: true, NoFileDigest: true})
		if err != nil {
			t.Fatal(err)
		}
		defer bare.Close()
		if full.Digest != hex.EncodeToString(sum[:]) {
			t.Errorf("%v: Digest %s is not the file's sha256", enc, full.Digest)
		}
		if bare.Digest != "" {
			t.Errorf("%v: NoFileDigest gave Digest %s", enc, bare.Digest)
		}
		if !reflect.DeepEqual(full.Luggage, bare.Luggage) || string(full.Raw) != string(bare.Raw) || full.LuggageVerified != bare.LuggageVerified {
			t.Errorf("%v: NoFileDigest changed more than the digest", enc)
		}
	}
}
