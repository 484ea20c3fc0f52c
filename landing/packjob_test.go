package landing

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

func packFixture(t *testing.T) (st *store.Store, id, dir string) {
	t.Helper()
	dir = t.TempDir()
	st, err := store.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.Create("Deck", "Ship the deck", store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st, model.Passport{V: v}.ID(), dir
}

func askReq(id, out string) PackRequest {
	return PackRequest{ID: id, Out: out, Encoding: pack.EncodingBag, Build: BuildOptions{
		Asks:  []*ojson.Value{ParseAsk("Send the close|A CSV with EMEA, APAC and AMER revenue|slide 2")},
		Actor: "a", Machine: "m"}}
}

// TaskPack 0.1 §4.3: the asks a pack sends are recorded at home with an
// expected-version save. When the passport changed after it was read, the
// save is refused and no pack appears: a pack whose asks are not recorded at
// home would leave its answers nowhere to land.
func TestPackAsksSaveConflict(t *testing.T) {
	st, id, dir := packFixture(t)
	out := filepath.Join(dir, "out.taskpack")
	_, err := packWith(context.Background(), st, askReq(id, out), packHooks{beforeHomeSave: func() {
		// Another writer saves the passport in between.
		if _, err := st.Update(id, func(v *ojson.Value) error {
			v.Set("current_state", ojson.NewString("changed meanwhile"))
			return nil
		}); err != nil {
			t.Error(err)
		}
	}})
	var ce *store.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *store.ConflictError", err)
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
	if packs, _, err := st.Sent(id); err != nil || len(packs) != 0 {
		t.Errorf("the record of packs sent names %+v (%v): a pack that never appeared", packs, err)
	}
}

// The pack appears and its asks are recorded at home, with the new version.
func TestPackRecordsAsks(t *testing.T) {
	st, id, dir := packFixture(t)
	out := filepath.Join(dir, "sub", "out.taskpack")
	rep, err := Pack(context.Background(), st, askReq(id, out))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
	if len(rep.Recorded) != 1 || rep.HomeVersion != rep.Version+1 {
		t.Fatalf("report: recorded %v, version %d → %d", rep.Recorded, rep.Version, rep.HomeVersion)
	}
	got, _ := st.Get(id)
	if asks := got.V.Get("asks").Items(); len(asks) != 1 || got.Version != rep.HomeVersion {
		t.Fatalf("home: %d asks at version %d", len(asks), got.Version)
	}
}

// A refused pack (an ask without accept, §4.3) records nothing and leaves
// no file.
func TestPackRefusedRecordsNothing(t *testing.T) {
	st, id, dir := packFixture(t)
	req := askReq(id, filepath.Join(dir, "out.taskpack"))
	req.Build.Asks = []*ojson.Value{ParseAsk("Send the close")}
	rep, err := Pack(context.Background(), st, req)
	var re *pack.RefusalError
	if !errors.As(err, &re) || rep == nil {
		t.Fatalf("err = %v (report %v), want a refusal with the report", err, rep)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "store" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if got, _ := st.Get(id); got.Version != rep.Version {
		t.Errorf("home saved despite the refusal: version %d", got.Version)
	}
}

// The pack's bytes and the record of packs sent are synced together (D18):
// when either sync fails, no pack is put in place, no temporary file is
// left beside it or in the store, and the record claims no pack that is
// not there (a record made before stays as it was). Each case packs twice:
// the first succeeds, so the record the second would extend exists.
func TestPackSyncFails(t *testing.T) {
	pulled := errors.New("disk pulled")
	for _, what := range []string{"pack", "sent", "both"} {
		t.Run(what, func(t *testing.T) {
			st, id, dir := packFixture(t)
			first := PackRequest{ID: id, Out: filepath.Join(dir, "first.taskpack"), Encoding: pack.EncodingBag,
				Build: BuildOptions{Actor: "a", Machine: "m"}}
			if _, err := Pack(context.Background(), st, first); err != nil {
				t.Fatal(err)
			}
			before, _, err := st.Sent(id)
			if err != nil || len(before) != 1 {
				t.Fatalf("the first pack's record: %v %v", before, err)
			}
			req := first
			req.Out = filepath.Join(dir, "second.taskpack")
			req.Build.Note = "a second pack, another content identity"
			var mu sync.Mutex // the two syncs run at once
			failed := map[string]bool{}
			_, err = packWith(context.Background(), st, req, packHooks{failSync: func(w string) error {
				if w == what || what == "both" {
					mu.Lock()
					failed[w] = true
					mu.Unlock()
					return pulled
				}
				return nil
			}})
			if !errors.Is(err, pulled) {
				t.Fatalf("err = %v, want the failed sync's", err)
			}
			if want := map[string]bool{"pack": what != "sent", "sent": what != "pack"}; failed["pack"] != want["pack"] || failed["sent"] != want["sent"] {
				t.Errorf("syncs failed: %v, want %v (both are tried)", failed, want)
			}
			if _, err := os.Lstat(req.Out); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a pack was put in place: %v", err)
			}
			for _, d := range []string{dir, st.Dir()} {
				entries, _ := os.ReadDir(d)
				for _, e := range entries {
					if durable.IsTemp(e.Name()) || strings.HasSuffix(e.Name(), ".lock") {
						t.Errorf("left behind in %s: %s", d, e.Name())
					}
				}
			}
			if after, _, err := st.Sent(id); err != nil || len(after) != 1 || after[0].ContentSHA256 != before[0].ContentSHA256 {
				t.Errorf("the record of packs sent names %+v (%v), want only the first pack %+v", after, err, before)
			}
			// Nothing is held: the next pack is made and recorded.
			if _, err := Pack(context.Background(), st, req); err != nil {
				t.Fatal(err)
			}
			packs, _, err := st.Sent(id)
			if err != nil || len(packs) != 2 {
				t.Errorf("after a pack made again: %d packs recorded (%v), want 2", len(packs), err)
			}
		})
	}
}
