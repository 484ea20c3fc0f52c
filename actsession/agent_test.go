package actsession

import (
	"context"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentFixture is a project with one raised act and no settlement.
func agentFixture(t *testing.T) (*Session, string) {
	t.Helper()
	dir := t.TempDir()
	l := recordlog.OpenLog(filepath.Join(dir, "acts"))
	doc := filepath.Join(dir, "STATE.md")
	if err := os.WriteFile(doc, []byte("## Tasks\n\n- [ ] [owner] Collect the shed key\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prof, err := acts.ProfileFor("en", "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Sync(context.Background(), l, SyncRequest{Document: doc, Project: "garden", Profile: prof, Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil || len(rep.Sent) != 1 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	return New(l, Options{}), rep.Sent[0].Key
}

// Only the principal settles (Acts 0.3 §10): WriteAgent refuses every
// principal-side record, whatever builds it, and writes nothing.
func TestAgentWriteRefusesPrincipalRecords(t *testing.T) {
	t.Parallel()
	s, key := agentFixture(t)
	principal := acts.Sender{By: "agent:x", Decider: "p:x", Now: "2026-12-01T09:01:00Z"}
	count := func() int {
		ld, err := s.Log.Load("garden")
		if err != nil {
			t.Fatal(err)
		}
		return len(ld.Records)
	}
	before := count()
	for name, build := range map[string]func(*acts.ActState) (acts.Record, error){
		"settled": func(st *acts.ActState) (acts.Record, error) {
			rs, err := acts.BuildSettle(st, principal, "done", "", "", 0)
			return rs[0], err
		},
		"principal note": func(st *acts.ActState) (acts.Record, error) {
			return acts.BuildNote(st, principal, "from the principal")
		},
		"reopened": func(st *acts.ActState) (acts.Record, error) {
			r, err := acts.BuildClaim(st, principal, "done", "b")
			r.Type = acts.TypeReopened // disguised as an agent's
			return r, err
		},
		"claim as principal": func(st *acts.ActState) (acts.Record, error) {
			r, err := acts.BuildClaim(st, principal, "done", "b")
			r.Origin = "principal"
			return r, err
		},
	} {
		_, _, err := s.WriteAgent(context.Background(), "garden", key, build)
		if err == nil || !strings.Contains(err.Error(), "only the principal") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := count(); n != before {
		t.Errorf("refused writes left %d records", n-before)
	}
	r, f, err := s.WriteAgent(context.Background(), "", key, func(st *acts.ActState) (acts.Record, error) {
		return acts.BuildAgentNote(st, acts.Sender{By: "agent:x", Now: "2026-12-01T09:02:00Z"}, "the key is under the mat")
	})
	st := f.State
	if err != nil || r.Type != acts.TypeNote || r.Origin != "agent" || len(st.Notes) != 1 || st.Status != acts.StatusOpen {
		t.Errorf("agent note: %+v %+v %v", r, st, err)
	}
}

// Wait: a timeout that passes returns the open act; Waiting is told
// once when the act is first read unsettled; a settled act returns at once.
func TestWaitSettled(t *testing.T) {
	t.Parallel()
	s, key := agentFixture(t)
	var told []time.Duration
	f, settled, err := s.Wait(context.Background(), "garden", key, WaitOptions{
		Timeout: 30 * time.Millisecond, Poll: time.Millisecond, Every: time.Hour,
		Waiting: func(st *acts.ActState, waited time.Duration) { told = append(told, waited) },
	})
	if err != nil || settled || f.State.Status != acts.StatusOpen || len(told) != 1 {
		t.Fatalf("expired wait: %+v %v %v told=%v", f, settled, err, told)
	}
	st := f.State
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.Wait(ctx, "garden", key, WaitOptions{Timeout: time.Hour}); err != context.Canceled {
		t.Errorf("a cancelled wait: %v", err)
	}
	if _, _, err := s.Wait(context.Background(), "garden", "no-such-key", WaitOptions{}); err == nil {
		t.Error("a wait for a key that is not there")
	}
	rs, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp", Decider: "p:me", Now: "2026-12-01T09:01:00Z"}, "done", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Log.WriteAll(rs); err != nil {
		t.Fatal(err)
	}
	told = nil
	f, settled, err = s.Wait(context.Background(), "", key, WaitOptions{Timeout: time.Hour,
		Waiting: func(*acts.ActState, time.Duration) { told = append(told, 0) }})
	st = f.State
	if err != nil || !settled || st.Outcome != "done" || st.SettlementID != rs[0].ID || len(told) != 0 {
		t.Errorf("settled act: %+v %v %v told=%v", st, settled, err, told)
	}
}
