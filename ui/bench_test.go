package ui

import (
	"context"
	"fmt"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/ui/backend"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"

	tea "github.com/charmbracelet/bubbletea"
)

func bigPlan(n int) *common.Plan {
	p := samplePlan()
	p.Checks, p.Asks, p.Facts = nil, nil, nil
	for i := 0; i < n; i++ {
		p.Checks = append(p.Checks, common.Check{ID: fmt.Sprintf("c%d", i), Check: fmt.Sprintf("check number %d holds on this machine", i), How: fmt.Sprintf("test -e /tmp/thing-%d", i), Required: i%2 == 0})
		p.Asks = append(p.Asks, common.Ask{ID: fmt.Sprintf("a%d", i), What: fmt.Sprintf("question %d for the receiver", i), Why: "because", Accept: "an answer", Status: "open"})
		p.Facts = append(p.Facts, common.Fact{Claim: fmt.Sprintf("fact %d", i), Scope: "machine", Sealed: true, VerifiedOn: "laptop"})
	}
	return p
}

// The first frame of the landing screen once the plan has arrived: the
// model takes the plan and draws the summary (1,000 asks and 1,000 checks).
func BenchmarkLandingFirstFrame(b *testing.B) {
	p := bigPlan(1000)
	c := testCommon(b, common.Deps{})
	b.ReportAllocs()
	for b.Loop() {
		l := landing.New(c, "big.taskpack")
		app := New(c, l)
		app.Update(landing.PlanMsg{Plan: p})
		_ = app.View()
	}
}

// Drawing the checks step with 1,000 checks (only the visible rows are drawn).
func BenchmarkLandingChecksView(b *testing.B) {
	c := testCommon(b, common.Deps{})
	l := landing.NewWithPlan(c, bigPlan(1000))
	l.GoStep(landing.StepChecks)
	b.ReportAllocs()
	for b.Loop() {
		l.Update(keyMsg("down"))
		_ = l.View()
	}
}

func manyActs(n int) []common.Act {
	acts := make([]common.Act, n)
	for i := range acts {
		acts[i] = common.Act{Key: fmt.Sprintf("k%05d", i), Project: fmt.Sprintf("project-%d", i%17), Status: "open",
			Text: fmt.Sprintf("Pay invoice %d from supplier %d", i, i%311), TermsRev: 1}
		if i%5 == 0 {
			acts[i].Due = "2026-12-01"
		}
	}
	return acts
}

// One keystroke typed into the inbox filter with 10,000 acts: Update
// (refilter) and the frame that follows.
func BenchmarkInboxFilterKeystroke(b *testing.B) {
	c := testCommon(b, common.Deps{})
	s := NewInboxWithActs(c, manyActs(10000))
	s.Update(keyMsg("/"))
	keys := []tea.KeyMsg{keyMsg("1"), keyMsg("2"), keyMsg("backspace"), keyMsg("backspace")}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.Update(keys[i%len(keys)])
		_ = s.View()
		i++
	}
}

// Moving the cursor in a list of 10,000 acts: Update and the next frame.
func BenchmarkInboxMove(b *testing.B) {
	c := testCommon(b, common.Deps{})
	s := NewInboxWithActs(c, manyActs(10000))
	down, up := keyMsg("down"), keyMsg("up")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if (i/5000)%2 == 0 {
			s.Update(down)
		} else {
			s.Update(up)
		}
		_ = s.View()
		i++
	}
}

// Switching the project filter over 10,000 acts.
func BenchmarkInboxProjectFilter(b *testing.B) {
	c := testCommon(b, common.Deps{})
	s := NewInboxWithActs(c, manyActs(10000))
	b.ReportAllocs()
	for b.Loop() {
		s.Update(keyMsg("tab"))
		_ = s.View()
	}
}

// bigHome is a store of n passports and an acts log of n open acts in 17
// projects, as the home screen reads them (ui/backend over the store and
// the acts session, as tp's TUI wires them).
func bigHome(b *testing.B, n int) common.Deps {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if _, err := st.Create(fmt.Sprintf("Passport %d", i), fmt.Sprintf("Goal of passport %d", i), store.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	l := recordlog.OpenLog(b.TempDir())
	for i := range n {
		project, text := fmt.Sprintf("project-%d", i%17), fmt.Sprintf("Pay invoice %d from supplier %d", i, i%311)
		key := acts.DeriveKey(project, text)
		if _, err := l.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(key), Type: acts.TypeRaised,
			Origin: "requester", By: "registrar", Key: key, Project: project, TS: "2026-11-01T10:00:00Z",
			Terms: &acts.Terms{Text: text}, TermsRev: 1}); err != nil {
			b.Fatal(err)
		}
	}
	inbox := &backend.Inbox{Session: actsession.New(l, actsession.Options{Offline: true})}
	return common.Deps{Home: &backend.Home{Store: st, Inbox: inbox, Dir: b.TempDir()}}
}

// The home screen's first frame with 1,000 passports and 1,000 acts
// (issue 20: under 100 ms): the store's passport files listed by id, none
// read, and drawn (BenchmarkHomeLoaded reads them and the acts log). Process start-up and the terminal are not in
// it: scripts/bench-tui-first-frame.sh measures those from tmux.
func BenchmarkHomeFirstFrame(b *testing.B) {
	deps := bigHome(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		c := common.NewCommon(context.Background(), testCommon(b, deps).Theme, deps, "/")
		c.Width, c.Height = 120, 40
		h := NewHome(c)
		app := New(c, h)
		app.Update(h.Init()()) // the listing: the first frame (issue 20)
		_ = app.View()
	}
}

// The home screen until its lists are read and drawn: the listing, then
// every passport and the acts log read (what the first frame waited for
// before issue 20).
func BenchmarkHomeLoaded(b *testing.B) {
	deps := bigHome(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		c := common.NewCommon(context.Background(), testCommon(b, deps).Theme, deps, "/")
		c.Width, c.Height = 120, 40
		h := NewHome(c)
		app := New(c, h)
		homeLoad(app, h)
		_ = app.View()
	}
}

// homeLoad runs the home screen's start to its end: the listing and the
// load it starts.
func homeLoad(app *App, h *Home) {
	for cmd := h.Init(); cmd != nil; {
		_, cmd = app.Update(cmd())
	}
}

// A key step on the loaded home screen (cursor down, then the frame), with
// 1,000 passports and 1,000 acts (issue 20: under 16 ms).
func BenchmarkHomeKeyStep(b *testing.B) {
	deps := bigHome(b, 1000)
	c := testCommon(b, deps)
	c.Width, c.Height = 120, 40
	h := NewHome(c)
	app := New(c, h)
	homeLoad(app, h)
	if h.data == nil {
		b.Fatal("the home screen never loaded")
	}
	down, up := keyMsg("down"), keyMsg("up")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if (i/1500)%2 == 0 {
			app.Update(down)
		} else {
			app.Update(up)
		}
		_ = app.View()
		i++
	}
}
