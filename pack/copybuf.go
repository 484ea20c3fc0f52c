package pack

import "sync"

// copyBufSize is the size of the buffers luggage streams through.
const copyBufSize = 256 << 10

// copyBuffers pool the luggage copy buffers. A server that writes and
// reads a pack per call (tp mcp) would otherwise allocate and clear three
// fresh 256 KiB buffers each time, most of a small pack's cost (issue 16).
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, copyBufSize); return &b }}

// copyBuf is a pooled copy buffer and the function that returns it to the
// pool, or nil (and a no-op) when there is nothing to stream (n == 0).
func copyBuf(n int) (buf []byte, release func()) {
	if n == 0 {
		return nil, func() {}
	}
	bp := copyBuffers.Get().(*[]byte)
	return *bp, func() { copyBuffers.Put(bp) }
}
