package acts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentFixture is a project with one raised act and no settlement.
func agentFixture(t *testing.T) (*Log, string) {
	t.Helper()
	dir := t.TempDir()
	l := OpenLog(filepath.Join(dir, "acts"))
	doc := filepath.Join(dir, "STATE.md")
	if err := os.WriteFile(doc, []byte("## Tasks\n\n- [ ] [owner] Collect the shed key\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prof, err := ProfileFor("en", "")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Sync(context.Background(), l, SyncRequest{Document: doc, Project: "garden", Profile: prof, Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil || len(rep.Sent) != 1 {
		t.Fatalf("sync: %+v %v", rep, err)
	}
	return l, rep.Sent[0].Key
}

// Only the principal settles (Acts 0.3 §10): AgentWrite refuses every
// principal-side record, whatever builds it, and writes nothing.
func TestAgentWriteRefusesPrincipalRecords(t *testing.T) {
	l, key := agentFixture(t)
	principal := Sender{By: "agent:x", Decider: "p:x", Now: "2026-12-01T09:01:00Z"}
	count := func() int {
		ld, err := l.Load("garden")
		if err != nil {
			t.Fatal(err)
		}
		return len(ld.Records)
	}
	before := count()
	for name, build := range map[string]func(*ActState) (Record, error){
		"settled": func(st *ActState) (Record, error) {
			rs, err := BuildSettle(st, principal, "done", "", "")
			return rs[0], err
		},
		"principal note": func(st *ActState) (Record, error) { return BuildNote(st, principal, "from the principal") },
		"reopened": func(st *ActState) (Record, error) {
			r := principal.base(st, TypeReopened, "agent", "o") // disguised origin
			return r, nil
		},
		"claim as principal": func(st *ActState) (Record, error) {
			r, err := BuildClaim(st, principal, "done", "b")
			r.Origin = "principal"
			return r, err
		},
	} {
		_, _, err := l.AgentWrite(context.Background(), "garden", key, build)
		if err == nil || !strings.Contains(err.Error(), "only the principal") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := count(); n != before {
		t.Errorf("refused writes left %d records", n-before)
	}
	r, st, err := l.AgentWrite(context.Background(), "", key, func(st *ActState) (Record, error) {
		return BuildAgentNote(st, Sender{By: "agent:x", Now: "2026-12-01T09:02:00Z"}, "the key is under the mat")
	})
	if err != nil || r.Type != TypeNote || r.Origin != "agent" || len(st.Notes) != 1 || st.Status != StatusOpen {
		t.Errorf("agent note: %+v %+v %v", r, st, err)
	}
}

// WaitSettled: a timeout that passes returns the open act; Waiting is told
// once when the act is first read unsettled; a settled act returns at once.
func TestWaitSettled(t *testing.T) {
	l, key := agentFixture(t)
	var told []time.Duration
	st, settled, err := l.WaitSettled(context.Background(), "garden", key, WaitOptions{
		Timeout: 30 * time.Millisecond, Poll: time.Millisecond, Every: time.Hour,
		Waiting: func(st *ActState, waited time.Duration) { told = append(told, waited) },
	})
	if err != nil || settled || st.Status != StatusOpen || len(told) != 1 {
		t.Fatalf("expired wait: %+v %v %v told=%v", st, settled, err, told)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := l.WaitSettled(ctx, "garden", key, WaitOptions{Timeout: time.Hour}); err != context.Canceled {
		t.Errorf("a cancelled wait: %v", err)
	}
	if _, _, err := l.WaitSettled(context.Background(), "garden", "no-such-key", WaitOptions{}); err == nil {
		t.Error("a wait for a key that is not there")
	}
	rs, err := BuildSettle(st, Sender{By: "ps:tp", Decider: "p:me", Now: "2026-12-01T09:01:00Z"}, "done", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.WriteAll(rs); err != nil {
		t.Fatal(err)
	}
	told = nil
	st, settled, err = l.WaitSettled(context.Background(), "", key, WaitOptions{Timeout: time.Hour,
		Waiting: func(*ActState, time.Duration) { told = append(told, 0) }})
	if err != nil || !settled || st.Outcome != "done" || st.SettlementID != rs[0].ID || len(told) != 0 {
		t.Errorf("settled act: %+v %v %v told=%v", st, settled, err, told)
	}
}
