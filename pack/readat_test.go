package pack

import (
	"bytes"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// countingReaderAt counts the reads that reach the file.
type countingReaderAt struct {
	r     io.ReaderAt
	reads atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.reads.Add(1)
	return c.r.ReadAt(p, off)
}

// windowReader answers every read as the file would (bytes and io.EOF at
// the end), also from several goroutines at once, and a pass over the file
// in small reads costs a read per window, not one per read (issue 20).
func TestWindowReaderReadsAsTheFile(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 1, 100, windowSize - 1, windowSize, windowSize + 1, 3*windowSize + 77} {
		data := make([]byte, size)
		rand.NewChaCha8([32]byte{byte(size), byte(size >> 8), byte(size >> 16)}).Read(data)
		file := bytes.NewReader(data)
		c := &countingReaderAt{r: file}
		w := newWindowReader(c, int64(size))
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(size), uint64(g)))
				for range 2000 {
					n := rng.IntN(200)
					if rng.IntN(50) == 0 {
						n = windowSize
					}
					off := int64(rng.IntN(size + 300))
					got, want := make([]byte, n), make([]byte, n)
					gn, gerr := w.ReadAt(got, off)
					wn, werr := file.ReadAt(want, off)
					if gn != wn || !bytes.Equal(got[:gn], want[:wn]) || (gerr == nil) != (werr == nil) || gn < n && gerr == nil {
						t.Errorf("size %d: ReadAt(%d bytes, %d) = %d, %v; the file gives %d, %v", size, n, off, gn, gerr, wn, werr)
						return
					}
				}
			}()
		}
		wg.Wait()
		// In order, 30 bytes at a time.
		c.reads.Store(0)
		seq := newWindowReader(c, int64(size))
		var out []byte
		buf := make([]byte, 30)
		for off := int64(0); off < int64(size); off += 30 {
			k, err := seq.ReadAt(buf, off)
			if err != nil && err != io.EOF {
				t.Fatal(err)
			}
			out = append(out, buf[:k]...)
		}
		if !bytes.Equal(out, data) {
			t.Errorf("size %d: read in order, the bytes differ", size)
		}
		if max := int64(size/windowSize + 2); c.reads.Load() > max {
			t.Errorf("size %d: %d reads of the file for a pass in 30-byte reads, want at most %d", size, c.reads.Load(), max)
		}
	}
}
