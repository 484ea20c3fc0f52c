package cli

import "github.com/tp-dev/tp/internal/store"

// passportThere is asked before a screen opens for passport id: a passport
// that is not in the store, or cannot be read, is one line on stderr and
// exit 1 — as headless — not a full screen that says so.
func passportThere(s *store.Store, id string) error {
	_, err := s.Get(id)
	return storeHint(err)
}
