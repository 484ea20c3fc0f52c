package pack

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// failingReader gives n bytes, then err.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	k, err := f.r.Read(p)
	if err == io.EOF {
		return k, f.err
	}
	return k, err
}

// pipeline and copyChunks hand on every byte in order and report a read
// error, whatever the sizes.
func TestStreamCopies(t *testing.T) {
	for _, n := range []int{0, 1, 256<<10 - 1, 256 << 10, 1<<20 + 3, 5<<20 + 1} {
		data := make([]byte, n)
		rand.NewChaCha8([32]byte{byte(n)}).Read(data)
		for name, copyFn := range map[string]func(io.Reader, io.Writer, func(int)) error{
			"pipeline": pipeline,
			"copyChunks": func(r io.Reader, w io.Writer, step func(int)) error {
				return copyChunks(r, w, make([]byte, 4096), step)
			},
		} {
			var out bytes.Buffer
			steps := 0
			if err := copyFn(bytes.NewReader(data), &out, func(k int) { steps += k }); err != nil {
				t.Fatalf("%s %d: %v", name, n, err)
			}
			if !bytes.Equal(out.Bytes(), data) || steps != n {
				t.Fatalf("%s %d: %d bytes out, %d stepped", name, n, out.Len(), steps)
			}
			broken := errors.New("disk gone")
			err := copyFn(&failingReader{bytes.NewReader(data), broken}, io.Discard, func(int) {})
			if !errors.Is(err, broken) {
				t.Fatalf("%s %d: a failing read gives %v", name, n, err)
			}
		}
	}
}

// A large entry (read on two goroutines) whose bytes differ from its digest
// is caught like a small one.
func TestLargeEntryDigestChecked(t *testing.T) {
	data := make([]byte, pipelineAbove+12345)
	rand.NewChaCha8([32]byte{7}).Read(data)
	b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), []file{{Name: "big.bin", Data: data}}, func(entries *[]file) {
		for i, e := range *entries {
			if e.Name == "data/files/big.bin" {
				bad := bytes.Clone(e.Data)
				bad[len(bad)-1] ^= 1
				(*entries)[i].Data = bad
			}
		}
	})
	_, err := Open(packtest.WriteTemp(t, "big.taskpack", b), Options{})
	wantRule(t, err, RuleDigest)
}
