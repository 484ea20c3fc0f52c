package pack

import (
	"io"
	"os"
	"path/filepath"

	"testing"
)

// sparseFile is luggage of size bytes of zeros with a marker at the end,
// made without writing the zeros to disk.
func sparseFile(t *testing.T, size int64) string {
	p := filepath.Join(t.TempDir(), "huge.bin")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size - 4); err != nil {
		t.Fatal(err)
	}
	f.Seek(size-4, io.SeekStart)
	f.Write([]byte("end\n"))
	f.Close()
	return p
}
