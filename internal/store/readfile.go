package store

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxStateBytes bounds a passport state file a reader takes into memory:
// four times the largest pack object a landing accepts, with room for the
// lineage and asks a passport gathers over hops.
const MaxStateBytes = 256 << 20

// maxLockBytes bounds a lock file: {"pid":…,"created_at":…,"host":…}.
const maxLockBytes = 4 << 10

// NotRegularError refuses a store file that is not a regular file: a FIFO
// would block a reader forever, a device could be read without end (D15).
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s): the store holds only regular files (D15)", e.Path, kindOf(e.Mode))
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "mode " + m.String()
}

func checkRegular(f *os.File) (*os.File, error) {
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: f.Name(), Mode: info.Mode()}
	}
	return f, nil
}

// readRegular reads a whole store file, refusing anything but a regular
// file and anything larger than max bytes.
func readRegular(path string, max int64) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized from the file (the limit still holds if it grows meanwhile):
	// io.ReadAll of a 10 MB passport grows and copies its buffer about
	// fifteen times.
	var b []byte
	if fi, err := f.Stat(); err == nil && fi.Size() >= 0 && fi.Size() <= max {
		b = make([]byte, 0, fi.Size()+1) // +1: the read that sees the end
	}
	b, err = readAllInto(b, io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: more than %d bytes, past the limit for a store file (D15)", path, max)
	}
	return b, nil
}

// readAllInto is io.ReadAll appending to b, whose capacity it uses first.
func readAllInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
