package backend

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui"
	"github.com/tp-dev/tp/ui/common"
	uilanding "github.com/tp-dev/tp/ui/landing"
)

// bigPack writes a handoff with n asks and n landing checks.
func bigPack(b *testing.B, n int) (string, *store.Store) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	v, err := st.Create("Big", "A pack with many asks and checks", store.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var asks, checks []*ojson.Value
	for i := 0; i < n; i++ {
		asks = append(asks, landing.ParseAsk(fmt.Sprintf("Question %d for the receiver|the name of bucket %d|needed for step %d", i, i, i)))
		checks = append(checks, landing.ParseCheck(fmt.Sprintf("check %d holds on this machine|test -e /tmp/thing-%d", i, i)))
	}
	built, err := landing.Build(context.Background(), v, landing.BuildOptions{Kind: model.KindHandoff, Asks: asks, Checks: checks, Actor: "alice", Machine: "alpha"})
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "big.taskpack")
	if err := pack.Write(out, built.Source, pack.EncodingBag, pack.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	dst, _ := store.Open(b.TempDir())
	return out, dst
}

func benchFirstFrame(b *testing.B, judge bool) {
	file, st := bigPack(b, 1000)
	th, _ := themes.New(themes.NoColor, nil)
	b.ReportAllocs()
	for b.Loop() {
		l := &Lander{Store: st, Env: landing.Env{Actor: "bob", Machine: "beta"}}
		plan, err := l.Plan(context.Background(), file, func(string, int64, int64) {})
		if err != nil {
			b.Fatal(err)
		}
		c := common.NewCommon(context.Background(), th, common.Deps{Lander: l}, "/")
		app := ui.New(c, uilanding.New(c, file))
		app.Update(uilanding.PlanMsg{Plan: plan})
		_ = app.View()
		if judge {
			if _, err := l.Judge(context.Background(), file); err != nil {
				b.Fatal(err)
			}
		}
		l.Close()
	}
}

// The first frame of `tp land` on a pack with 1,000 asks and 1,000 checks:
// open and verify, plan, and draw the summary.
func BenchmarkLandFirstFrame(b *testing.B) { benchFirstFrame(b, false) }

// The first frame plus C0–C10 judged for the summary (a second, strict
// read that the UI runs after the first frame).
func BenchmarkLandFirstFrameJudged(b *testing.B) { benchFirstFrame(b, true) }
