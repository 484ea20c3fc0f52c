package main

import (
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/ui"
	"github.com/tp-dev/tp/ui/backend"
)

// principalRecords is the acts core's builder of principal-side records
// (settled, related same_as, reopened, note), as the inbox calls it. It is
// nil until the acts package provides one: the inbox then lists acts and
// says settling is unavailable.
func principalRecords(io *IO) backend.Principal {
	_ = io
	var build func(st *acts.ActState, a ui.Action) ([]acts.Record, error)
	return build
}
