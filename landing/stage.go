package landing

// Staging: a handoff's luggage unpacked before the person decides to land,
// so that the landing checks run where the files are (§4.4, issue 10).

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/pack"
)

// Staged is a handoff's luggage extracted, verified against its digests and
// scanned (D5), in a hidden folder beside where it will land, before the
// person has decided. A walkthrough runs the landing checks in Dir. Land
// with Decisions.Staged moves the folder into place instead of extracting
// again; Abort removes it. Nothing in it is ever executed by tp.
type Staged struct {
	// Dir is the staging folder: where the landing checks run.
	Dir string

	mu    sync.Mutex
	names []string // luggage files, relative to Dir
	found luggageFindings
	dest  string // where Land moves Dir
	gone  bool   // moved into place, or removed
}

// Stage unpacks plan's luggage into a fresh staging folder next to where
// Land will put it (<store>/<id>.files, or filesOut), with the same rules as
// landing it: only inside the folder, no links followed, no execute bits,
// every byte verified. progress is called as in Decisions.Progress. On error
// or cancellation nothing is left behind. A pack without luggage is staged
// as an empty folder, so its checks still run in a folder of their own.
func Stage(ctx context.Context, p *pack.Pack, plan *Plan, st *store.Store, filesOut string, progress func(done, total int64)) (*Staged, error) {
	if plan == nil || plan.obj == nil {
		return nil, errors.New("stage: no plan (make one with PlanLanding)")
	}
	dest := st.FilesDir(plan.ID)
	if filesOut != "" {
		abs, err := filepath.Abs(filesOut)
		if err != nil {
			return nil, err
		}
		dest = abs
	}
	if _, err := os.Lstat(dest); err == nil {
		return nil, fmt.Errorf("luggage folder %s already exists; not writing into it", dest)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	parent := filepath.Dir(dest)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, err
	}
	sweepStale(parent, time.Now()) // file times are the real clock's
	// The name carries ".files.landing-" so that a staging folder left by a
	// process that died is swept like any other unfinished landing.
	dir := filepath.Join(parent, "."+filepath.Base(dest)+landingSuffix+"staged-"+randHex(6))
	s := &Staged{Dir: dir, dest: dest, names: []string{}}
	if len(plan.luggage) == 0 {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		return s, nil
	}
	open := plan.open
	if p != nil {
		open = p.OpenLuggage
	}
	names, found, err := extract(ctx, plan.luggage, plan.landAs, open, dir, progress)
	err = namePack(err, plan.File)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		rel, err := filepath.Rel(dir, n)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.names = append(s.names, rel)
	}
	s.found = found
	return s, nil
}

// Abort removes the staging folder, unless Land moved it into place. It is
// safe to call more than once.
func (s *Staged) Abort() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone {
		return nil
	}
	s.gone = true
	return os.RemoveAll(s.Dir)
}

// commit moves the staged folder to dest (Land's files folder) and returns
// where each file now is. The folder must not exist at dest.
func (s *Staged) commit(dest string) ([]string, luggageFindings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone {
		return nil, luggageFindings{}, errors.New("land: the staged luggage was already landed or removed")
	}
	if filepath.Clean(dest) != filepath.Clean(s.dest) {
		return nil, luggageFindings{}, fmt.Errorf("land: the luggage was staged for %s, not %s", s.dest, dest)
	}
	if _, err := os.Lstat(dest); err == nil {
		return nil, luggageFindings{}, fmt.Errorf("luggage folder %s appeared while landing; not replacing it", dest)
	}
	if err := durable.Rename(s.Dir, dest); err != nil {
		return nil, luggageFindings{}, err
	}
	s.gone = true
	files := make([]string, 0, len(s.names))
	for _, n := range s.names {
		files = append(files, filepath.Join(dest, n))
	}
	return files, s.found, nil
}

// uncommit moves the folder commit moved to dest back to staging, when the
// landing failed after it (the passport could not be saved): the luggage
// stays staged, so the landing can be tried again, and Abort still removes
// it.
func (s *Staged) uncommit(dest string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.gone {
		return nil
	}
	if err := durable.Rename(dest, s.Dir); err != nil {
		return err
	}
	s.gone = false
	return nil
}
