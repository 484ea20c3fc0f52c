package mcp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/store"
)

// TestServerWatchesTheStore: the server follows its store folder's changes
// (D15), so a dry-run land after each save reads only what changed; a
// folder that does not exist yet (a first run) is watched once it does.
func TestServerWatchesTheStore(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "store")
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	New(Config{Store: st, WorkDir: t.TempDir(), Offline: true, Version: "test", Env: func(string) string { return "" }})
	if st.Watching() {
		t.Fatal("a store folder that does not exist is watched")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.LandedFrom(); err != nil {
		t.Fatal(err)
	}
	if !st.Watching() {
		t.Fatal("the server does not watch its store folder")
	}
}
