package actsession

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

// Acts 0.3 §10: in a project with a principal, a forged (unsigned)
// settlement is not applied: the document does not change, nothing is
// acknowledged, the record stays in the log and the report names it. The
// same settlement signed by the principal is then applied.
func TestSyncForgedSettlementNotApplied(t *testing.T) {
	t.Parallel()
	l, doc, req := syncFixture(t) // the fixture's settlement is unsigned
	alice := sshtest.Signer(t)
	if _, err := l.ChangePrincipal("garden", recordlog.PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:tp", "2026-12-01T09:00:30Z", "a"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(doc)
	rep, err := Sync(context.Background(), l, req)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(doc)
	if string(after) != string(before) || rep.Changed || len(rep.Applied) != 0 || len(rep.Acknowledged) != 0 {
		t.Fatalf("the forged settlement changed something: %+v", rep)
	}
	if len(rep.Rejected) != 1 || rep.Rejected[0].Type != acts.TypeSettled || !strings.Contains(rep.Rejected[0].Why, "unsigned") || rep.Unauthenticated {
		t.Fatalf("rejected = %+v", rep.Rejected)
	}
	if _, err := os.Stat(strings.ReplaceAll(rep.Rejected[0].Path, "\\", "/")); err != nil {
		t.Fatalf("the forged record left the log: %v", err)
	}
	ld, _ := l.Load("garden")
	if len(ld.Acked) != 0 {
		t.Fatalf("acknowledged: %v", ld.Acked)
	}

	// The principal's own, signed settlement is applied.
	st := logStateIn(t, l, "garden")
	recs, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp", Decider: "p:alice", Now: "2026-12-01T09:02:00Z"}, "dropped", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := acts.SignAll(recs, alice, projectIDOf(t, l, "garden")); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	rep, err = Sync(context.Background(), l, req)
	if err != nil || len(rep.Applied) != 1 || rep.Struck != 1 {
		t.Fatalf("signed settlement: %+v %v", rep, err)
	}
}

func logStateIn(t *testing.T, l *recordlog.Log, project string) *acts.ActState {
	t.Helper()
	ld, err := l.Load(project)
	if err != nil {
		t.Fatal(err)
	}
	states, _ := acts.States(ld.Records)
	for _, s := range states {
		return s
	}
	t.Fatal("no act")
	return nil
}

// A record tp signed verifies with OpenSSH: the message is the record's
// canonical bytes without sig, the signature its sig member, the signers
// the project's allowed_signers file as tp wrote it.
func TestRecordSignatureSSHKeygenInterop(t *testing.T) {
	t.Parallel()
	kg, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen not installed")
	}
	l, st, alice := signedSetup(t)
	r := settleSigned(t, l, st, alice, "n1")
	raw, err := os.ReadFile(l.RecordPath("demo", r.ID))
	if err != nil {
		t.Fatal(err)
	}
	msg, sig, err := acts.SignedMessage(raw)
	if err != nil || sig == "" {
		t.Fatalf("%v %q", err, sig)
	}
	dir := t.TempDir()
	sigPath := filepath.Join(dir, "sig")
	os.WriteFile(sigPath, []byte(sig), 0o644)
	verify := func(m []byte) error {
		c := exec.Command(kg, "-Y", "verify", "-f", l.SignersPath("demo"), "-I", "alice", "-n", acts.SigNamespace, "-s", sigPath)
		c.Stdin = strings.NewReader(string(m))
		out, err := c.CombinedOutput()
		if err != nil {
			return &exec.ExitError{Stderr: out}
		}
		return nil
	}
	msg = acts.BoundMessage(projectIDOf(t, l, "demo"), msg)
	if err := verify(msg); err != nil {
		t.Fatalf("ssh-keygen -Y verify refused a record tp signed: %s", err.(*exec.ExitError).Stderr)
	}
	if err := verify(append(msg, ' ')); err == nil {
		t.Fatal("ssh-keygen verified changed bytes")
	}
	// And the file tp wrote is one OpenSSH reads as tp does.
	a, _ := os.ReadFile(l.SignersPath("demo"))
	if p := sshsign.ParseAllowedSigners(a); len(p.Problems) != 0 || len(p.Signers) != 1 {
		t.Fatalf("allowed_signers: %+v", p)
	}
}

// The verifier of record bytes never panics, and never accepts anything
// against a principal whose key did not sign it.
func FuzzVerifyRecord(f *testing.F) {
	s := sshtest.Signer(f)
	r := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "s:k:1", Type: acts.TypeSettled, Origin: "principal", By: "ps:tp", Key: "k", Project: "demo",
		TS: signNow, Outcome: "done", Authority: &acts.Authority{Kind: "principal", Decider: "p:alice"}, TermsRev: 1}
	acts.SignRecord(&r, s, testProjectID)
	raw, _ := acts.EncodeRecord(r)
	f.Add(raw)
	f.Add([]byte(`{"sig": 1}`))
	f.Add([]byte(`{"a": "b", "sig": "-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----\n"}`))
	other := sshtest.Signer(f)
	allowed := sshsign.ParseAllowedSigners([]byte(sshsign.Line("bob", acts.SigNamespace, other.PublicKey(), "")))
	alice := sshsign.ParseAllowedSigners([]byte(sshsign.Line("alice", acts.SigNamespace, s.PublicKey(), "")))
	f.Fuzz(func(t *testing.T, in []byte) {
		if _, err := acts.VerifyRecord(allowed, testProjectID, in); err == nil {
			t.Fatal("verified against a key that never signed")
		}
		by, err := acts.VerifyRecord(alice, testProjectID, in)
		if err == nil {
			// Whatever verified must be exactly the signed message.
			msg, _, _ := acts.SignedMessage(in)
			want, _, _ := acts.SignedMessage(raw)
			if string(msg) != string(want) || by.Principal != "alice" {
				t.Fatalf("verified other bytes: %q", msg)
			}
		}
	})
}

// D19's trust root: with a trust store, removing allowed_signers and
// principals/ from the shared acts dir does not make a project's
// settlements unauthenticated again — the registrar applies none.
func TestSyncTrustRootSurvivesWipe(t *testing.T) {
	t.Parallel()
	l, doc, req := syncFixture(t)
	l.Trust = testTrust(t)
	alice := sshtest.Signer(t)
	if _, err := l.ChangePrincipal("garden", recordlog.PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:tp", "2026-12-01T09:00:30Z", "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := Sync(context.Background(), l, req); err != nil { // pins alice's change
		t.Fatal(err)
	}
	// An agent with write access wipes the principals and forges.
	os.Remove(l.SignersPath("garden"))
	os.RemoveAll(l.PrincipalsDir("garden"))
	before, _ := os.ReadFile(doc)
	rep, err := Sync(context.Background(), l, req)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(doc)
	if string(after) != string(before) || len(rep.Applied) != 0 || len(rep.Rejected) != 1 || !strings.Contains(rep.Rejected[0].Why, "no principal trusted on this machine") {
		t.Fatalf("after the wipe: %+v", rep)
	}
	// Without a trust store (the fixture runner) the project is
	// unauthenticated, as the spec's unsigned fixtures are judged.
	l.Trust = nil
	if rep, err = Sync(context.Background(), l, req); err != nil || len(rep.Applied) != 1 || !rep.Unauthenticated {
		t.Fatalf("no pin: %+v %v", rep, err)
	}
}

// A project used unsigned before it got its principal: the settlements the
// registrar had already applied are adopted by the first principal (the
// document already reflects them) and stay trusted byte for byte; one not
// yet applied is not adopted; an adopted file changed later is rejected.
func TestFirstPrincipalAdoptsAppliedUnsigned(t *testing.T) {
	t.Parallel()
	l, _, req := syncFixture(t)
	if _, err := Sync(context.Background(), l, req); err != nil { // applies and acknowledges the unsigned settlement
		t.Fatal(err)
	}
	ld, _ := l.Load("garden")
	var applied acts.Record
	for _, r := range ld.Records {
		if r.Type == acts.TypeSettled {
			applied = r
		}
	}
	alice := sshtest.Signer(t)
	p, err := l.ChangePrincipal("garden", recordlog.PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:tp", "2026-12-01T09:05:00Z", "a")
	if err != nil || len(p.Changes) != 1 || len(p.Changes[0].Adopts) != 1 || !strings.HasPrefix(p.Changes[0].Adopts[0], applied.ID+" ") {
		t.Fatalf("%v %+v", err, p.Changes)
	}
	ld, _ = l.Load("garden")
	if len(ld.Rejected) != 0 || logStateIn(t, l, "garden").Status != acts.StatusSettled {
		t.Fatalf("adopted settlement not trusted: %v", ld.Rejected)
	}
	for _, r := range ld.Records {
		if r.ID == applied.ID && (r.SignedBy == nil || !r.SignedBy.Adopted || r.SignedBy.Principal != "alice") {
			t.Fatalf("signed by %+v", r.SignedBy)
		}
	}
	// The adopted file changed afterwards: rejected.
	path := l.RecordPath("garden", applied.ID)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(b), `"done"`, `"dropped"`, 1)), 0o644)
	ld, _ = l.Load("garden")
	if len(ld.Rejected) != 1 || !strings.Contains(ld.Rejected[0].Why, "unsigned") {
		t.Fatalf("changed adopted record: %+v", ld.Rejected)
	}
}
