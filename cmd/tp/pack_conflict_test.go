package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
)

// §4.3: the asks a pack sends are recorded at home with an expected-version
// save. When the passport changed after tp read it, the save is refused and
// no pack appears: a pack whose asks are not recorded at home would leave
// its answers nowhere to land.
func TestPackAsksSaveConflict(t *testing.T) {
	dir := t.TempDir()
	storeDir := filepath.Join(dir, "store")
	env := map[string]string{"TP_STORE": storeDir, "TP_MACHINE": "m", "TP_ACTOR": "a"}
	st, _ := store.Open(storeDir)
	v, err := st.Create("Deck", "Ship the deck", store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := model.Passport{V: v}.ID()

	old := beforeHomeSave
	defer func() { beforeHomeSave = old }()
	beforeHomeSave = func() {
		// Another writer saves the passport in between.
		if _, err := st.Update(id, func(v *ojson.Value) error {
			v.Set("current_state", ojson.NewString("changed meanwhile"))
			return nil
		}); err != nil {
			t.Error(err)
		}
	}
	out := filepath.Join(dir, "out.taskpack")
	code, _, stderr := runWith(env, "pack", id, "--out", out, "--ask", "Send the close|A CSV with EMEA, APAC and AMER revenue|slide 2")
	if code != exitError || !strings.Contains(stderr, "expected") {
		t.Fatalf("code %d, stderr %q: want a conflict naming the versions", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "store" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	got, _ := st.Get(id)
	if asks := got.V.Get("asks").Items(); len(asks) != 0 {
		t.Errorf("asks recorded despite the conflict: %s", ojson.Compact(got.V.Get("asks")))
	}
}
