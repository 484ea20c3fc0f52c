package durable

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// ManyFiles is the file count beyond which NewBatch flushes the file system
// once (syncfs) instead of fsyncing each file.
const ManyFiles = 256

// Batch makes many NEW files durable together. The caller writes each file,
// hands it to File before closing it, and names every folder that gained
// entries with Dir; Commit then makes them all durable.
//
// The guarantee: once Commit returns nil, the bytes of every file passed to
// File, and every entry created so far in every folder passed to Dir, are
// on stable storage, as far as fsync(2)/syncfs(2) promise it. Before Commit
// returns nothing is promised: after a crash a file may be missing, empty
// or short, so a batch suits files that are published as a whole
// afterwards (a landing's luggage folder, renamed into place after Commit)
// or whose readers tolerate a partial file.
//
// The zero Batch fsyncs each file in File (the bytes are durable before the
// caller links or renames the file anywhere) and each folder once in
// Commit. NewBatch(n) with n beyond ManyFiles, where syncfs(2) exists,
// instead defers all flushing to Commit: one syncfs per file system and one
// fsync per folder, however many files. A Batch is safe for concurrent use.
type Batch struct {
	flushOnce bool
	dirs      syncSet
}

// NewBatch returns a batch for about n new files: one flush for all of them
// when n is beyond ManyFiles and the system has syncfs(2), otherwise the
// zero Batch's file-by-file fsync.
func NewBatch(n int) *Batch {
	return &Batch{flushOnce: n > ManyFiles && syncFSAvailable}
}

// FlushOnce reports whether this batch defers every file's flush to Commit
// (so a writer has no reason to start writeback early).
func (b *Batch) FlushOnce() bool { return b.flushOnce }

// File is called with a new file after its last write and before it is
// closed. With a file-by-file batch it fsyncs f now.
func (b *Batch) File(f *os.File) error {
	if b.flushOnce {
		return nil
	}
	if err := f.Sync(); err != nil {
		return fail(f.Name(), "fsync", err)
	}
	return nil
}

// fill writes data into the new file f, sets perm (the umask must not
// decide it), flushes as the batch says, and closes f.
func (b *Batch) fill(f *os.File, data []byte, perm fs.FileMode) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = b.File(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Dir names a folder whose new entries Commit must make durable.
func (b *Batch) Dir(dir string) { b.dirs.add(dir) }

// WriteNew creates path (which must not exist) holding data, as part of
// the batch.
func (b *Batch) WriteNew(path string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fail(path, "create", err)
	}
	if err := b.fill(f, data, perm); err != nil {
		os.Remove(path)
		return fail(path, "write", err)
	}
	b.Dir(filepath.Dir(path))
	return nil
}

// Commit makes the batch durable (see Batch). It flushes each file system
// once (flush-once batches), then fsyncs each folder once, and returns the
// first failure. The batch may be used again afterwards.
func (b *Batch) Commit() error {
	dirs := b.dirs.take()
	var first error
	if b.flushOnce {
		done := map[uint64]bool{}
		for _, d := range dirs {
			dev, ok := deviceOf(d)
			if ok && done[dev] {
				continue
			}
			if err := syncFS(d); err != nil {
				if first == nil {
					first = fail(d, "syncfs", err)
				}
				continue
			}
			if ok {
				done[dev] = true
			}
		}
	}
	for _, d := range dirs {
		if err := SyncDir(d); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// SyncDir fsyncs a folder so that entries created or renamed in it survive
// a crash. A file system that cannot fsync a folder is not an error (see
// the package doc).
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fail(dir, "sync folder", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !unsupported(err) {
		return fail(dir, "sync folder", err)
	}
	return nil
}

func unsupported(err error) bool {
	return errors.Is(err, os.ErrInvalid) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP)
}
