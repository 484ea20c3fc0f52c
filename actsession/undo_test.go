package actsession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
)

// The undo window (issue 17), attack first: undo never deletes a
// settlement another machine or a registrar can have seen. Pushed, or
// applied by a registrar, or in an acts dir that is no git clone (a synced
// folder tp cannot see into): undo writes a signed reopened and the
// settlement stays in the log. Only a settlement neither pushed nor
// applied is removed, and removing it rewrites no history.
func TestUndo(t *testing.T) {
	t.Parallel()
	reopen := func(f *batchFixture) func(st *acts.ActState) (PrincipalWrite, error) {
		return func(st *acts.ActState) (PrincipalWrite, error) {
			r, err := acts.BuildReopen(st, acts.Sender{By: "ps:tp@test", Decider: "p:alice", Now: "2026-12-01T09:06:00Z", Nonce: func() string { return "o1" }})
			return PrincipalWrite{Project: st.Project, Key: st.Key, Records: []acts.Record{r}, Signer: f.key, Register: true}, err
		}
	}
	for _, tc := range []struct {
		name    string
		git     bool
		offline bool // the settlement was written offline: not committed, not pushed
		apply   bool // a registrar on this machine applied it (sync acknowledged it)
		want    string
	}{
		{"pushed", true, false, false, UndoReopened},
		{"applied, not pushed", true, true, true, UndoReopened},
		{"no git: cannot be shown unseen", false, false, false, UndoReopened},
		{"neither pushed nor applied", true, true, false, UndoDiscarded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			var bare, a, b string
			dir := filepath.Join(t.TempDir(), "acts")
			if tc.git {
				bare, a, b = twoClones(t)
				dir = filepath.Join(a, "acts")
			}
			f := newBatchFixture(t, dir, 1)
			w := f.settle(t, f.keys[0], "done")
			writer := f.s
			if tc.offline {
				writer = New(f.s.Log, Options{Offline: true})
			}
			rep, err := writer.WritePrincipal(ctx, w)
			if err != nil {
				t.Fatal(err)
			}
			id := rep.Records[0].ID
			if tc.apply {
				// The registrar on this machine, offline too: it applies
				// and acknowledges, nothing is pushed.
				keep := f.s
				f.s = writer
				f.sync(t)
				f.s = keep
				if _, err := os.Lstat(filepath.Join(f.s.Log.AckedDir("garden"), recordlog.EncodeName(id))); err != nil {
					t.Fatalf("the registrar did not acknowledge the settlement: %v", err)
				}
			}
			path := f.s.Log.RecordPath("garden", id)
			u, err := f.s.Undo(ctx, "garden", f.keys[0], []string{id}, reopen(f))
			if err != nil {
				t.Fatal(err)
			}
			if u.Outcome != tc.want || u.Why == "" {
				t.Fatalf("outcome %s (%s), want %s", u.Outcome, u.Why, tc.want)
			}
			if u.State.Status != acts.StatusOpen {
				t.Errorf("after undo the act is %s", u.State.Status)
			}
			_, statErr := os.Lstat(path)
			switch tc.want {
			case UndoReopened:
				if statErr != nil {
					t.Fatalf("undo deleted a settlement that may have been seen: %v", statErr)
				}
				found, _ := f.s.Find(ctx, "garden", f.keys[0])
				if n := len(found.State.Settlements); n != 2 || found.State.Settlements[1].Type != acts.TypeReopened || !strings.HasPrefix(found.State.Settlements[1].Sig, "-----BEGIN SSH SIGNATURE") {
					t.Fatalf("no signed reopened after the settlement: %+v", found.State.Settlements)
				}
				if len(found.Findings) != 0 {
					t.Errorf("findings after a reopen: %v", found.Findings)
				}
			case UndoDiscarded:
				if statErr == nil {
					t.Fatal("the settlement is still there")
				}
				// Removed on purpose: this machine's signed ledger lets it go
				// (D19), so it is no vanished record here.
				if found, _ := f.s.Find(ctx, "garden", f.keys[0]); found == nil || len(found.Findings) != 0 {
					t.Errorf("findings here after the undo: %+v", found)
				}
				// Nothing of it ever reaches the other machine.
				gitIn(t, b, "pull", "--quiet")
				other := New(recordlog.OpenLog(filepath.Join(b, "acts")), Options{})
				of, err := other.Find(ctx, "garden", f.keys[0])
				if err != nil {
					t.Fatal(err)
				}
				if of.State.Status != acts.StatusOpen || len(of.Findings) != 0 {
					t.Errorf("the other machine sees %s with findings %v", of.State.Status, of.Findings)
				}
				if strings.Contains(gitIn(t, bare, "log", "--all", "--name-only", "--format="), "s~3a") {
					t.Error("the removed settlement reached the upstream's history")
				}
			}
		})
	}
}

// Undo is no way around the tamper-evident log (issue 15, D19): a settlement
// a registrar applied, deleted by hand (what an agent could do instead of
// asking for an undo), is still reported as vanished, and undo refuses to
// treat what is left as the act's settlement.
func TestUndoLeavesTamperEvidence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newBatchFixture(t, filepath.Join(t.TempDir(), "acts"), 1)
	rep, err := f.s.WritePrincipal(ctx, f.settle(t, f.keys[0], "done"))
	if err != nil {
		t.Fatal(err)
	}
	f.sync(t) // applied and acknowledged
	id := rep.Records[0].ID
	if err := os.Remove(f.s.Log.RecordPath("garden", id)); err != nil {
		t.Fatal(err)
	}
	found, err := f.s.Find(ctx, "garden", f.keys[0])
	if err != nil {
		t.Fatal(err)
	}
	vanished := false
	for _, fd := range found.Findings {
		vanished = vanished || fd.Kind == FindingVanished && fd.ID == id
	}
	if !vanished {
		t.Fatalf("a deleted applied settlement is not reported: %+v", found.Findings)
	}
	if _, err := f.s.Undo(ctx, "garden", f.keys[0], []string{id}, nil); err == nil {
		t.Fatal("undo took back a settlement the log no longer holds")
	}
}

// The inbox's batch undo (issue 17): every settlement of the batch removed
// with one commit, or — one of them seen — none.
func TestDiscardAll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, a, _ := twoClones(t)
	f := newBatchFixture(t, filepath.Join(a, "acts"), 3)
	offline := New(f.s.Log, Options{Offline: true})
	var ts []UndoTarget
	for _, k := range f.keys[:2] {
		rep, err := offline.WritePrincipal(ctx, f.settle(t, k, "done"))
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, UndoTarget{Project: "garden", Key: k, IDs: []string{rep.Records[0].ID}})
	}
	if _, err := f.s.WritePrincipal(ctx, f.settle(t, f.keys[2], "done")); err != nil { // commits and pushes all three
		t.Fatal(err)
	}
	// All three are pushed now: nothing is removed.
	if _, err := f.s.DiscardAll(ctx, ts); err == nil || !strings.Contains(err.Error(), "pushed") {
		t.Fatalf("a pushed batch was discarded: %v", err)
	}
	// Two new settlements, offline: removed together, one commit.
	_, b, _ := twoClones(t)
	g := newBatchFixture(t, filepath.Join(b, "acts"), 2)
	off := New(g.s.Log, Options{Offline: true})
	ts = nil
	for _, k := range g.keys {
		rep, err := off.WritePrincipal(ctx, g.settle(t, k, "dropped"))
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, UndoTarget{Project: "garden", Key: k, IDs: []string{rep.Records[0].ID}})
	}
	gitIn(t, b, "add", "-A")
	gitIn(t, b, "commit", "-q", "-m", "the settlements, committed but not pushed")
	head := atoi(gitIn(t, b, "rev-list", "--count", "HEAD"))
	reps, err := g.s.DiscardAll(ctx, ts)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 || reps[0].State.Status != acts.StatusOpen || reps[1].State.Status != acts.StatusOpen {
		t.Fatalf("%+v", reps)
	}
	if n := atoi(gitIn(t, b, "rev-list", "--count", "HEAD")); n != head+1 {
		t.Errorf("%d commits for the removal, want one", n-head)
	}
}
