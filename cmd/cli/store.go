package cli

import (
	"errors"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/store"
)

// openStore opens the passport store the command line points at: --store,
// else D15's default ($TP_STORE, $TASK_PASSPORT_STORE, the XDG data dir).
func openStore(io *IO, g *globalOpts) (*store.Store, error) {
	dir := g.store
	if dir == "" {
		dir = store.DefaultDir(io.Env)
	}
	if dir == "" {
		return nil, withHint(errors.New("no passport store: no --store, TP_STORE, TASK_PASSPORT_STORE, XDG_DATA_HOME or HOME"),
			"pass --store DIR or set TP_STORE")
	}
	return store.Open(dir)
}

// storeHint adds what to do next to the store errors people meet.
func storeHint(err error) error {
	var nf *store.ErrNotFound
	var ce *store.ConflictError
	var busy *store.BusyError
	switch {
	case errors.As(err, &nf):
		return withHint(err, "tp list shows the passports in this store; --store DIR picks another")
	case errors.As(err, &ce):
		return withHint(err, "another program saved "+display.Line(ce.ID)+" meanwhile; run the command again")
	case errors.As(err, &busy):
		if busy.Rule != "" {
			return withHint(err, "another tp or task-passport is saving; try again (this lock: "+busy.Rule+")")
		}
		return withHint(err, "another tp or task-passport is saving; try again")
	}
	return err
}

// actorAndMachine resolves who is acting here (D14), for answered_by and
// checked_by.
func actorAndMachine(io *IO, flag string) string {
	return store.By(store.Actor(flag, io.Env), store.Machine(io.Env))
}
