package landing

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// Home offers to land only what can or need be landed (issue 17): a pack
// this store made is "sent by you", a handoff landed here is "landed", a
// receipt merged here is "merged", each naming its passport; anything else,
// or a file that is not a pack, is "to land".
func TestPackStates(t *testing.T) {
	for _, enc := range []pack.Encoding{pack.EncodingBag, pack.EncodingFlat} {
		t.Run(string(enc), func(t *testing.T) {
			ctx := context.Background()
			storeA, storeB := testStore(t), testStore(t)
			dir := t.TempDir()
			a := newPassport(t, storeA, nil)
			ext := ".taskpack"
			if enc == pack.EncodingFlat {
				ext = ".taskpack.json"
			}
			h := filepath.Join(dir, "h"+ext)
			if _, err := Pack(ctx, storeA, PackRequest{ID: a, Out: h, Encoding: enc,
				Build: BuildOptions{Actor: "maria", Machine: "studio", Asks: []*ojson.Value{ParseAsk("Which bucket?|a bucket name")}}}); err != nil {
				t.Fatal(err)
			}
			_, lb := landIt(t, h, storeB, envOn("laptop", "bob"), Decisions{})
			answerAndSave(t, storeB, lb.ID, "a1", "s3://b", "bob@laptop")
			r := filepath.Join(dir, "r"+ext)
			if _, err := Pack(ctx, storeB, PackRequest{ID: lb.ID, Out: r, Encoding: enc, Build: BuildOptions{Kind: model.KindReceipt, Actor: "bob", Machine: "laptop"}}); err != nil {
				t.Fatal(err)
			}
			junk := filepath.Join(dir, "junk"+ext)
			if err := os.WriteFile(junk, []byte("not a pack"), 0o644); err != nil {
				t.Fatal(err)
			}
			paths := []string{h, r, junk}

			states := func(st *store.Store) []PackState {
				es, _, err := st.List()
				if err != nil {
					t.Fatal(err)
				}
				return PackStates(st, es, paths)
			}
			want := func(st *store.Store, w ...PackState) {
				t.Helper()
				got := states(st)
				for i := range w {
					if got[i] != w[i] {
						t.Errorf("%s: %+v, want %+v", filepath.Base(paths[i]), got[i], w[i])
					}
				}
			}
			// Before the receipt is merged: A sent h, B landed h and sent r.
			want(storeA, PackState{PackSent, a}, PackState{State: PackToLand}, PackState{State: PackToLand})
			want(storeB, PackState{PackLanded, lb.ID}, PackState{PackSent, lb.ID}, PackState{State: PackToLand})
			mergeIt(t, r, storeA, "", envOn("studio", "maria"))
			want(storeA, PackState{PackSent, a}, PackState{PackMerged, a}, PackState{State: PackToLand})
		})
	}
}
