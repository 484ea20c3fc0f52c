package filestamp

import (
	"sync"
	"time"
)

// Memo remembers what was made of files (a conformance report, a pack read
// and judged, a record decoded), each with the file's stamp, so a file
// asked for again unchanged is not read again.
//
// Nothing unchecked is trusted: the stamp is taken before the file is read
// and again after, and what was made is kept only when the two are equal
// and the file had not changed within the stamp's resolution of the moment
// it was first looked at (Racy). A file rewritten in place afterwards, even
// to the same size and modification time, has a new change time; a file
// replaced by rename, or a link pointed elsewhere, has a new inode.
//
// The zero Memo is ready; it is safe for concurrent use. What Of returns
// is shared by every caller that gets it: callers only read it, or copy it.
type Memo[T any] struct {
	// Keep bounds how many files are remembered (the oldest go first);
	// 0 means 16.
	Keep int
	// Follow takes the stamp of the file a link names (OfTarget), for
	// callers that read through links; else the link's own (Of).
	Follow bool
	// Clock is the wall clock the racy rule reads (a test seam); nil is
	// time.Now.
	Clock func() time.Time
	// Made counts the calls of make (a test seam).
	Made int

	mu      sync.Mutex
	entries map[string]memoEntry[T]
	order   []string // oldest first, for the bound
}

type memoEntry[T any] struct {
	stamp Stamp
	made  T
}

// Of is what was made of the file at path, remembered under key: the
// remembered value while the file is as it was, else make's, remembered
// when it may be.
func (m *Memo[T]) Of(key, path string, make func() (T, error)) (T, error) {
	now := time.Now
	if m.Clock != nil {
		now = m.Clock
	}
	stamp := Of
	if m.Follow {
		stamp = OfTarget
	}
	looked := now()
	before, ok := stamp(path)
	m.mu.Lock()
	if e, hit := m.entries[key]; ok && hit && e.stamp == before {
		m.mu.Unlock()
		return e.made, nil
	}
	m.Made++
	m.mu.Unlock()
	made, err := make()
	if err != nil || !ok || before.Racy(looked) {
		return made, err
	}
	if after, ok := stamp(path); !ok || after != before {
		return made, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil {
		m.entries = map[string]memoEntry[T]{}
	}
	if _, had := m.entries[key]; !had {
		m.order = append(m.order, key)
	}
	m.entries[key] = memoEntry[T]{stamp: before, made: made}
	keep := m.Keep
	if keep <= 0 {
		keep = 16
	}
	for len(m.order) > keep {
		delete(m.entries, m.order[0])
		m.order = m.order[1:]
	}
	return made, nil
}
