// Package limitread reads a whole file only when it is no larger than a
// limit, so a file an attacker made huge costs at most the limit plus one
// byte of memory (D10: every read of untrusted input is bounded).
package limitread

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrTooLarge is returned, wrapped with the path, when a file holds more
// than the limit; callers name their own rule beside it.
var ErrTooLarge = errors.New("larger than the limit")

// File reads path whole when it holds at most max bytes.
func File(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	return b, nil
}

// TooLargeError names the file and the limit it went past.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: more than %d bytes", e.Path, e.Max)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }
