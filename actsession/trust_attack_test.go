package actsession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"github.com/tp-dev/tp/internal/trust"
	"golang.org/x/crypto/ssh"
)

// The attacker's tests of issue 15 (D19): an attacker who can write the
// acts folder (an agent, another clone, the git remote) but holds no
// current principal's key, against a registrar with a trust store.

type trustedProject struct {
	l     *recordlog.Log
	doc   string
	req   SyncRequest
	alice ssh.Signer
}

// newTrustedProject: project garden with two open acts, alice its first
// principal, registered on this machine (her own first change here).
func newTrustedProject(t *testing.T) *trustedProject {
	t.Helper()
	dir := t.TempDir()
	p := &trustedProject{l: recordlog.OpenLog(filepath.Join(dir, "acts")), doc: filepath.Join(dir, "STATE.md"), alice: sshtest.Signer(t)}
	p.l.Trust = testTrust(t)
	must(t, os.WriteFile(p.doc, []byte("## Tasks\n\n- [ ] [owner] Collect the shed key\n- [ ] [owner] Oil the gate\n"), 0o644))
	prof, err := acts.ProfileByName("en", nil)
	must(t, err)
	p.req = SyncRequest{Document: p.doc, Project: "garden", Profile: prof, Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	p.sync(t)
	if _, err := p.l.ChangePrincipal("garden", recordlog.PrincipalAdded, "alice", p.alice.PublicKey(), p.alice, "ps:tp", "2026-12-01T09:00:30Z", acts.NewNonce()); err != nil {
		t.Fatal(err)
	}
	return p
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (p *trustedProject) sync(t *testing.T) *SyncReport {
	t.Helper()
	rep, err := Sync(context.Background(), p.l, p.req)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// act is the open act whose text contains word.
func (p *trustedProject) act(t *testing.T, word string) *acts.ActState {
	t.Helper()
	ld, err := p.l.Load("garden")
	must(t, err)
	states, _ := acts.States(ld.Records)
	for _, st := range states {
		if strings.Contains(st.Text, word) {
			return st
		}
	}
	t.Fatalf("no act %q", word)
	return nil
}

// settle writes a settlement of the act signed by s for the chain's
// project identity (or for projectID when given).
func (p *trustedProject) settle(t *testing.T, st *acts.ActState, s ssh.Signer, nonce string) acts.Record {
	t.Helper()
	rs, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp", Decider: "p:alice", Now: "2026-12-01T09:02:00Z", Nonce: func() string { return nonce }}, "done", "", "", 0)
	must(t, err)
	pr, err := p.l.LoadPrincipals("garden")
	must(t, err)
	id := pr.ProjectID
	if id == "" {
		id = testProjectID
	}
	must(t, acts.SignAll(rs, s, id))
	_, err = p.l.WriteAll(rs)
	must(t, err)
	return rs[0]
}

func (p *trustedProject) status(t *testing.T, key string) string {
	t.Helper()
	ld, err := p.l.Load("garden")
	must(t, err)
	var rs []acts.Record
	for _, r := range ld.Records {
		if r.Key == key {
			rs = append(rs, r)
		}
	}
	st, err := acts.Lifecycle(rs)
	must(t, err)
	return st.Status
}

func (p *trustedProject) principals(t *testing.T) *recordlog.Principals {
	t.Helper()
	pr, err := p.l.LoadPrincipals("garden")
	must(t, err)
	return pr
}

// forge writes a principal change signed by s, as tp would, but with the
// fields the attacker chooses.
func forge(t *testing.T, l *recordlog.Log, c recordlog.PrincipalChange, s ssh.Signer) string {
	t.Helper()
	c.PH, c.Ext, c.Project, c.By = "0.3", recordlog.PrincipalExt, "garden", "ps:tp"
	c.Sig = ""
	msg, err := ojson.MarshalCanonical(c)
	must(t, err)
	c.Sig, err = sshsign.Sign(s, acts.SigNamespace, msg)
	must(t, err)
	b, err := ojson.MarshalCanonical(c)
	must(t, err)
	path := filepath.Join(l.PrincipalsDir("garden"), recordlog.EncodeName(c.ID)+".json")
	must(t, os.WriteFile(path, b, 0o644))
	return path
}

func authorized(k ssh.PublicKey) string {
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
}

func changePath(l *recordlog.Log, id string) string {
	return filepath.Join(l.PrincipalsDir("garden"), recordlog.EncodeName(id)+".json")
}

// addAndRemoveBob: alice adds bob, then removes him as compromised.
func (p *trustedProject) addAndRemoveBob(t *testing.T) (bob ssh.Signer, added, removed recordlog.PrincipalChange) {
	t.Helper()
	bob = sshtest.Signer(t)
	pr, err := p.l.ChangePrincipal("garden", recordlog.PrincipalAdded, "bob", bob.PublicKey(), p.alice, "ps:tp", "2026-12-01T10:00:00Z", "b")
	must(t, err)
	added = pr.Changes[len(pr.Changes)-1]
	pr, err = p.l.ChangePrincipalWhy("garden", recordlog.PrincipalRemoved, "bob", bob.PublicKey(), recordlog.Compromised, p.alice, "ps:tp", "2026-12-01T11:00:00Z", "r")
	must(t, err)
	removed = pr.Changes[len(pr.Changes)-1]
	return bob, added, removed
}

// Issue 15, case 1a: a removed principal deletes its removal and puts its
// key back in allowed_signers. This machine accepted the removal, so the
// shortened history is a rollback: nothing principal-side applies, the
// forged settlement included.
func TestAttackRemovedPrincipalDeletesRemoval(t *testing.T) {
	t.Parallel()
	p := newTrustedProject(t)
	bob, _, removed := p.addAndRemoveBob(t)
	must(t, os.Remove(changePath(p.l, removed.ID)))
	attacker := recordlog.OpenLog(p.l.Dir) // no trust store: writes what the chain now says
	if _, err := attacker.WriteSigners("garden"); err != nil {
		t.Fatal(err)
	}
	st := p.act(t, "shed key")
	forged := p.settle(t, st, bob, "f")
	pr := p.principals(t)
	if !strings.Contains(pr.Blocked, "no longer holds change") {
		t.Fatalf("blocked = %q; want the rollback named", pr.Blocked)
	}
	rep := p.sync(t)
	if len(rep.Applied) != 0 || p.status(t, st.Key) == acts.StatusSettled {
		t.Fatalf("the removed key's settlement was applied: %+v", rep.Applied)
	}
	if !rejected(rep, forged.ID, "no longer holds change") {
		t.Fatalf("rejected = %+v", rep.Rejected)
	}
}

// Issue 15, case 1b: the removed key signs a removal of the real principal
// with the same seq and an earlier ts. It extends the change before its
// own removal: a fork, which stops every machine (none follows the
// attacker); a person resolves it, and the removed key stays removed.
func TestAttackRemovedPrincipalForksHistory(t *testing.T) {
	t.Parallel()
	p := newTrustedProject(t)
	bob, added, removed := p.addAndRemoveBob(t)
	forge(t, p.l, recordlog.PrincipalChange{ID: "p:20261201105959-x", Type: recordlog.PrincipalRemoved, ProjectID: p.principals(t).ProjectID,
		Prev: added.Hash(), TS: "2026-12-01T10:59:59Z", Seq: removed.Seq, Principal: "alice", PublicKey: authorized(p.alice.PublicKey()), Reason: recordlog.Compromised}, bob)
	st := p.act(t, "shed key")
	forged := p.settle(t, st, bob, "f")
	for name, l := range map[string]*recordlog.Log{"this machine": p.l, "a machine that never saw the removal": withTrust(t, p.l.Dir, p.l.Trust, false)} {
		pr, err := l.LoadPrincipals("garden")
		must(t, err)
		if !strings.Contains(pr.Blocked, "forks after change") {
			t.Fatalf("%s: blocked = %q; want the fork named", name, pr.Blocked)
		}
	}
	rep := p.sync(t)
	if len(rep.Applied) != 0 || !rejected(rep, forged.ID, "forks") {
		t.Fatalf("during the fork: applied %+v, rejected %+v", rep.Applied, rep.Rejected)
	}
	// alice keeps her history: the forged change goes, bob stays removed,
	// everything bob signed is distrusted, alice can settle.
	res, err := p.l.Resolve("garden", removed.ID)
	must(t, err)
	if len(res.Removed) != 1 || res.After.Blocked != "" {
		t.Fatalf("resolve: %+v, blocked %q", res, res.After.Blocked)
	}
	if _, held := res.After.Holds(bob.PublicKey()); held {
		t.Fatal("bob is a principal again")
	}
	rep = p.sync(t)
	if len(rep.Applied) != 0 || !rejected(rep, forged.ID, "compromised") {
		t.Fatalf("after resolve: applied %+v, rejected %+v", rep.Applied, rep.Rejected)
	}
	p.settle(t, st, p.alice, "g")
	if rep = p.sync(t); len(rep.Applied) != 1 {
		t.Fatalf("alice's settlement after resolve: %+v", rep)
	}
}

// withTrust opens dir with a trust store; fresh: a copy of the roots only
// (another machine of the same person that never accepted a change).
func withTrust(t *testing.T, dir string, s *trust.Store, fresh bool) *recordlog.Log {
	t.Helper()
	l := recordlog.OpenLog(dir)
	l.Trust = s
	return l
}

func rejected(rep *SyncReport, id, why string) bool {
	for _, r := range rep.Rejected {
		if r.ID == id && strings.Contains(r.Why, why) {
			return true
		}
	}
	return false
}

// Issue 15, case 4a: a pushed commit deletes the principal's signed
// settlement. The act must not turn open and be claimed done as a
// vanished line: verify and sync report it, sync sends nothing for it.
func TestAttackDeletedSettlement(t *testing.T) {
	t.Parallel()
	p := newTrustedProject(t)
	st := p.act(t, "shed key")
	s := p.settle(t, st, p.alice, "s")
	if rep := p.sync(t); len(rep.Applied) != 1 {
		t.Fatalf("settlement not applied: %+v", rep)
	}
	docBefore, _ := os.ReadFile(p.doc)
	must(t, os.Remove(p.l.RecordPath("garden", s.ID)))
	ld, err := p.l.Load("garden")
	must(t, err)
	if len(ld.Vanished) != 1 || ld.Vanished[0].ID != s.ID || ld.Vanished[0].Key != st.Key {
		t.Fatalf("vanished = %+v", ld.Vanished)
	}
	rep := p.sync(t)
	for _, r := range rep.Sent {
		if r.Key == st.Key {
			t.Fatalf("sync sent %s for the act whose settlement vanished", r.Type)
		}
	}
	if docAfter, _ := os.ReadFile(p.doc); string(docAfter) != string(docBefore) || len(rep.Vanished) != 1 {
		t.Fatalf("sync changed the document or did not report: %+v", rep)
	}
}

// Issue 15, case 4b: deleting a reopened must not roll the act back to
// settled (its line struck again) unnoticed.
func TestAttackDeletedReopen(t *testing.T) {
	t.Parallel()
	p := newTrustedProject(t)
	st := p.act(t, "shed key")
	p.settle(t, st, p.alice, "s")
	p.sync(t)
	ld, _ := p.l.Load("garden")
	var settled []acts.Record
	for _, r := range ld.Records {
		if r.Key == st.Key {
			settled = append(settled, r)
		}
	}
	now, err := acts.Lifecycle(settled)
	must(t, err)
	re, err := acts.BuildReopen(now, acts.Sender{By: "ps:tp", Decider: "p:alice", Now: "2026-12-01T09:03:00Z", Nonce: func() string { return "o" }})
	must(t, err)
	must(t, acts.SignRecord(&re, p.alice, p.principals(t).ProjectID))
	_, err = p.l.WriteRecord(re)
	must(t, err)
	if rep := p.sync(t); len(rep.Applied) != 1 {
		t.Fatalf("reopen not applied: %+v", rep)
	}
	docBefore, _ := os.ReadFile(p.doc)
	if !strings.Contains(string(docBefore), "shed key") {
		t.Fatalf("reopen did not restore the line:\n%s", docBefore)
	}
	must(t, os.Remove(p.l.RecordPath("garden", re.ID)))
	rep := p.sync(t)
	if docAfter, _ := os.ReadFile(p.doc); string(docAfter) != string(docBefore) || rep.Struck != 0 || len(rep.Vanished) != 1 {
		t.Fatalf("deleted reopen: struck %d, vanished %+v\n%s", rep.Struck, rep.Vanished, docAfter)
	}
}

// Issue 15, case 6a: a genuine settlement copied into another acts folder
// whose project has the same name, and even the same principal key, does
// not verify there: the signature binds the project's identity.
func TestAttackReplayIntoAnotherFolder(t *testing.T) {
	t.Parallel()
	a := newTrustedProject(t)
	b := newTrustedProject(t)
	// b's principal is alice's key too (the same person, two folders).
	b.alice = a.alice
	must(t, os.RemoveAll(b.l.PrincipalsDir("garden")))
	b.l.Trust = testTrust(t)
	if _, err := b.l.ChangePrincipal("garden", recordlog.PrincipalAdded, "alice", a.alice.PublicKey(), a.alice, "ps:tp", "2026-12-01T09:00:30Z", "a"); err != nil {
		t.Fatal(err)
	}
	st := a.act(t, "shed key")
	s := a.settle(t, st, a.alice, "s")
	raw, err := os.ReadFile(a.l.RecordPath("garden", s.ID))
	must(t, err)
	must(t, os.WriteFile(b.l.RecordPath("garden", s.ID), raw, 0o644))
	rep := b.sync(t)
	if len(rep.Applied) != 0 || !rejected(rep, s.ID, "") {
		t.Fatalf("replayed settlement: applied %+v, rejected %+v", rep.Applied, rep.Rejected)
	}
	if rep := a.sync(t); len(rep.Applied) != 1 {
		t.Fatalf("the genuine settlement in its own folder: %+v", rep)
	}
}

// Issue 15, case 6b and guarantee 1: with no principal trusted on this
// machine, a hand-written unsigned settlement is not applied; nor is a
// genuine one of a principal this machine's person never trusted (a
// headless registrar never adopts) — until the person trusts the key.
func TestHeadlessNeverAdopts(t *testing.T) {
	t.Parallel()
	l, doc, req := syncFixture(t) // an unsigned settlement, no principal
	l.Trust = testTrust(t)
	before, _ := os.ReadFile(doc)
	rep, err := Sync(context.Background(), l, req)
	must(t, err)
	after, _ := os.ReadFile(doc)
	if len(rep.Applied) != 0 || string(after) != string(before) || rep.Unauthenticated || !strings.Contains(strings.Join(rep.LogProblems, "\n"), "tp acts principal trust --project garden") {
		t.Fatalf("unsigned project with a trust store: %+v", rep)
	}
	// Another machine registered alice (its own trust store); the
	// settlement she signs arrives here.
	alice := sshtest.Signer(t)
	other := recordlog.OpenLog(l.Dir)
	other.Trust = testTrust(t)
	pr, err := other.ChangePrincipal("garden", recordlog.PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:tp", "2026-12-01T09:05:00Z", "a")
	must(t, err)
	st := logStateIn(t, l, "garden")
	rs, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp", Decider: "p:alice", Now: "2026-12-01T09:06:00Z", Nonce: func() string { return "z" }}, "done", "", "", 0)
	must(t, err)
	must(t, acts.SignAll(rs, alice, pr.ProjectID))
	_, err = l.WriteAll(rs)
	must(t, err)
	if rep, err = Sync(context.Background(), l, req); err != nil || len(rep.Applied) != 0 || !strings.Contains(strings.Join(rep.LogProblems, "\n"), "not trusted on this machine") {
		t.Fatalf("untrusted principal: %+v %v", rep, err)
	}
	must(t, l.TrustRoot("garden", pr.ProjectID, "alice", alice.PublicKey(), time.Now()))
	if rep, err = Sync(context.Background(), l, req); err != nil || len(rep.Applied) != 1 {
		t.Fatalf("after trusting alice: %+v %v", rep, err)
	}
}

// Issue 15, case 5: two machines each register a first principal offline;
// git brings both changes together. Every machine stops the same way; one
// command (resolve) on one machine and a trust on the other end it, and
// both then agree.
func TestConcurrentFirstPrincipals(t *testing.T) {
	t.Parallel()
	a := newTrustedProject(t)
	b := newTrustedProject(t) // another machine, its own trust store and key
	bob := b.alice
	// git merges the two principals/ folders into both clones.
	for _, pair := range [][2]*trustedProject{{a, b}, {b, a}} {
		entries, _ := os.ReadDir(pair[1].l.PrincipalsDir("garden"))
		for _, e := range entries {
			raw, _ := os.ReadFile(filepath.Join(pair[1].l.PrincipalsDir("garden"), e.Name()))
			os.WriteFile(filepath.Join(pair[0].l.PrincipalsDir("garden"), e.Name()), raw, 0o644)
		}
	}
	for name, p := range map[string]*trustedProject{"a": a, "b": b} {
		if pr := p.principals(t); !strings.Contains(pr.Blocked, "2 first principal changes") {
			t.Fatalf("machine %s: blocked = %q", name, pr.Blocked)
		}
	}
	// On a, the person keeps alice's registration.
	var keep string
	for _, c := range a.principals(t).Firsts {
		if c.Principal == "alice" && c.PublicKey == authorized(a.alice.PublicKey()) {
			keep = c.ID
		}
	}
	res, err := a.l.Resolve("garden", keep)
	must(t, err)
	if res.After.Blocked != "" || len(res.Removed) != 1 {
		t.Fatalf("resolve on a: %+v %q", res, res.After.Blocked)
	}
	// git carries the removal to b.
	must(t, os.RemoveAll(b.l.PrincipalsDir("garden")))
	must(t, os.MkdirAll(b.l.PrincipalsDir("garden"), 0o755))
	entries, _ := os.ReadDir(a.l.PrincipalsDir("garden"))
	for _, e := range entries {
		raw, _ := os.ReadFile(filepath.Join(a.l.PrincipalsDir("garden"), e.Name()))
		os.WriteFile(filepath.Join(b.l.PrincipalsDir("garden"), e.Name()), raw, 0o644)
	}
	pr := b.principals(t)
	if !strings.Contains(pr.Blocked, "not trusted on this machine") {
		t.Fatalf("b after the resolve: %q", pr.Blocked)
	}
	_ = bob
	must(t, b.l.TrustRoot("garden", pr.ProjectID, "alice", a.alice.PublicKey(), time.Now()))
	if pr := b.principals(t); pr.Blocked != "" || pr.ProjectID != a.principals(t).ProjectID {
		t.Fatalf("b after trusting alice: %q", pr.Blocked)
	}
}

// D19 revised: a key removed as retired keeps the settlements this
// machine had applied before; one removed as compromised keeps none.
func TestRetiredAndCompromised(t *testing.T) {
	t.Parallel()
	for _, reason := range []string{recordlog.Retired, recordlog.Compromised} {
		t.Run(reason, func(t *testing.T) {
			p := newTrustedProject(t)
			bob := sshtest.Signer(t)
			_, err := p.l.ChangePrincipal("garden", recordlog.PrincipalAdded, "bob", bob.PublicKey(), p.alice, "ps:tp", "2026-12-01T10:00:00Z", "b")
			must(t, err)
			st := p.act(t, "shed key")
			s := p.settle(t, st, bob, "s")
			if rep := p.sync(t); len(rep.Applied) != 1 {
				t.Fatalf("bob's settlement not applied: %+v", rep)
			}
			gate := p.act(t, "gate")
			late := p.settle(t, gate, bob, "t") // signed, not yet applied
			_, err = p.l.ChangePrincipalWhy("garden", recordlog.PrincipalRemoved, "bob", bob.PublicKey(), reason, p.alice, "ps:tp", "2026-12-01T11:00:00Z", "r")
			must(t, err)
			ld, err := p.l.Load("garden")
			must(t, err)
			state := map[string]bool{}
			for _, r := range ld.Records {
				state[r.ID] = true
			}
			if state[s.ID] != (reason == recordlog.Retired) {
				t.Fatalf("%s: the applied settlement trusted = %v", reason, state[s.ID])
			}
			if state[late.ID] {
				t.Fatalf("%s: a settlement not applied before the removal is trusted", reason)
			}
		})
	}
}

// Guarantee 5: the trust root is keyed by the project's identity, not a
// path: the same folder reached through a link is the same project, with
// the same trusted principal and the same memory of its history.
func TestTrustRootNotKeyedByPath(t *testing.T) {
	t.Parallel()
	p := newTrustedProject(t)
	link := filepath.Join(t.TempDir(), "acts-link")
	if err := os.Symlink(p.l.Dir, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	_, _, removed := p.addAndRemoveBob(t)
	via := withTrust(t, link, p.l.Trust, false)
	pr, err := via.LoadPrincipals("garden")
	must(t, err)
	if pr.Blocked != "" || pr.ProjectID != p.principals(t).ProjectID {
		t.Fatalf("through a link: %q", pr.Blocked)
	}
	must(t, os.Remove(changePath(p.l, removed.ID)))
	if pr, _ = via.LoadPrincipals("garden"); !strings.Contains(pr.Blocked, "no longer holds change") {
		t.Fatalf("rollback through a link not refused: %q", pr.Blocked)
	}
}

// The person's decision about a vanished settlement (verify --forget):
// this machine stops remembering it, and sync treats the act by the log as
// it now is (here: open, its line gone, so claimed done as a vanished line).
func TestForgetVanished(t *testing.T) {
	t.Parallel()
	p := newTrustedProject(t)
	st := p.act(t, "shed key")
	s := p.settle(t, st, p.alice, "s")
	p.sync(t)
	must(t, os.Remove(p.l.RecordPath("garden", s.ID)))
	if found, err := p.l.Forget("garden", p.principals(t).ProjectID, "s:nothing"); err != nil || found {
		t.Fatalf("forget of an unknown id: %v %v", found, err)
	}
	found, err := p.l.Forget("garden", p.principals(t).ProjectID, s.ID)
	if err != nil || !found {
		t.Fatalf("forget: %v %v", found, err)
	}
	ld, err := p.l.Load("garden")
	must(t, err)
	if len(ld.Vanished) != 0 {
		t.Fatalf("still vanished after forget: %+v", ld.Vanished)
	}
	rep := p.sync(t)
	claimed := false
	for _, r := range rep.Sent {
		claimed = claimed || (r.Key == st.Key && r.Type == acts.TypeClaimed)
	}
	if !claimed || len(rep.Vanished) != 0 {
		t.Fatalf("after forget: sent %+v", rep.Sent)
	}
}

// Issue 15, D19: a principal change of the first format (tp-principals/0.1:
// no project identity, no chain) is never migrated: the key it names was
// written by whoever could write the acts folder. It is refused with one
// line that names the file and says the exact command by which the
// principal registers again; a settlement signed by its key is not
// applied; after the principal adds their own key, theirs is.
func TestOldFormatPrincipalRefused(t *testing.T) {
	t.Parallel()
	l, doc, req := syncFixture(t) // one act, an unsigned settlement, no principal
	l.Trust = testTrust(t)
	old := sshtest.Signer(t)
	must(t, os.MkdirAll(l.PrincipalsDir("garden"), 0o755))
	path := filepath.Join(l.PrincipalsDir("garden"), recordlog.EncodeName("p:old")+".json")
	must(t, os.WriteFile(path, []byte(`{"ph":"0.3","ext":"tp-principals/0.1","id":"p:old","type":"principal_added","by":"ps:tp","project":"garden","ts":"2026-11-01T10:00:00Z","seq":1,"principal":"alice","public_key":"`+strings.TrimSpace(string(ssh.MarshalAuthorizedKey(old.PublicKey())))+`"}`), 0o644))
	pr, err := l.LoadPrincipals("garden")
	must(t, err)
	if pr.Has() {
		t.Fatalf("an old-format change made a principal: %+v", pr.Chain)
	}
	msg := strings.Join(pr.Problems, "\n")
	if len(pr.Problems) != 1 || !strings.HasPrefix(msg, path+" (change p:old): ") || !strings.Contains(msg, "tp-principals/0.1") ||
		!strings.Contains(msg, "never migrated (D19)") || !strings.Contains(msg, "tp acts principal add --project garden YOUR_KEY.pub") || strings.Contains(msg, "\n") {
		t.Fatalf("the refusal does not name the file, the rule and the command in one line: %q", pr.Problems)
	}
	before, _ := os.ReadFile(doc)
	rep, err := Sync(context.Background(), l, req)
	must(t, err)
	if after, _ := os.ReadFile(doc); len(rep.Applied) != 0 || string(after) != string(before) || !strings.Contains(strings.Join(rep.LogProblems, "\n"), "tp acts principal add --project garden") {
		t.Fatalf("with only an old-format change: %+v", rep)
	}
	// The principal registers again with their own key (what
	// `tp acts principal add` does in a project without a principal:
	// a first change, trusted on this machine), and settles.
	alice := sshtest.Signer(t)
	pr, err = l.ChangePrincipal("garden", recordlog.PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:tp", "2026-12-01T09:05:00Z", "a")
	must(t, err)
	st := logStateIn(t, l, "garden")
	rs, err := acts.BuildSettle(st, acts.Sender{By: "ps:tp", Decider: "p:alice", Now: "2026-12-01T09:06:00Z", Nonce: func() string { return "z" }}, "done", "", "", 0)
	must(t, err)
	must(t, acts.SignAll(rs, alice, pr.ProjectID))
	_, err = l.WriteAll(rs)
	must(t, err)
	if rep, err = Sync(context.Background(), l, req); err != nil || len(rep.Applied) != 1 {
		t.Fatalf("after registering again: %+v %v", rep, err)
	}
	for _, a := range rep.Applied {
		if a.ID != rs[0].ID {
			t.Errorf("applied %s, not the principal's new settlement %s", a.ID, rs[0].ID)
		}
	}
}

// An applied settlement that this machine no longer trusts — its key was
// removed as compromised, or the principal history it rests on was rolled
// back — must not make the registrar claim the act done as a vanished
// line (its line is gone because that settlement struck it): the act is
// left as it is and reported, until a principal settles it again.
func TestWithheldSettlementSendsNoVanishClaim(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		attack func(t *testing.T, p *trustedProject, bob ssh.Signer, removal string)
	}{
		{"removed as compromised", func(t *testing.T, p *trustedProject, bob ssh.Signer, removal string) {}},
		{"removal deleted (rollback)", func(t *testing.T, p *trustedProject, bob ssh.Signer, removal string) {
			must(t, os.Remove(changePath(p.l, removal)))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newTrustedProject(t)
			bob := sshtest.Signer(t)
			_, err := p.l.ChangePrincipal("garden", recordlog.PrincipalAdded, "bob", bob.PublicKey(), p.alice, "ps:tp", "2026-12-01T10:00:00Z", "b")
			must(t, err)
			st := p.act(t, "shed key")
			p.settle(t, st, bob, "s")
			if rep := p.sync(t); len(rep.Applied) != 1 {
				t.Fatalf("bob's settlement not applied: %+v", rep)
			}
			pr, err := p.l.ChangePrincipalWhy("garden", recordlog.PrincipalRemoved, "bob", bob.PublicKey(), recordlog.Compromised, p.alice, "ps:tp", "2026-12-01T11:00:00Z", "r")
			must(t, err)
			tc.attack(t, p, bob, pr.Changes[len(pr.Changes)-1].ID)
			before, _ := os.ReadFile(p.doc)
			rep := p.sync(t)
			for _, r := range rep.Sent {
				if r.Key == st.Key {
					t.Fatalf("sync sent %s for the act whose applied settlement is no longer trusted", r.Type)
				}
			}
			if after, _ := os.ReadFile(p.doc); string(after) != string(before) {
				t.Fatalf("sync changed the document:\n%s", after)
			}
			if !strings.Contains(strings.Join(rep.LogProblems, "\n"), st.Key+" is left as it is") {
				t.Fatalf("not reported: %q", rep.LogProblems)
			}
			if tc.name != "removed as compromised" {
				return
			}
			// alice settles it again: applied as usual
			p.settle(t, p.act(t, "shed key"), p.alice, "a")
			if rep := p.sync(t); len(rep.Applied) != 1 {
				t.Fatalf("alice's settlement after the removal: %+v", rep)
			}
		})
	}
}
