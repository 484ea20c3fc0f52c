package recordlog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"github.com/tp-dev/tp/internal/trust"
	"golang.org/x/crypto/ssh"
)

// The forged acknowledgement (issue 15's open finding, D19): acked/ is in
// the acts folder, which every agent and every clone of the acts remote
// writes. What the registrar takes as "already applied to the document"
// must rest on this machine's ledger in the trust store, never on acked/.

type ackFixture struct {
	l     *Log
	alice ssh.Signer
	st    *acts.ActState
}

// newAckFixture: project demo with one open act and alice its first
// principal, trusted on this machine.
func newAckFixture(t *testing.T, withTrust bool) *ackFixture {
	t.Helper()
	f := &ackFixture{l: OpenLog(filepath.Join(t.TempDir(), "acts")), alice: sshtest.Signer(t)}
	if withTrust {
		ts, err := trust.Open(filepath.Join(t.TempDir(), "trust"))
		if err != nil {
			t.Fatal(err)
		}
		f.l.Trust = ts
	}
	if _, err := f.l.WriteAll([]acts.Record{raisedRecord("task-demo-c3d8af57d4", "Renew the domain")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.l.ChangePrincipal("demo", PrincipalAdded, "alice", f.alice.PublicKey(), f.alice, "ps:tp", "2026-12-01T09:00:00Z", "a"); err != nil {
		t.Fatal(err)
	}
	f.st = f.state(t)
	return f
}

func (f *ackFixture) state(t *testing.T) *acts.ActState {
	t.Helper()
	ld, err := f.l.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	states, errs := acts.States(ld.Records)
	if len(errs) > 0 || len(states) != 1 {
		t.Fatalf("states %v %v", states, errs)
	}
	for _, st := range states {
		return st
	}
	return nil
}

// settle writes alice's signed settlement of the act.
func (f *ackFixture) settle(t *testing.T) acts.Record {
	t.Helper()
	rs, err := acts.BuildSettle(f.st, acts.Sender{By: "ps:tp", Decider: "p:alice", Now: "2026-12-01T09:02:00Z", Nonce: func() string { return "s" }}, "done", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := f.l.LoadPrincipals("demo")
	if err != nil {
		t.Fatal(err)
	}
	if err := acts.SignAll(rs, f.alice, pr.ProjectID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.l.WriteAll(rs); err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

// forgeAck writes an acknowledgement as an agent would: a file in acked/.
func (f *ackFixture) forgeAck(t *testing.T, id string) {
	t.Helper()
	dir := f.l.AckedDir("demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, EncodeName(id)), []byte(id+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestForgedAckIsNotApplied(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		trust     bool // judged with a trust store (every registrar)
		ledger    bool // this machine's registrar applied the settlement
		other     bool // it applied another record of the project
		ack       bool // acked/ names the settlement
		applied   bool // want: the registrar takes it as applied
		unbackedN int  // want: reported as an acknowledgement this machine never made
	}{
		{name: "forged ack, registrar applied nothing yet", trust: true, ack: true},
		{name: "forged ack on a registrar with a ledger", trust: true, other: true, ack: true, unbackedN: 1},
		{name: "applied here, acked", trust: true, ledger: true, ack: true, applied: true},
		{name: "applied here, its ack deleted", trust: true, ledger: true, applied: true},
		{name: "pending", trust: true, other: true},
		{name: "fixtures: no trust store, acked/ decides", ack: true, applied: true},
		{name: "fixtures: no trust store, not acked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newAckFixture(t, tc.trust)
			s := f.settle(t)
			pr, err := f.l.LoadPrincipals("demo")
			if err != nil {
				t.Fatal(err)
			}
			var es []LedgerEntry
			if tc.ledger {
				raw, err := os.ReadFile(f.l.RecordPath("demo", s.ID))
				if err != nil {
					t.Fatal(err)
				}
				es = append(es, LedgerEntry{ID: s.ID, Key: s.Key, Digest: fileDigest(raw)})
			}
			if tc.other {
				es = append(es, LedgerEntry{ID: "s:other", Key: "task-demo-other", Digest: "00"})
			}
			if err := f.l.NoteApplied(pr.ProjectID, es); err != nil {
				t.Fatal(err)
			}
			if tc.ack {
				f.forgeAck(t, s.ID)
			}
			ld, err := f.l.Load("demo")
			if err != nil {
				t.Fatal(err)
			}
			if ld.Acked[s.ID] != tc.applied {
				t.Errorf("Acked[%s] = %v, want %v (acked/ names it: %v; the ledger holds it: %v)", s.ID, ld.Acked[s.ID], tc.applied, tc.ack, tc.ledger)
			}
			if ld.AckFiles[s.ID] != tc.ack {
				t.Errorf("AckFiles[%s] = %v, want %v", s.ID, ld.AckFiles[s.ID], tc.ack)
			}
			if len(ld.Unbacked) != tc.unbackedN {
				t.Fatalf("Unbacked = %v, want %d", ld.Unbacked, tc.unbackedN)
			}
			for _, u := range ld.Unbacked {
				if u.ID != s.ID || u.Key != s.Key || u.Path != filepath.Join(f.l.AckedDir("demo"), EncodeName(s.ID)) || u.Why != UnbackedWhy {
					t.Errorf("unbacked %+v", u)
				}
			}
		})
	}
}

// An agent plants an unsigned settlement of its own act and an acked/ entry
// for it before the project has a principal. The principal's first change
// must not adopt it: with a trust store the registrar never applied an
// unsigned settlement (D19: headless never adopts), so acked/ is the only
// witness, and the agent wrote it. Adopting it would have the principal
// sign, unseen, a settlement they never made.
func TestFirstChangeAdoptsNoPlantedSettlement(t *testing.T) {
	t.Parallel()
	l := OpenLog(filepath.Join(t.TempDir(), "acts"))
	ts, err := trust.Open(filepath.Join(t.TempDir(), "trust"))
	if err != nil {
		t.Fatal(err)
	}
	l.Trust = ts
	key := "task-demo-c3d8af57d4"
	planted := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "s:planted", Type: acts.TypeSettled, Origin: "principal", By: "agent:evil",
		Key: key, Project: "demo", TS: "2026-11-01T00:00:00Z", TermsRev: 1, Outcome: "done", Authority: &acts.Authority{Kind: "principal", Decider: "p:owner"}}
	if _, err := l.WriteAll([]acts.Record{raisedRecord(key, "Renew the domain"), planted}); err != nil {
		t.Fatal(err)
	}
	f := &ackFixture{l: l}
	f.forgeAck(t, planted.ID)
	alice := sshtest.Signer(t)
	pr, err := l.ChangePrincipal("demo", PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:tp", "2026-12-01T09:00:00Z", "a")
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Changes) != 1 || len(pr.Changes[0].Adopts) != 0 {
		t.Fatalf("the first principal change adopts %v", pr.Changes[0].Adopts)
	}
	ld, err := l.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Rejected) != 1 || ld.Rejected[0].ID != planted.ID {
		t.Fatalf("the planted settlement is not rejected: records %v, rejected %v", ld.Records, ld.Rejected)
	}
	if len(ld.Withheld) != 0 {
		t.Fatalf("the planted settlement is withheld as if this machine had applied it: %v", ld.Withheld)
	}
}
