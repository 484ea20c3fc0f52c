package recordlog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Files stay inside (D9, issue 15): the acts dir may be a git work tree
// whose content a remote chooses, so a pushed commit can turn
// <project>/records, or any file of the log, into a symbolic link. No path
// below the acts dir is followed through a link, for reading or writing:
// folders are checked component by component with Lstat before they are
// read or written, and files are opened with O_NOFOLLOW. The acts dir
// itself is the user's choice and may be a link.

// Size limits of the files the acts code reads (D10's table); a file over
// its limit is reported and not read.
// (A principal change has maxChangeFile, allowed_signers
// sshsign.MaxAllowedSigners, a record maxRecordFile.)
const (
	MaxAckFile       = 4 << 10  // an acknowledgement holds one id
	MaxStateDocument = 16 << 20 // a state document tp acts sync reads
)

// LinkError is an acts path that is a symbolic link (or another kind of
// file where a folder belongs): refused, nothing read or written through it.
type LinkError struct {
	Path string
	What string // "a symbolic link", "not a folder"
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is %s; tp follows no link inside the acts dir (D9): nothing was read or written through it — replace it with a folder (if a pushed commit made it, revert that commit)", e.Path, e.What)
}

// TooLargeError is a file over its size limit (D10): reported, not read.
type TooLargeError struct {
	Path  string
	Limit int64
}

// Is makes a TooLargeError errTooLarge to the readers that test for it.
func (e *TooLargeError) Is(target error) bool { return target == errTooLarge }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than the %d bytes tp reads of such a file (D10); not read", e.Path, e.Limit)
}

// checkInside reports whether every folder from below the acts dir down to
// dir (which must be l.Dir or below it) is a real folder or missing; a
// symbolic link, or a file where a folder belongs, is a *LinkError.
func (l *Log) checkInside(dir string) error {
	rel, err := filepath.Rel(l.Dir, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("%s is not inside %s", dir, l.Dir)
	}
	if rel == "." {
		return nil
	}
	p := l.Dir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // made as a folder by the writer, if at all
		}
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return &LinkError{Path: p, What: "a symbolic link"}
		case !fi.IsDir():
			return &LinkError{Path: p, What: "not a folder"}
		}
	}
	return nil
}

// mkdirInside makes dir (and the folders above it, below the acts dir)
// after checking that none of them is a link.
func (l *Log) mkdirInside(dir string) error {
	if err := l.checkInside(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// A link made between the check and MkdirAll is caught here.
	return l.checkInside(dir)
}

// readLimited reads a regular file without following a link at its last
// component, and at most limit bytes: a larger file is a *TooLargeError,
// a link or a special file an error naming it.
func ReadLimited(path string, limit int64) ([]byte, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return b, nil
}
