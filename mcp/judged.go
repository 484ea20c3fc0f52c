package mcp

import (
	"sync"
	"time"

	"github.com/tp-dev/tp/internal/filestamp"
)

// judgedFiles remembers what was made of the files judged (a conformance
// report, a pack read for a dry-run land), each with the file's identity
// (filestamp: device, inode, size, change times), so a file judged again
// unchanged (an agent checks a pack before it lands it, or plans the
// landing twice) is not read and judged again.
//
// Nothing unchecked is trusted: the identity is taken before the file is
// read and again after, and the judgement is kept only when the two are
// equal and the file had not changed within the timestamp resolution of
// the moment it was first looked at (filestamp's racy rule, as the store's
// LandedFrom keeps it). A file rewritten in place afterwards, even to the
// same size and modification time, has a new change time; a file replaced
// by rename, or a link pointed elsewhere, has a new inode.
type judgedFiles[T any] struct {
	mu      sync.Mutex
	entries map[string]judgedFile[T] // by the path as confined
	order   []string                 // oldest first, for the bound
	// clock and judged are test seams: the wall clock the racy rule reads,
	// and how many files were judged.
	clock  func() time.Time
	judged int
}

type judgedFile[T any] struct {
	stamp filestamp.Stamp
	made  T
}

// judgedKept bounds what is remembered: the few packs an agent is working
// with, not every file it ever judged.
const judgedKept = 16

func (j *judgedFiles[T]) now() time.Time {
	if j.clock != nil {
		return j.clock()
	}
	return time.Now()
}

// of is what was made of path: remembered when path is as it was when it
// was judged, else judge's, remembered when it may be. What is returned is
// shared: callers only read it.
func (j *judgedFiles[T]) of(path string, judge func() (T, error)) (T, error) {
	looked := j.now()
	before, ok := filestamp.OfTarget(path)
	if ok {
		j.mu.Lock()
		e, hit := j.entries[path]
		j.mu.Unlock()
		if hit && e.stamp == before {
			return e.made, nil
		}
	}
	j.mu.Lock()
	j.judged++
	j.mu.Unlock()
	made, err := judge()
	if err != nil || !ok || before.Racy(looked) {
		return made, err
	}
	if after, ok := filestamp.OfTarget(path); !ok || after != before {
		return made, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.entries == nil {
		j.entries = map[string]judgedFile[T]{}
	}
	if _, had := j.entries[path]; !had {
		j.order = append(j.order, path)
	}
	j.entries[path] = judgedFile[T]{stamp: before, made: made}
	for len(j.order) > judgedKept {
		delete(j.entries, j.order[0])
		j.order = j.order[1:]
	}
	return made, nil
}
