package actsession

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/cputest"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"github.com/tp-dev/tp/internal/trust"
	"golang.org/x/crypto/ssh"
)

const signNow = "2026-11-30T10:00:00Z"

// signedSetup is a log with one raised act in project demo, alice
// registered as its principal (trust on first use).
func signedSetup(t *testing.T) (*recordlog.Log, *acts.ActState, ssh.Signer) {
	t.Helper()
	l := recordlog.OpenLog(t.TempDir())
	key := acts.DeriveKey("demo", "Renew the domain")
	if _, err := l.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(key), Type: acts.TypeRaised, Origin: "requester",
		By: "registrar:demo", Key: key, Project: "demo", TS: signNow, Terms: &acts.Terms{Text: "Renew the domain"}, TermsRev: 1}); err != nil {
		t.Fatal(err)
	}
	alice := sshtest.Signer(t)
	if _, err := l.ChangePrincipal("demo", recordlog.PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:tp@test", signNow, "a1"); err != nil {
		t.Fatal(err)
	}
	return l, logState(t, l, key), alice
}

func logState(t *testing.T, l *recordlog.Log, key string) *acts.ActState {
	t.Helper()
	ld, err := l.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	var rs []acts.Record
	for _, r := range ld.Records {
		if r.Key == key {
			rs = append(rs, r)
		}
	}
	st, err := acts.Lifecycle(rs)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func settleSigned(t *testing.T, l *recordlog.Log, st *acts.ActState, s ssh.Signer, nonce string) acts.Record {
	t.Helper()
	rs, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp@test", Decider: "p:alice", Now: signNow, Nonce: func() string { return nonce }}, "done", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if s != nil {
		if err := acts.SignAll(rs, s, projectIDOf(t, l, st.Project)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.WriteAll(rs); err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

// rewrite changes a record file in place (a forger with write access to
// the folder).
func rewrite(t *testing.T, path string, edit func(v *ojson.Value)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.ParseStrict(b)
	if err != nil {
		t.Fatal(err)
	}
	edit(v)
	if err := os.WriteFile(path, ojson.Canonical(v), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSignedSettlements(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		do   func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) (id string)
		why  string // "" = applied
	}{
		{"good", func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) string {
			return settleSigned(t, l, st, alice, "n1").ID
		}, ""},
		{"unsigned", func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) string {
			return settleSigned(t, l, st, nil, "n1").ID
		}, "unsigned"},
		{"tampered byte", func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) string {
			r := settleSigned(t, l, st, alice, "n1")
			rewrite(t, l.RecordPath("demo", r.ID), func(v *ojson.Value) { v.Set("outcome", ojson.NewString("dropped")) })
			return r.ID
		}, "does not match"},
		{"unknown member added", func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) string {
			r := settleSigned(t, l, st, alice, "n1")
			rewrite(t, l.RecordPath("demo", r.ID), func(v *ojson.Value) { v.Set("x", ojson.NewString("y")) })
			return r.ID
		}, "does not match"},
		{"wrong key", func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) string {
			return settleSigned(t, l, st, sshtest.Signer(t), "n1").ID
		}, "not a principal"},
		{"removed principal", func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) string {
			bob := sshtest.Signer(t)
			if _, err := l.ChangePrincipal("demo", recordlog.PrincipalAdded, "bob", bob.PublicKey(), alice, "ps:tp@test", "2026-11-30T10:00:01Z", "b1"); err != nil {
				t.Fatal(err)
			}
			if _, err := l.ChangePrincipal("demo", recordlog.PrincipalRemoved, "alice", alice.PublicKey(), bob, "ps:tp@test", "2026-11-30T10:00:02Z", "b2"); err != nil {
				t.Fatal(err)
			}
			return settleSigned(t, l, st, alice, "n1").ID
		}, "retired in principal change"},
		{"replayed for another act", func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) string {
			// alice's genuine settlement of one act, copied onto another
			// act's key under a new id: the signature covers key and id.
			r := settleSigned(t, l, st, alice, "n1")
			other := acts.DeriveKey("demo", "Pay the invoice")
			l.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(other), Type: acts.TypeRaised, Origin: "requester",
				By: "registrar:demo", Key: other, Project: "demo", TS: signNow, Terms: &acts.Terms{Text: "Pay the invoice"}, TermsRev: 1})
			b, _ := os.ReadFile(l.RecordPath("demo", r.ID))
			v, _ := ojson.ParseStrict(b)
			id := "s:" + other + ":replayed"
			v.Set("key", ojson.NewString(other))
			v.Set("id", ojson.NewString(id))
			os.WriteFile(l.RecordPath("demo", id), ojson.Canonical(v), 0o644)
			return id
		}, "does not match"},
		{"allowed_signers edited by hand", func(t *testing.T, l *recordlog.Log, st *acts.ActState, alice ssh.Signer) string {
			mallory := sshtest.Signer(t)
			f, _ := os.OpenFile(l.SignersPath("demo"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("mallory " + string(ssh.MarshalAuthorizedKey(mallory.PublicKey())))
			f.Close()
			return settleSigned(t, l, st, mallory, "n1").ID
		}, "cannot be trusted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, st, alice := signedSetup(t)
			id := c.do(t, l, st, alice)
			ld, err := l.Load("demo")
			if err != nil {
				t.Fatal(err)
			}
			var applied *acts.Record
			for i, r := range ld.Records {
				if r.ID == id {
					applied = &ld.Records[i]
				}
			}
			if c.why == "" {
				if applied == nil || applied.SignedBy == nil || applied.SignedBy.Principal != "alice" || len(ld.Rejected) != 0 {
					t.Fatalf("a good signature was not accepted: %+v %v", applied, ld.Rejected)
				}
				if st := logState(t, l, st.Key); st.Status != acts.StatusSettled {
					t.Fatalf("state %s", st.Status)
				}
				return
			}
			if applied != nil {
				t.Fatalf("record %s was accepted", id)
			}
			found := false
			for _, rj := range ld.Rejected {
				if rj.ID == id {
					found = true
					if !strings.Contains(rj.Why, c.why) || rj.Path != l.RecordPath("demo", id) {
						t.Fatalf("rejected for %q at %s, want %q", rj.Why, rj.Path, c.why)
					}
				}
			}
			if !found {
				t.Fatalf("record %s neither accepted nor reported: %v", id, ld.Rejected)
			}
			if _, err := os.Stat(l.RecordPath("demo", id)); err != nil {
				t.Fatal("a rejected record must stay in the log")
			}
		})
	}
}

// A project without principals works unsigned (today's behaviour).
func TestUnsignedProjectAcceptsUnsigned(t *testing.T) {
	t.Parallel()
	l := recordlog.OpenLog(t.TempDir())
	key := acts.DeriveKey("demo", "Renew the domain")
	l.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(key), Type: acts.TypeRaised, Origin: "requester",
		By: "registrar:demo", Key: key, Project: "demo", TS: signNow, Terms: &acts.Terms{Text: "Renew the domain"}, TermsRev: 1})
	settleSigned(t, l, logState(t, l, key), nil, "n1")
	ld, _ := l.Load("demo")
	if !ld.Unauthenticated() || len(ld.Rejected) != 0 || logState(t, l, key).Status != acts.StatusSettled {
		t.Fatal("unsigned settlement refused in a project without principals")
	}
}

func TestPrincipalChanges(t *testing.T) {
	t.Parallel()
	l, _, alice := signedSetup(t)
	bob, mallory := sshtest.Signer(t), sshtest.Signer(t)
	// Only a principal changes the principals.
	if _, err := l.ChangePrincipal("demo", recordlog.PrincipalAdded, "mallory", mallory.PublicKey(), mallory, "x", signNow, "m1"); err == nil || !strings.Contains(err.Error(), "not a principal") {
		t.Fatalf("self-added mallory: %v", err)
	}
	if _, err := l.ChangePrincipal("demo", recordlog.PrincipalRemoved, "alice", alice.PublicKey(), alice, "x", signNow, "r0"); err == nil || !strings.Contains(err.Error(), "last principal") {
		t.Fatalf("removed the last principal: %v", err)
	}
	p, err := l.ChangePrincipal("demo", recordlog.PrincipalAdded, "bob", bob.PublicKey(), alice, "x", "2026-11-30T10:00:05Z", "b1")
	if err != nil || len(p.Chain) != 2 || p.Mismatch != "" {
		t.Fatalf("%v %+v", err, p)
	}
	// A forged change dropped into principals/ is ignored and reported.
	forged := filepath.Join(l.PrincipalsDir("demo"), recordlog.EncodeName("p:forged")+".json")
	os.WriteFile(forged, []byte(`{"ph":"0.3","ext":"tp-principals/0.1","id":"p:forged","type":"principal_added","by":"x","project":"demo","ts":"2026-11-30T11:00:00Z","seq":3,"principal":"mallory","public_key":"`+strings.TrimSpace(string(ssh.MarshalAuthorizedKey(mallory.PublicKey())))+`"}`), 0o644)
	p, _ = l.LoadPrincipals("demo")
	if len(p.Chain) != 2 || p.Mismatch != "" || len(p.Problems) != 1 || !strings.Contains(p.Problems[0], "p:forged") {
		t.Fatalf("forged change: %+v", p)
	}
	// A change signed by the very key it adds counts only as the first
	// one (trust on first use), never later: mallory cannot add herself.
	self := recordlog.PrincipalChange{PH: "0.3", Ext: recordlog.PrincipalExt, ID: "p:self", Type: recordlog.PrincipalAdded, By: "x", Project: "demo",
		ProjectID: p.ProjectID, Prev: p.Head, TS: "2026-11-30T12:00:00Z", Seq: 3, Principal: "mallory", PublicKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(mallory.PublicKey())))}
	msg, _ := ojson.MarshalCanonical(self)
	if self.Sig, err = sshsign.Sign(mallory, acts.SigNamespace, msg); err != nil {
		t.Fatal(err)
	}
	b, _ := ojson.MarshalCanonical(self)
	os.WriteFile(filepath.Join(l.PrincipalsDir("demo"), recordlog.EncodeName(self.ID)+".json"), b, 0o644)
	p, _ = l.LoadPrincipals("demo")
	if _, held := p.Holds(mallory.PublicKey()); held || len(p.Chain) != 2 || !strings.Contains(strings.Join(p.Problems, "\n"), "p:self") {
		t.Fatalf("self-signed later change: %+v", p.Problems)
	}
	// allowed_signers deleted: fail closed, and WriteSigners repairs it.
	os.Remove(l.SignersPath("demo"))
	if p, _ = l.LoadPrincipals("demo"); p.Mismatch == "" {
		t.Fatal("missing allowed_signers not noticed")
	}
	if p, err = l.WriteSigners("demo"); err != nil || p.Mismatch != "" || len(p.Allowed.Signers) != 2 {
		t.Fatalf("repair: %v %+v", err, p)
	}
}

func BenchmarkSignRecord(b *testing.B) {
	s := sshtest.Signer(b)
	r := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "s:k:1", Type: acts.TypeSettled, Origin: "principal", By: "ps:tp", Key: "k", Project: "demo",
		TS: signNow, Outcome: "done", Authority: &acts.Authority{Kind: "principal", Decider: "p:alice"}, TermsRev: 1}
	c := cputest.Start()
	defer c.Report(b)
	for b.Loop() {
		if err := acts.SignRecord(&r, s, testProjectID); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyRecord(b *testing.B) {
	s := sshtest.Signer(b)
	r := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "s:k:1", Type: acts.TypeSettled, Origin: "principal", By: "ps:tp", Key: "k", Project: "demo",
		TS: signNow, Outcome: "done", Authority: &acts.Authority{Kind: "principal", Decider: "p:alice"}, TermsRev: 1}
	l := recordlog.OpenLog(b.TempDir())
	if _, err := l.ChangePrincipal("demo", recordlog.PrincipalAdded, "alice", s.PublicKey(), s, "x", signNow, "a"); err != nil {
		b.Fatal(err)
	}
	p, _ := l.LoadPrincipals("demo")
	acts.SignRecord(&r, s, p.ProjectID)
	raw, _ := acts.EncodeRecord(r)
	c := cputest.Start()
	defer c.Report(b)
	for b.Loop() {
		if _, err := acts.VerifyRecord(p.Allowed, p.ProjectID, raw); err != nil {
			b.Fatal(err)
		}
	}
}

// benchSignedLog writes n records (n/2 acts: raised, then settled and
// signed by the project's principal) into dir ($TP_BENCH_SIGNED_LOG keeps
// them there, for timing `tp acts verify` on them).
func benchSignedLog(b *testing.B, n int) *recordlog.Log {
	dir := os.Getenv("TP_BENCH_SIGNED_LOG")
	if dir == "" {
		dir = b.TempDir()
	}
	l := recordlog.OpenLog(dir)
	s := sshtest.Signer(b)
	if _, err := l.ChangePrincipal("bench", recordlog.PrincipalAdded, "alice", s.PublicKey(), s, "ps:tp", signNow, "a"); err != nil {
		b.Fatal(err)
	}
	os.MkdirAll(l.RecordsDir("bench"), 0o755)
	pid := projectIDOf(b, l, "bench")
	for i := 0; i*2 < n; i++ {
		k := fmt.Sprintf("task-bench-%010d", i)
		raised := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(k), Type: acts.TypeRaised, Origin: "requester", By: "registrar:bench",
			Key: k, Project: "bench", TS: signNow, Terms: &acts.Terms{Text: "Renew the domain " + k}, TermsRev: 1}
		settled := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "s:" + k + ":1", Type: acts.TypeSettled, Origin: "principal", By: "ps:tp",
			Key: k, Project: "bench", TS: signNow, Outcome: "done", Authority: &acts.Authority{Kind: "principal", Decider: "p:alice"}, TermsRev: 1}
		if err := acts.SignRecord(&settled, s, pid); err != nil {
			b.Fatal(err)
		}
		for _, r := range []acts.Record{raised, settled} {
			if err := os.WriteFile(l.RecordPath("bench", r.ID), mustRaw(b, r), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return l
}

// Load of a 50,000-record log of which 25,000 are signed settlements:
// what tp acts verify and tp acts sync pay for signatures.
func BenchmarkVerifyLog50k(b *testing.B) {
	l := benchSignedLog(b, 50000)
	b.ResetTimer()
	c := cputest.Start()
	defer c.Report(b)
	for b.Loop() {
		ld, err := l.Load("bench")
		if err != nil || len(ld.Records) != 50000 || len(ld.Rejected) != 0 {
			b.Fatalf("%v: %d records, %d rejected", err, len(ld.Records), len(ld.Rejected))
		}
	}
}

// testProjectID is a project identity for signatures made without a log.
const testProjectID = "0123456789abcdef0123456789abcdef"

// projectIDOf is the identity of project's principal chain in l.
func projectIDOf(t testing.TB, l *recordlog.Log, project string) string {
	t.Helper()
	p, err := l.LoadPrincipals(project)
	if err != nil {
		t.Fatal(err)
	}
	if p.ProjectID == "" {
		t.Fatalf("project %s has no principal chain", project)
	}
	return p.ProjectID
}

// testTrust is an empty trust store in a temporary folder.
func testTrust(t testing.TB) *trust.Store {
	t.Helper()
	s, err := trust.Open(filepath.Join(t.TempDir(), "trust"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
