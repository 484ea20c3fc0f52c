package durable

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Staged creates many NEW files, each appearing whole or not at all, with
// one flush for all of them: Add writes each file under a temporary name
// beside its target; Publish flushes them (one syncfs per file system for
// a large batch where the system has it, else one fsync per file), only
// then links each into place in the order added (an existing target is
// never replaced: rename without replacing where the system has it, else a
// hard link), and fsyncs each folder once. Unlike Batch, a crash at
// any point leaves no short or empty file under a target's name, so it
// suits files readers take as whole records.
type Staged struct {
	b     *Batch
	items []staged
}

type staged struct {
	path, tmp string
	data      []byte
	perm      fs.FileMode
}

// NewStaged returns a Staged for about n files.
func NewStaged(n int) *Staged {
	return &Staged{b: NewBatch(n), items: make([]staged, 0, n)}
}

// Add writes data under a temporary name in path's folder, to be linked to
// path by Publish.
func (s *Staged) Add(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	f, tmp, err := createTemp(dir, perm)
	if err != nil {
		return fail(path, "create temporary file", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = s.b.File(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fail(path, "write", err)
	}
	s.items = append(s.items, staged{path: path, tmp: tmp, data: data, perm: perm})
	return nil
}

// Publish makes the staged files durable and links them into place in the
// order added. For each it calls next with its index and the link's error:
// nil when the file is now in place, one matching fs.ErrExist when the
// target already existed (left as it was). When next returns an error,
// Publish links nothing more and returns that error; the folders of the
// files already linked are still synced. Every temporary file is removed.
func (s *Staged) Publish(next func(i int, err error) error) error {
	items := s.items
	s.items = nil
	moved := make([]bool, len(items))
	defer func() {
		for i, it := range items {
			if !moved[i] {
				os.Remove(it.tmp)
			}
		}
	}()
	if s.b.flushOnce && len(items) > 0 {
		done := map[uint64]bool{}
		for _, it := range items {
			dir := filepath.Dir(it.path)
			dev, ok := deviceOf(dir)
			if ok && done[dev] {
				continue
			}
			if err := syncFS(dir); err != nil {
				return fail(dir, "syncfs", err)
			}
			if ok {
				done[dev] = true
			}
		}
	}
	var stop error
	for i, it := range items {
		renamed, err := renameNoReplace(it.tmp, it.path)
		moved[i] = renamed && err == nil
		if !renamed {
			err = os.Link(it.tmp, it.path)
		}
		switch {
		case err == nil:
			s.b.Dir(filepath.Dir(it.path))
		case errors.Is(err, fs.ErrExist):
			err = fail(it.path, "link", fs.ErrExist)
		default:
			// No hard links here: create the final name exclusively,
			// flushed before it counts.
			if werr := (&Batch{}).WriteNew(it.path, it.data, it.perm); werr != nil {
				err = werr
				if errors.Is(werr, fs.ErrExist) {
					err = fail(it.path, "link", fs.ErrExist)
				}
			} else {
				err = nil
				s.b.Dir(filepath.Dir(it.path))
			}
		}
		if stop = next(i, err); stop != nil {
			break
		}
	}
	dirs := s.b.dirs.take()
	for _, d := range dirs {
		if err := SyncDir(d); err != nil && stop == nil {
			stop = err
		}
	}
	return stop
}
