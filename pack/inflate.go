package pack

import (
	"bufio"
	"errors"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
)

// inflaters recycles a DEFLATE reader together with the buffered reader it
// reads the compressed bytes through. The zip package pools its flate
// readers but wraps every entry's compressed stream in a fresh 4 KiB
// bufio.Reader (a section reader is not an io.ByteReader), which for a pack
// of 5,000 small files was a quarter of everything landing allocated (issue
// 20). Registered on every zip.Reader the package makes.
var inflaters sync.Pool

type inflater struct {
	br *bufio.Reader
	fr io.ReadCloser
}

// inflate is the zip.Decompressor for method 8 (DEFLATE).
func inflate(r io.Reader) io.ReadCloser {
	in, _ := inflaters.Get().(*inflater)
	if in == nil {
		in = &inflater{br: bufio.NewReaderSize(r, 4<<10)}
		in.fr = flate.NewReader(in.br)
	} else {
		in.br.Reset(r)
		if err := in.fr.(flate.Resetter).Reset(in.br, nil); err != nil {
			return &inflating{err: err}
		}
	}
	return &inflating{in: in}
}

// inflating is one entry's reader; after Close its inflater serves the next
// entry, so it refuses further reads instead of reading someone else's.
type inflating struct {
	in  *inflater
	err error
}

var errReadAfterClose = errors.New("pack: read of a ZIP entry after Close")

func (r *inflating) Read(p []byte) (int, error) {
	if r.in == nil {
		if r.err != nil {
			return 0, r.err
		}
		return 0, errReadAfterClose
	}
	return r.in.fr.Read(p)
}

func (r *inflating) Close() error {
	in := r.in
	if in == nil {
		return nil
	}
	r.in, r.err = nil, errReadAfterClose
	in.br.Reset(nil) // hold no reference to the pack file while pooled
	inflaters.Put(in)
	return nil
}
