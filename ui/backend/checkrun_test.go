package backend

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/ui/common"
)

// D12: a command the person confirmed and ran is recorded on the check
// beside the status they attest — edited or not, with its exit status.
func TestLandRecordsConfirmedRun(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		edited        bool
	}{
		{"sender's how as suggested", "touch created-by-how", false},
		{"edited by the person", "true # mine now", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			a, _ := store.Open(t.TempDir())
			b, _ := store.Open(t.TempDir())
			v, err := a.Create("Ship", "Ship it", store.CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			h := filepath.Join(t.TempDir(), "h.taskpack")
			packFrom(t, a, model.Passport{V: v}.ID(), h)
			lb := &Lander{Store: b, Env: landing.Env{Actor: "bob", Machine: "beta"}}
			defer lb.Close()
			plan, err := lb.Plan(ctx, h, func(string, int64, int64) {})
			if err != nil {
				t.Fatal(err)
			}
			id := plan.Checks[0].ID
			d := common.Decisions{Checks: map[string]common.CheckDecision{id: {Status: "failed", Ran: true, Command: tc.command, Exit: 3}}}
			landed, err := lb.Land(ctx, plan, d, noProgress)
			if err != nil {
				t.Fatal(err)
			}
			bs, _ := b.Get(landed.ID)
			c := store.Checks(bs.V)[0]
			run := c.V.Get("run")
			if store.CheckStatus(c) != "failed" || run.Get("command").Text() != tc.command {
				t.Fatalf("run not recorded: %s", ojson.Compact(c.V))
			}
			if e, _ := run.Get("edited").Bool(); e != tc.edited {
				t.Errorf("edited = %v, want %v", e, tc.edited)
			}
			if n, _ := run.Get("exit_code").Int(); n != 3 || run.Get("ran_by").Text() != "bob@beta" {
				t.Errorf("run = %s", ojson.Compact(run))
			}
		})
	}
}

// D12 for tp checks ID: a run confirmed on the checks screen is saved with
// the check, edited or not, beside the status (or alone when none is set).
func TestSaveChecksRecordsRun(t *testing.T) {
	ctx := context.Background()
	a, _ := store.Open(t.TempDir())
	b, _ := store.Open(t.TempDir())
	v, err := a.Create("Ship", "Ship it", store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := filepath.Join(t.TempDir(), "h.taskpack")
	packFrom(t, a, model.Passport{V: v}.ID(), h)
	lb := &Lander{Store: b, Env: landing.Env{Actor: "bob", Machine: "beta"}}
	defer lb.Close()
	plan, err := lb.Plan(ctx, h, func(string, int64, int64) {})
	if err != nil {
		t.Fatal(err)
	}
	landed, err := lb.Land(ctx, plan, common.Decisions{}, noProgress)
	if err != nil {
		t.Fatal(err)
	}
	c := &Checks{Store: b, Actor: "carol", Machine: "gamma"}
	sh, _ := c.LoadChecks(ctx, landed.ID)
	ch := sh.Checks[0]
	for _, tc := range []struct {
		status, command string
		edited          bool
		wantStatus      string
	}{
		{"", ch.How, false, "pending"},
		{"passed", ch.How + " # mine", true, "passed"},
	} {
		at := time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC)
		saved, err := c.SaveChecks(ctx, landed.ID, map[string]common.CheckDecision{ch.ID: {Status: tc.status, Ran: true, Command: tc.command, Exit: 2, RanAt: at}})
		if err != nil {
			t.Fatal(err)
		}
		// The sheet returned is the one saved: its new version and the run
		// as recorded, for the screen to show (issue 10).
		want := common.CheckRun{Command: tc.command, Edited: tc.edited, Exit: 2, By: "carol@gamma", At: "2026-11-30T09:15:00Z"}
		if saved.Version != sh.Version+1 || saved.Checks[0].Run == nil || *saved.Checks[0].Run != want || saved.Checks[0].Status != tc.wantStatus {
			t.Fatalf("returned version %d (was %d), run %+v, status %s", saved.Version, sh.Version, saved.Checks[0].Run, saved.Checks[0].Status)
		}
		sh = saved
		bs, _ := b.Get(landed.ID)
		x := store.Checks(bs.V)[0]
		run := x.V.Get("run")
		if store.CheckStatus(x) != tc.wantStatus || run.Get("command").Text() != tc.command || run.Get("ran_by").Text() != "carol@gamma" {
			t.Fatalf("saved %s", ojson.Compact(x.V))
		}
		if e, _ := run.Get("edited").Bool(); e != tc.edited {
			t.Errorf("edited = %v, want %v", e, tc.edited)
		}
		if n, _ := run.Get("exit_code").Int(); n != 2 {
			t.Errorf("exit_code = %d", n)
		}
	}
}

// Issue 10: when the passport cannot be saved after the staged luggage was
// moved into place, landing again from the confirm step works — the luggage
// is staged again, where the checks ran.
func TestStagedLandRetries(t *testing.T) {
	ctx := context.Background()
	a, _ := store.Open(t.TempDir())
	b, _ := store.Open(t.TempDir())
	v, err := a.Create("Ship", "Ship it", store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := filepath.Join(t.TempDir(), "h.taskpack")
	packFrom(t, a, model.Passport{V: v}.ID(), h)
	lb := &Lander{Store: b, Env: landing.Env{Actor: "bob", Machine: "beta"}}
	defer lb.Close()
	plan, err := lb.Plan(ctx, h, noProgress)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := lb.Stage(ctx, plan, noProgress)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rawOf(plan)
	blocker := b.Path(r.plan.ID)
	if err := os.WriteFile(blocker, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := lb.Land(ctx, plan, common.Decisions{}, noProgress); err == nil {
		t.Fatal("landed over a file in the way")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("the staging folder is gone after the failed landing: %v", err)
	}
	os.Remove(blocker)
	landed, err := lb.Land(ctx, plan, common.Decisions{}, noProgress)
	if err != nil {
		t.Fatalf("landing again: %v", err)
	}
	if _, err := b.Get(landed.ID); err != nil {
		t.Fatal(err)
	}
}
