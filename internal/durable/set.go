package durable

import (
	"path/filepath"
	"sort"
	"sync"
)

// syncSet is a concurrent set of folders.
type syncSet struct {
	mu sync.Mutex
	m  map[string]struct{}
}

func (s *syncSet) add(dir string) {
	dir = filepath.Clean(dir)
	s.mu.Lock()
	if s.m == nil {
		s.m = map[string]struct{}{}
	}
	s.m[dir] = struct{}{}
	s.mu.Unlock()
}

// take empties the set and returns its folders, deepest first, so a
// folder's own entry is synced after what it holds.
func (s *syncSet) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.m))
	for d := range s.m {
		out = append(out, d)
	}
	s.m = nil
	sort.Slice(out, func(i, j int) bool { return out[i] > out[j] })
	return out
}
