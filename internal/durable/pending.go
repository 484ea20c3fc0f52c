package durable

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Pending is a new version of a file written under a temporary name beside
// its target and not yet durable: Begin writes it, Sync makes its bytes
// durable, then the caller puts it in place (Commit, or Rename and
// RenameNew with Name) or drops it (Abort). Write is Begin, Sync and Commit
// in a row; Pending is for a writer that must make two files durable
// before a third step and needs neither for the other: written first, then
// synced together (Together), their syncs overlap, and a file system with a
// journal can make both durable in one commit (issue 16: a pack and the
// record of packs sent).
type Pending struct {
	path, tmp string
	f         *os.File // open until Sync or Abort
	synced    bool
}

// Begin writes fill's bytes to a new temporary file beside path with
// exactly perm, and syncs nothing. An error from fill is returned as it
// is; on any failure no temporary file is left.
func Begin(path string, perm fs.FileMode, fill func(w *bufio.Writer) error) (p *Pending, err error) {
	f, tmp, err := createTemp(filepath.Dir(path), perm)
	if err != nil {
		return nil, fail(path, "create temporary file", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	w := writers.Get().(*bufio.Writer)
	w.Reset(f)
	defer func() { w.Reset(nil); writers.Put(w) }()
	if err = fill(w); err != nil {
		return nil, err
	}
	if err = w.Flush(); err != nil {
		return nil, fail(path, "write", err)
	}
	if err = f.Chmod(perm); err != nil {
		return nil, fail(path, "chmod", err)
	}
	return &Pending{path: path, tmp: tmp, f: f}, nil
}

// Name is the temporary file's path.
func (p *Pending) Name() string { return p.tmp }

// Sync makes the bytes durable and closes the file. After a failure the
// caller aborts.
func (p *Pending) Sync() error {
	if p.f == nil {
		return fail(p.path, "fsync", fs.ErrClosed)
	}
	f := p.f
	p.f = nil
	err := f.Sync()
	if cerr := f.Close(); err == nil && cerr != nil {
		return fail(p.path, "close", cerr)
	}
	if err != nil {
		return fail(p.path, "fsync", err)
	}
	p.synced = true
	return nil
}

// errNotSynced is a Commit before a successful Sync: a file whose bytes
// may not be on disk is never put in place.
var errNotSynced = errors.New("committed before its bytes were synced")

// Commit renames the synced file to its target, replacing what is there,
// and makes the rename durable (Rename). On failure the temporary file is
// removed.
func (p *Pending) Commit() error {
	if !p.synced {
		p.Abort()
		return fail(p.path, "rename", errNotSynced)
	}
	return Rename(p.tmp, p.path)
}

// Abort drops the temporary file; the target is untouched. It may be
// called after Commit or another Abort, harmlessly.
func (p *Pending) Abort() {
	if p.f != nil {
		p.f.Close()
		p.f = nil
	}
	p.synced = false
	os.Remove(p.tmp)
}

// Together runs each step at once, each in its own goroutine but the
// first, waits for all, and returns the first error in the order given
// (nil steps are skipped): for syncs that must all have succeeded before
// the next step, and none of which needs another.
func Together(steps ...func() error) error {
	errs := make([]error, len(steps))
	done := make(chan struct{}, len(steps))
	started := 0
	for i, step := range steps {
		if i == 0 || step == nil {
			continue
		}
		started++
		go func() {
			errs[i] = step()
			done <- struct{}{}
		}()
	}
	if len(steps) > 0 && steps[0] != nil {
		errs[0] = steps[0]()
	}
	for ; started > 0; started-- {
		<-done
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
