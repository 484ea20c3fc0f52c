// Package durable is tp's one way of putting files on disk so that a crash
// leaves either the old file or the whole new one, never a mix: a
// temporary file in the same folder, write, fsync, rename, fsync of the
// folder. It also has a batch form (Batch) that makes many new files
// durable with one flush, and an exclusive create (CreateExclusive) for
// logs whose files must never be replaced.
//
// Errors are handled one way everywhere: every failure of the package's own
// steps is returned as an *Error naming the target and the step (an error
// from a caller's fill or check function is returned as it is), and on any
// failure before the rename the temporary file is removed and the target
// is untouched. A
// folder fsync the file system does not support (EINVAL, ENOTSUP; every
// folder on Windows) is not an error: there the rename is as durable as
// the system can make it. Any other folder fsync failure is returned.
package durable

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tp-dev/tp/internal/owner"
)

// TempPrefix starts the name of every temporary file this package creates,
// so readers of a folder can skip files in flight or left by a crash.
const TempPrefix = ".tmp-"

// IsTemp reports whether a file name is one of this package's temporary
// files.
func IsTemp(name string) bool { return strings.HasPrefix(name, TempPrefix) }

// orphanAfter is how old a temporary file whose name carries no owner (one
// written before names carried it) must be before SweepTemps removes it.
const orphanAfter = time.Hour

// SweepTemps removes, best effort, the temporary files in dir that a killed
// writer left behind: those whose owner (in the name) is gone from this
// host, at once, and those with no owner in their name once an hour old. A
// temporary file of a live writer, or of another host, is never touched. It
// returns how many it removed.
func SweepTemps(dir string) int {
	des, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, d := range des {
		name := d.Name()
		if !IsTemp(name) || !d.Type().IsRegular() {
			continue
		}
		tag := owner.Find(name, TempPrefix)
		if tag == "" {
			info, err := d.Info()
			if err != nil || time.Since(info.ModTime()) < orphanAfter {
				continue
			}
		} else if !owner.Gone(tag) {
			continue
		}
		if os.Remove(filepath.Join(dir, name)) == nil {
			n++
		}
	}
	return n
}

// Error is a failed durable write: Path is the target, Op the step.
type Error struct {
	Path string
	Op   string
	Err  error
}

func (e *Error) Error() string { return "write " + e.Path + ": " + e.Op + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// fail wraps err as an *Error, dropping the temporary file's name that
// os errors carry (the target is what the person knows).
func fail(path, op string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return &Error{Path: path, Op: op, Err: err}
}

// ops are the calls a write makes that tests need to fail. The package's
// functions use osOps; a test builds its own ops value instead of
// replacing a shared one, so tests can run in parallel.
type ops struct {
	rename func(oldpath, newpath string) error
}

var osOps = ops{rename: os.Rename}

// writeData is WriteFile through o.
func (o ops) writeData(path string, data []byte, perm fs.FileMode, ok func() error) error {
	return o.write(path, perm, func(w *bufio.Writer) error {
		_, err := w.Write(data)
		return err
	}, ok)
}

// WriteFile replaces path with data, durably: when it returns nil the new
// bytes and the folder entry are on disk; when it fails before the rename,
// path is as it was and no temporary file is left. The file gets exactly
// perm (not perm masked by the umask).
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return osOps.writeData(path, data, perm, nil)
}

// WriteFileIf is WriteFile that calls ok after the new bytes are on disk
// and just before the rename; an error from ok leaves path untouched and is
// returned as it is (for compare-and-swap: refuse when the file changed
// since it was read).
func WriteFileIf(path string, data []byte, perm fs.FileMode, ok func() error) error {
	return osOps.writeData(path, data, perm, ok)
}

// Write is WriteFile for content produced as a stream: fill writes into a
// 1 MiB buffer over the temporary file. An error from fill is returned as
// it is, with nothing written.
func Write(path string, perm fs.FileMode, fill func(w *bufio.Writer) error) error {
	return osOps.write(path, perm, fill, nil)
}

func (o ops) write(path string, perm fs.FileMode, fill func(w *bufio.Writer) error, ok func() error) error {
	// Begin, Sync and a rename in a row: the temporary file and its
	// filling are Pending's, so a fault injected into o.rename still
	// reaches this one step.
	p, err := Begin(path, perm, fill)
	if err != nil {
		return err
	}
	if err := p.Sync(); err != nil {
		p.Abort()
		return err
	}
	if ok != nil {
		if err := ok(); err != nil {
			p.Abort()
			return err
		}
	}
	if err := o.rename(p.tmp, path); err != nil {
		p.Abort()
		return fail(path, "rename", err)
	}
	return SyncDir(filepath.Dir(path))
}

// writers pool the 1 MiB buffers writes fill: a fresh one per write would
// be allocated and cleared for every small file (a record, a passport, the
// record of packs sent), most of such a write's CPU (issue 16).
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 1<<20) }}

// Rename moves a file that is already durable (written by this package
// under another name) to newpath and makes the move durable. On failure
// oldpath is removed, so nothing half-done is left behind.
func Rename(oldpath, newpath string) error {
	if err := osOps.rename(oldpath, newpath); err != nil {
		os.Remove(oldpath)
		return fail(newpath, "rename", err)
	}
	return SyncDir(filepath.Dir(newpath))
}

// WriteVolatile replaces path with data atomically but not durably (no
// fsync): for caches that are rebuilt when lost. After a crash path holds
// the old bytes, the new bytes, or (on some file systems) nothing.
func WriteVolatile(path string, data []byte, perm fs.FileMode) error {
	f, tmp, err := createTemp(filepath.Dir(path), perm)
	if err != nil {
		return fail(path, "create temporary file", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = osOps.rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fail(path, "write", err)
	}
	return nil
}

// CreateExclusive writes data to path only if path does not exist, so the
// file appears whole or not at all and an existing file is never replaced:
// a temporary file, then a hard link into place (atomic; fails with an
// error matching fs.ErrExist when path exists). Where hard links are not
// supported it falls back to O_EXCL on the final name.
//
// With b nil the file and its folder entry are durable on return. With a
// batch, the file's flush and the folder's are b's (see Batch): durable
// once b.Commit returns nil.
func CreateExclusive(path string, data []byte, perm fs.FileMode, b *Batch) error {
	dir := filepath.Dir(path)
	if b == nil {
		b = &Batch{}
		if err := createExclusive(path, dir, data, perm, b); err != nil {
			return err
		}
		return b.Commit()
	}
	return createExclusive(path, dir, data, perm, b)
}

func createExclusive(path, dir string, data []byte, perm fs.FileMode, b *Batch) error {
	f, tmp, err := createTemp(dir, perm)
	if err != nil {
		return fail(path, "create temporary file", err)
	}
	defer os.Remove(tmp)
	if err := b.fill(f, data, perm); err != nil {
		return fail(path, "write", err)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fail(path, "link", fs.ErrExist)
		}
		return b.WriteNew(path, data, perm)
	}
	b.Dir(dir)
	return nil
}

func createTemp(dir string, perm fs.FileMode) (*os.File, string, error) {
	for {
		var rnd [8]byte
		rand.Read(rnd[:])
		// The owner in the name lets a later run remove a temporary file
		// whose writer was killed (owner.Gone) at once.
		tmp := filepath.Join(dir, TempPrefix+owner.Tag()+"-"+hex.EncodeToString(rnd[:]))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
}

// RenameNew is Rename that never replaces: when newpath exists (a file, a
// folder or a link, even a dangling one) nothing moves, oldpath is removed
// and the error matches fs.ErrExist. It is one rename where the file system
// can refuse to replace, else a hard link and an unlink; with neither, the
// final name is created exclusively from oldpath's bytes.
func RenameNew(oldpath, newpath string) error {
	defer os.Remove(oldpath)
	renamed, err := renameNoReplace(oldpath, newpath)
	if !renamed {
		err = os.Link(oldpath, newpath)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			data, rerr := os.ReadFile(oldpath)
			if rerr != nil {
				return fail(newpath, "read", rerr)
			}
			info, serr := os.Stat(oldpath)
			if serr != nil {
				return fail(newpath, "stat", serr)
			}
			b := &Batch{}
			if werr := b.WriteNew(newpath, data, info.Mode().Perm()); werr != nil {
				return werr
			}
			return b.Commit()
		}
	}
	if errors.Is(err, fs.ErrExist) {
		return fail(newpath, "rename", fs.ErrExist)
	}
	if err != nil {
		return fail(newpath, "rename", err)
	}
	return SyncDir(filepath.Dir(newpath))
}

// CreateTemp creates a new temporary file in dir, named as every temporary
// file of this package is (TempPrefix, the owner), for a writer that must
// check what it wrote before moving it into place with Rename. The caller
// syncs, closes and renames it, or removes it.
func CreateTemp(dir string, perm fs.FileMode) (*os.File, string, error) {
	return createTemp(dir, perm)
}
