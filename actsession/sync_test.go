package actsession

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/durable"
)

// syncFixture is a project with one stamped line whose act the principal
// settled: the next sync strikes it and acknowledges the settlement.
func syncFixture(t *testing.T) (l *recordlog.Log, doc string, req SyncRequest) {
	t.Helper()
	dir := t.TempDir()
	l = recordlog.OpenLog(filepath.Join(dir, "acts"))
	doc = filepath.Join(dir, "STATE.md")
	if err := os.WriteFile(doc, []byte("## Tasks\n\n- [ ] [owner] Collect the shed key\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prof, err := acts.ProfileByName("en", nil)
	if err != nil {
		t.Fatal(err)
	}
	req = SyncRequest{Document: doc, Project: "garden", Profile: prof, Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	rep, err := Sync(context.Background(), l, req)
	if err != nil || len(rep.Sent) != 1 || !rep.Written {
		t.Fatalf("first sync: %+v %v", rep, err)
	}
	ld, err := l.Load("garden")
	if err != nil {
		t.Fatal(err)
	}
	states, _ := acts.States(ld.Records)
	var st *acts.ActState
	for _, s := range states {
		st = s
	}
	recs, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp", Decider: "p:me", Now: "2026-12-01T09:01:00Z"}, "done", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	return l, doc, req
}

// Acts 0.3 §4: acknowledge applied records only after the document write is
// durable. When the write fails (here: an agent edited the document
// meanwhile), the settlement stays unacknowledged, so the next run applies
// it again.
func TestSyncNoAckWhenWriteFails(t *testing.T) {
	t.Parallel()
	l, doc, req := syncFixture(t)
	stamped, _ := os.ReadFile(doc)
	edited := string(stamped) + "- [ ] [agent] Water the seedlings\n"
	rep, err := syncWith(context.Background(), l, req, syncHooks{beforeDocWrite: func() { os.WriteFile(doc, []byte(edited), 0o644) }})
	if !errors.Is(err, errDocumentChanged) {
		t.Fatalf("sync over a document that changed under it: %v, want errDocumentChanged", err)
	}
	var h interface{ Hint() string }
	if !errors.As(err, &h) || h.Hint() == "" {
		t.Errorf("the error carries no hint: %v", err)
	}
	if rep == nil || rep.Written || len(rep.Acknowledged) != 0 || len(rep.Applied) != 1 {
		t.Fatalf("report after the failed write: %+v", rep)
	}
	if got, _ := os.ReadFile(doc); string(got) != edited {
		t.Fatalf("the agent's edit was overwritten:\n%s", got)
	}

	// Not acknowledged: the next run still strikes the line.
	rep, err = Sync(context.Background(), l, req)
	if err != nil || len(rep.Applied) != 1 || len(rep.Acknowledged) != 1 || !rep.Written {
		t.Fatalf("the settlement was acknowledged before the write: %+v %v", rep, err)
	}
	if got, _ := os.ReadFile(doc); strings.Contains(string(got), "Collect the shed key") || !strings.Contains(string(got), "Water the seedlings") {
		t.Fatalf("document after the retry:\n%s", got)
	}
}

// A cancelled context stops before the document changes.
func TestSyncCancelledWritesNothing(t *testing.T) {
	t.Parallel()
	l, doc, req := syncFixture(t)
	before, _ := os.ReadFile(doc)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Sync(ctx, l, req)
	if !errors.Is(err, context.Canceled) || rep == nil || rep.Written || len(rep.Acknowledged) != 0 {
		t.Fatalf("cancelled sync: %+v %v", rep, err)
	}
	if after, _ := os.ReadFile(doc); string(after) != string(before) {
		t.Fatalf("a cancelled sync wrote the document:\n%s", after)
	}
}

// A dry run reports and writes nothing, not even records.
func TestSyncDryRun(t *testing.T) {
	t.Parallel()
	l, doc, req := syncFixture(t)
	if err := os.WriteFile(doc, []byte("## Tasks\n\n- [ ] [owner] Renew the domain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	req.DryRun = true
	rep, err := Sync(context.Background(), l, req)
	if err != nil || !rep.DryRun || len(rep.Sent) == 0 || rep.Sent[0].Result != "" || rep.Written {
		t.Fatalf("dry run: %+v %v", rep, err)
	}
	ld, _ := l.Load("garden")
	for _, r := range ld.Records {
		if r.Terms != nil && strings.Contains(r.Terms.Text, "Renew") {
			t.Fatalf("a dry run wrote %s", r.ID)
		}
	}
}

func TestSyncRefusesBadProject(t *testing.T) {
	t.Parallel()
	l, _, req := syncFixture(t)
	for _, p := range []string{"", "a/b", " a", "a\n"} {
		req.Project = p
		if _, err := Sync(context.Background(), l, req); err == nil {
			t.Errorf("project %q accepted", p)
		}
	}
}

// The document changed by someone else between read and write: nothing is
// written over their change.
func TestReplaceDocumentRefusesConcurrentEdit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "STATE.md")
	os.WriteFile(p, []byte("theirs\n"), 0o644)
	err := replaceDocument(p, []byte("what we read\n"), []byte("ours\n"), 0o644)
	if !errors.Is(err, errDocumentChanged) {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "theirs\n" {
		t.Fatalf("%q", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, durable.TempPrefix+"*")); len(left) != 0 {
		t.Fatal("temp file left", left)
	}
	if err := replaceDocument(p, []byte("theirs\n"), []byte("ours\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "ours\n" {
		t.Fatalf("%q", got)
	}
}
