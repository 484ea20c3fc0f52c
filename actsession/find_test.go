package actsession

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

// A project with a principal (alice), one act, and in its log a settlement
// of that act signed by mallory, who is not a principal: the attack any
// writer of the acts folder or its remote can make.
func forgedFixture(t *testing.T) (*Session, string, acts.Record) {
	t.Helper()
	s, key := agentFixture(t)
	alice, mallory := sshtest.Signer(t), sshtest.Signer(t)
	pr, err := s.Log.ChangePrincipal("garden", recordlog.PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:test", "2026-12-01T09:00:30Z", "n1")
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Find(context.Background(), "garden", key)
	if err != nil {
		t.Fatal(err)
	}
	forged, err := acts.BuildSettle(f.State, acts.Sender{By: "ps:tp@x", Decider: "p:alice", Now: "2026-12-01T09:01:00Z"}, "done", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := acts.SignAll(forged, mallory, pr.ProjectID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Log.WriteAll(forged); err != nil {
		t.Fatal(err)
	}
	return s, key, forged[0]
}

// List, Find and Wait never drop a record the log did not apply: each
// returns it as a finding (kind, file, record, why, one line), for one
// project and for all; the act stays open.
func TestFindingsReportForgedSignature(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, key, forged := forgedFixture(t)
	check := func(what string, fs []Finding) {
		t.Helper()
		for _, f := range fs {
			if f.Kind == FindingRejected && f.ID == forged.ID && f.Key == key && f.Project == "garden" &&
				f.Path == s.Log.RecordPath("garden", forged.ID) && f.Why != "" &&
				strings.Contains(f.Text, forged.ID) && strings.Contains(f.Text, "not applied") && !strings.Contains(f.Text, "\n") {
				return
			}
		}
		t.Errorf("%s: the forged settlement %s is not among the findings: %+v", what, forged.ID, fs)
	}
	for _, project := range []string{"garden", ""} {
		ls, err := s.List(ctx, project)
		if err != nil {
			t.Fatal(err)
		}
		if len(ls.Acts) != 1 || ls.Acts[0].Status != acts.StatusOpen {
			t.Fatalf("list %q: %+v", project, ls.Acts)
		}
		check("list "+project, ls.Findings)
	}
	f, err := s.Find(ctx, "", key)
	if err != nil {
		t.Fatal(err)
	}
	check("find", f.Findings)
	w, settled, err := s.Wait(ctx, "garden", key, WaitOptions{})
	if err != nil || settled {
		t.Fatalf("wait: %v settled=%v", err, settled)
	}
	check("wait", w.Findings)
}

// Find reports the log's unreadable files with the act (any may have been
// one of its records), but not another act's rejected records.
func TestFindFindingsAreTheActs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, key, _ := forgedFixture(t)
	if err := os.WriteFile(s.Log.RecordsDir("garden")+"/broken.json", []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := acts.DeriveKey("garden", "Water the beans")
	if _, err := s.Log.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(other), Type: acts.TypeRaised, Origin: "requester",
		By: "registrar:garden", Key: other, Project: "garden", TS: "2026-12-01T09:00:00Z", Terms: &acts.Terms{Text: "Water the beans"}, TermsRev: 1}); err != nil {
		t.Fatal(err)
	}
	f, err := s.Find(ctx, "garden", other)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, fd := range f.Findings {
		kinds[fd.Kind]++
	}
	if kinds[FindingUnreadable] != 1 || kinds[FindingRejected] != 0 {
		t.Errorf("the other act's findings: %+v", f.Findings)
	}
	f, err = s.Find(ctx, "garden", key)
	if err != nil {
		t.Fatal(err)
	}
	kinds = map[string]int{}
	for _, fd := range f.Findings {
		kinds[fd.Kind]++
	}
	if kinds[FindingUnreadable] != 1 || kinds[FindingRejected] != 1 {
		t.Errorf("the forged act's findings: %+v", f.Findings)
	}
}

// A project name is checked by the one core rule (acts.CheckProjectName)
// before anything is read, for every front end: a newline in a name is
// refused.
func TestSessionChecksProjectName(t *testing.T) {
	t.Parallel()
	s, key := agentFixture(t)
	for _, bad := range []string{"gar\nden", " garden", "a/b"} {
		if _, err := s.List(context.Background(), bad); err == nil {
			t.Errorf("list %q: no error", bad)
		}
		if _, err := s.Find(context.Background(), bad, key); err == nil {
			t.Errorf("find %q: no error", bad)
		}
	}
}
