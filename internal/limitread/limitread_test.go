package limitread

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		max     int64
		tooBig  bool
		wantLen int
	}{{5, false, 5}, {6, false, 5}, {4, true, 0}, {0, true, 0}} {
		b, err := File(p, tc.max)
		if tc.tooBig != errors.Is(err, ErrTooLarge) || len(b) != tc.wantLen {
			t.Errorf("File(max %d) = %q, %v", tc.max, b, err)
		}
	}
	if _, err := File(filepath.Join(t.TempDir(), "none"), 5); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
