package pack

// Streaming an entry's bytes from its reader (inflating, CRC) to its
// consumers (digest, the caller's sinks).

import "io"

// copyChunks copies r to w through buf, calling step after each chunk.
func copyChunks(r io.Reader, w io.Writer, buf []byte, step func(int)) error {
	for {
		k, err := r.Read(buf)
		if k > 0 {
			w.Write(buf[:k])
			step(k)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// pipelineAbove is the entry size beyond which reading (inflating, CRC)
// and consuming (hashing, scanning) run on two goroutines, so a large entry
// is judged in about the time of the slower half rather than the sum.
const pipelineAbove = 4 << 20

// pipeline is copyChunks with the reads on their own goroutine, handing
// full chunks over through a fixed set of buffers (memory stays bounded).
func pipeline(r io.Reader, w io.Writer, step func(int)) error {
	const nbuf, size = 4, 256 << 10
	type chunk struct {
		b   []byte
		err error
	}
	free := make(chan []byte, nbuf)
	for range nbuf {
		free <- make([]byte, size)
	}
	full := make(chan chunk, nbuf)
	stop := make(chan struct{})
	go func() {
		defer close(full)
		for {
			var b []byte
			select {
			case b = <-free:
			case <-stop:
				return
			}
			k, err := io.ReadFull(r, b)
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			if k > 0 {
				full <- chunk{b: b[:k]}
			}
			if err != nil {
				if err != io.EOF {
					full <- chunk{err: err}
				}
				return
			}
		}
	}()
	var first error
	for c := range full {
		if c.err != nil {
			first = c.err
			close(stop)
			continue
		}
		if first == nil {
			w.Write(c.b)
			step(len(c.b))
		}
		free <- c.b[:cap(c.b)]
	}
	return first
}
