package actsession

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"golang.org/x/crypto/ssh"
)

func keyOf(s ssh.Signer) recordlog.PrincipalKey {
	return recordlog.PrincipalKey{
		Find: func(func(ssh.PublicKey) bool) (sshsign.Found, error) {
			return sshsign.Found{Signer: s, From: "test"}, nil
		},
		Name: "alice", By: "ps:tp@test", Now: signNow, Nonce: func() string { return "r1" },
	}
}

func raisedOnly(t *testing.T) (*recordlog.Log, *acts.ActState) {
	t.Helper()
	l := recordlog.OpenLog(t.TempDir())
	key := acts.DeriveKey("demo", "Renew the domain")
	if _, err := l.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(key), Type: acts.TypeRaised, Origin: "requester",
		By: "registrar:demo", Key: key, Project: "demo", TS: signNow, Terms: &acts.Terms{Text: "Renew the domain"}, TermsRev: 1}); err != nil {
		t.Fatal(err)
	}
	return l, logState(t, l, key)
}

func settlement(t *testing.T, st *acts.ActState) []acts.Record {
	t.Helper()
	rs, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp@test", Decider: "p:alice", Now: signNow, Nonce: func() string { return "s1" }}, "done", "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func recordCount(t *testing.T, l *recordlog.Log) int {
	t.Helper()
	ld, err := l.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	return len(ld.Records)
}

// A principal's settlement is signed, written, applied, and the report
// carries the act's new state; nothing is registered when the project has
// a principal already.
func TestWriteAsPrincipalSignsWritesAndReloads(t *testing.T) {
	t.Parallel()
	l, st, alice := signedSetup(t)
	rep, err := recordlog.WriteAsPrincipal(context.Background(), l, PrincipalWrite{Project: st.Project, Key: st.Key,
		Records: settlement(t, st), Signer: keyOf(alice), Register: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Outcomes) != 1 || rep.Outcomes[0] != recordlog.Written || rep.Registered != nil {
		t.Fatalf("outcomes %v registered %+v", rep.Outcomes, rep.Registered)
	}
	if !strings.HasPrefix(rep.Records[0].Sig, "-----BEGIN SSH SIGNATURE-----") {
		t.Fatalf("not signed: %q", rep.Records[0].Sig)
	}
	if rep.State.Status != acts.StatusSettled || rep.State.Outcome != "done" {
		t.Fatalf("state %+v", rep.State)
	}
	ld, _ := l.Load("demo")
	if len(ld.Rejected) != 0 {
		t.Fatalf("rejected %v", ld.Rejected)
	}
	if got := logState(t, l, st.Key); got.Status != acts.StatusSettled {
		t.Fatalf("the log says %s", got.Status)
	}
}

// A key that is not a principal of the project is refused before anything
// is written: no record, no registration.
func TestWriteAsPrincipalRefusesNonPrincipal(t *testing.T) {
	t.Parallel()
	l, st, _ := signedSetup(t)
	before := recordCount(t, l)
	signers, _ := os.ReadFile(l.SignersPath("demo"))
	mallory := sshtest.Signer(t)
	_, err := recordlog.WriteAsPrincipal(context.Background(), l, PrincipalWrite{Project: st.Project, Key: st.Key,
		Records: settlement(t, st), Signer: keyOf(mallory), Register: true})
	if err == nil || !strings.Contains(err.Error(), "is not a principal of project demo") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("err %v", err)
	}
	if n := recordCount(t, l); n != before {
		t.Fatalf("%d records after a refusal, %d before", n, before)
	}
	if after, _ := os.ReadFile(l.SignersPath("demo")); string(after) != string(signers) {
		t.Fatal("allowed_signers changed on a refusal")
	}
	if logState(t, l, st.Key).Status == acts.StatusSettled {
		t.Fatal("settled by a non-principal")
	}
}

// Trust on first use happens only when the request allows it; otherwise the
// records are written unsigned (there is no project identity to bind a
// signature to) and the project stays without principal.
func TestWriteAsPrincipalRegistersOnlyWhenAllowed(t *testing.T) {
	t.Parallel()
	for _, register := range []bool{false, true} {
		l, st := raisedOnly(t)
		alice := sshtest.Signer(t)
		rep, err := recordlog.WriteAsPrincipal(context.Background(), l, PrincipalWrite{Project: st.Project, Key: st.Key,
			Records: settlement(t, st), Signer: keyOf(alice), Register: register})
		if err != nil {
			t.Fatal(err)
		}
		pr, err := l.LoadPrincipals("demo")
		if err != nil {
			t.Fatal(err)
		}
		_, held := pr.Holds(alice.PublicKey())
		if held != register || (rep.Registered != nil) != register {
			t.Fatalf("register=%v: principal held %v, notice %+v", register, held, rep.Registered)
		}
		if register && (rep.Registered.Principal != "alice" || rep.Registered.Fingerprint != sshsign.Fingerprint(alice.PublicKey())) {
			t.Fatalf("notice %+v", rep.Registered)
		}
		if rep.State.Status != acts.StatusSettled || (rep.Records[0].Sig != "") != register {
			t.Fatalf("register=%v: state %s, sig %q", register, rep.State.Status, rep.Records[0].Sig)
		}
	}
}

// Records signed for a preview are written as shown: the signer is
// authorized (and may register) but does not sign them again.
func TestWriteAsPrincipalKeepsPresignedRecords(t *testing.T) {
	t.Parallel()
	l, st, alice := signedSetup(t)
	rs := settlement(t, st)
	if err := acts.SignAll(rs, alice, projectIDOf(t, l, st.Project)); err != nil {
		t.Fatal(err)
	}
	shown := rs[0].Sig
	var got []acts.Record
	calls := 0
	signer := recordlog.AuthorizerFunc(func(l *recordlog.Log, project string, rs []acts.Record, register bool) (*recordlog.FirstPrincipal, error) {
		calls++
		got = rs
		return nil, nil
	})
	rep, err := recordlog.WriteAsPrincipal(context.Background(), l, PrincipalWrite{Project: st.Project, Key: st.Key,
		Records: rs, Signer: signer, Register: true, Signed: true})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || got != nil || rep.Records[0].Sig != shown || rep.State.Status != acts.StatusSettled {
		t.Fatalf("calls %d, records handed to sign %v, state %s", calls, got, rep.State.Status)
	}
}

// An agent's records need no signature: no key is looked up.
func TestWriteAsPrincipalAgentRecordsNeedNoKey(t *testing.T) {
	t.Parallel()
	l, st := raisedOnly(t)
	r, err := acts.BuildWithdraw(st, acts.Sender{By: "agent:bob", Now: signNow, Nonce: func() string { return "w1" }})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := recordlog.WriteAsPrincipal(context.Background(), l, PrincipalWrite{Project: st.Project, Key: st.Key, Records: []acts.Record{r}})
	if err != nil || rep.State.Need != acts.NeedWithdrawn || rep.Records[0].Sig != "" {
		t.Fatalf("%v %+v", err, rep)
	}
}

// Two commands registering a project's first principal at once take turns:
// one registration, and the other finds the key a principal already.
func TestFirstPrincipalRegisteredOnceUnderRace(t *testing.T) {
	t.Parallel()
	for round := 0; round < 20; round++ {
		l, _ := raisedOnly(t)
		alice := sshtest.Signer(t)
		errs := make(chan error, 4)
		for i := 0; i < 4; i++ {
			k := keyOf(alice)
			n := i
			k.Nonce = func() string { return "r" + string(rune('a'+n)) }
			go func() {
				_, _, err := k.Authorize(l, "demo", true)
				errs <- err
			}()
		}
		for i := 0; i < 4; i++ {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		p, err := l.LoadPrincipals("demo")
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Changes) != 1 || p.Mismatch != "" {
			t.Fatalf("round %d: %d principal changes (mismatch %q), want one registration", round, len(p.Changes), p.Mismatch)
		}
	}
}
