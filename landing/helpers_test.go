package landing

import (
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/internal/store"
)

// file is one ZIP entry (or one piece of luggage): name and bytes.
type file = packtest.File

// refData is the reference implementation's fixtures, kept beside the
// format package.
var refData = filepath.Join("..", "pack", "testdata", "ref")

// sentFrom records that st sent a pack from version v of passport id, as
// tp pack would have (issue 18: restoring a ✓ and merging a receipt ask for
// a pack this store made).
func sentFrom(t testing.TB, st *store.Store, id string, v int64) {
	t.Helper()
	if err := st.RecordSent(id, store.SentPack{Version: v, Kind: "handoff", PackedAt: "2026-09-03T14:20:00Z", ContentSHA256: "test"}); err != nil {
		t.Fatal(err)
	}
}
