package cli

import (
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
)

// newIDWord stands for the id a handoff will get when it lands.
const newIDWord = "<new id>"

// placePlan makes the printed plan say what the landing will do with the
// id and the luggage folder:
//
//   - --files-out moves the luggage, so the plan shows that folder, not the
//     store's;
//   - a dry run promises no id. The plan's id is minted for this process
//     (a landing of the same plan in the same process, as the walkthrough
//     does, uses it), but a dry run writes nothing, so nothing could hold
//     the id until a later `tp land` — which mints its own. Showing one
//     would promise an id the landing will not use; the plan says "a new
//     id" and its files folder is <store>/<new id>.files.
func placePlan(pl *landing.Plan, st *store.Store, o landOptions) {
	if pl.Merge != nil || pl.ID == "" {
		return
	}
	dir := pl.FilesDir
	switch {
	case o.FilesOut != "":
		if abs, err := filepath.Abs(o.FilesOut); err == nil {
			dir = abs
		}
	case o.DryRun:
		dir = st.FilesDir(newIDWord)
	}
	if o.DryRun {
		pl.ID = ""
	}
	if dir == pl.FilesDir {
		return
	}
	for i, l := range pl.Luggage {
		if rel, err := filepath.Rel(pl.FilesDir, l.To); err == nil && !strings.HasPrefix(rel, "..") {
			pl.Luggage[i].To = filepath.Join(dir, rel)
		}
	}
	pl.FilesDir = dir
}
