//go:build !unix

package recordlog

import (
	"io"
)

// readSmall reads a whole small file, stopping one byte past maxRecordFile.
func readSmall(path string, buf []byte) ([]byte, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxRecordFile+1))
}
