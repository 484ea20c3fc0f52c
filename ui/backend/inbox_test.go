package backend

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/ui/common"
	"golang.org/x/crypto/ssh"
)

func principal(st *acts.ActState, a common.Action) ([]acts.Record, error) {
	s := acts.Sender{By: "ps:tp@test", Decider: "p:alice", Now: "2026-11-29T10:00:00Z"}
	switch a.Kind {
	case common.ActSettle:
		return acts.BuildSettle(st, s, a.Outcome, a.SameAs, a.Note, a.TermsRev)
	case common.ActReopen:
		r, err := acts.BuildReopen(st, s)
		return []acts.Record{r}, err
	case common.ActNote:
		r, err := acts.BuildNote(st, s, a.Note)
		return []acts.Record{r}, err
	}
	return nil, fmt.Errorf("unknown %s", a.Kind)
}

func raise(t *testing.T, l *recordlog.Log, project, text string) string {
	t.Helper()
	key := acts.DeriveKey(project, text)
	if _, err := l.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(key), Type: acts.TypeRaised,
		Origin: "requester", By: "registrar", Key: key, Project: project, TS: "2026-11-01T10:00:00Z",
		Terms: &acts.Terms{Text: text}, TermsRev: 1}); err != nil {
		t.Fatal(err)
	}
	return key
}

// What the preview shows is what Apply writes: same ids, same bytes.
func TestInboxPreviewIsWhatIsWritten(t *testing.T) {
	ctx := context.Background()
	l := recordlog.OpenLog(t.TempDir())
	k1 := raise(t, l, "shop", "Pay the ACME invoice")
	k2 := raise(t, l, "shop", "Pay the invoice from ACME")
	in := &Inbox{Session: actsession.New(l, actsession.Options{}), Build: principal}
	list, err := in.LoadActs(ctx)
	if err != nil || len(list.Acts) != 2 || len(list.Findings) != 0 {
		t.Fatalf("%v %+v", err, list)
	}
	a := common.Action{Kind: common.ActSettle, Key: k2, Project: "shop", Outcome: "already_done", SameAs: k1}
	text, err := in.Preview(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `"type": "settled"`) || !strings.Contains(text, `"relation": "same_as"`) {
		t.Fatalf("preview:\n%s", text)
	}
	// Nothing written by a preview.
	ld, _ := l.Load("shop")
	if len(ld.Records) != 2 {
		t.Fatalf("preview wrote: %d records", len(ld.Records))
	}
	act, err := in.Apply(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != "settled" || act.Outcome != "already_done" {
		t.Fatalf("%+v", act)
	}
	ld, _ = l.Load("shop")
	for _, r := range ld.Records {
		if r.Type == acts.TypeSettled && !strings.Contains(text, r.ID) {
			t.Fatalf("written %s was not the previewed record:\n%s", r.ID, text)
		}
	}
	// Reopen, then a note.
	if _, err := in.Apply(ctx, common.Action{Kind: common.ActReopen, Key: k2, Project: "shop"}); err != nil {
		t.Fatal(err)
	}
	act, err = in.Apply(ctx, common.Action{Kind: common.ActNote, Key: k2, Project: "shop", Note: "called them"})
	if err != nil || act.Status != "open" || len(act.Notes) != 1 {
		t.Fatalf("%v %+v", err, act)
	}
}

func TestInboxWithoutBuilder(t *testing.T) {
	l := recordlog.OpenLog(t.TempDir())
	k := raise(t, l, "p", "Sign it")
	in := &Inbox{Session: actsession.New(l, actsession.Options{})}
	if _, err := in.Preview(context.Background(), common.Action{Kind: common.ActSettle, Key: k, Project: "p", Outcome: "done"}); err == nil {
		t.Fatal("no builder, yet a preview")
	}
}

// With Sign set, the inbox signs what it writes (registering the principal
// only when the person confirms, never in a preview) and shows the signer.
func TestInboxSignsSettlements(t *testing.T) {
	ctx := context.Background()
	l := recordlog.OpenLog(t.TempDir())
	k := raise(t, l, "shop", "Pay the ACME invoice")
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := ssh.NewSignerFromKey(priv)
	registered := 0
	in := &Inbox{Session: actsession.New(l, actsession.Options{}), Build: principal, Sign: func(project string, rs []acts.Record, register bool) (string, error) {
		if register {
			registered++
			if _, err := l.ChangePrincipal(project, recordlog.PrincipalAdded, "alice", signer.PublicKey(), signer, "ps:test", "2026-11-29T10:00:00Z", "n"); err != nil {
				return "", err
			}
		}
		p, err := l.LoadPrincipals(project)
		if err != nil || p.ProjectID == "" {
			return "first use", err // no identity to sign for before the registration
		}
		return "first use", acts.SignAll(rs, signer, p.ProjectID)
	}}
	a := common.Action{Kind: common.ActSettle, Key: k, Project: "shop", Outcome: "done"}
	text, err := in.Preview(ctx, a)
	if err != nil || !strings.HasPrefix(text, "first use\n\n") || strings.Contains(text, `"sig"`) {
		t.Fatalf("%v\n%s", err, text)
	}
	if registered != 0 {
		t.Fatal("a preview registered a principal")
	}
	act, err := in.Apply(ctx, a)
	if err != nil || registered != 1 {
		t.Fatalf("%v registered=%d", err, registered)
	}
	if act.Status != "settled" || !strings.HasPrefix(act.SignedBy, "alice SHA256:") {
		t.Fatalf("%+v", act)
	}
}

// An attacker who can write the acts folder plants a settlement signed with
// a key that is not the project's principal. The log does not apply it
// (D19), and the inbox says so, as tp acts list does: before the acts
// session (issue 15) LoadActs dropped it without a word, and the person saw
// only an open act.
func TestInboxReportsForgedSignature(t *testing.T) {
	ctx := context.Background()
	l := recordlog.OpenLog(t.TempDir())
	k := raise(t, l, "shop", "Pay the ACME invoice")
	raise(t, l, "shop", "Renew the domain")
	newSigner := func() ssh.Signer {
		_, priv, _ := ed25519.GenerateKey(rand.Reader)
		s, _ := ssh.NewSignerFromKey(priv)
		return s
	}
	alice, mallory := newSigner(), newSigner()
	pr, err := l.ChangePrincipal("shop", recordlog.PrincipalAdded, "alice", alice.PublicKey(), alice, "ps:test", "2026-11-29T10:00:00Z", "n")
	if err != nil {
		t.Fatal(err)
	}
	in := &Inbox{Session: actsession.New(l, actsession.Options{}), Build: principal}
	st, err := in.state(common.Action{Key: k, Project: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	forged, err := principal(st, common.Action{Kind: common.ActSettle, Key: k, Project: "shop", Outcome: "done"})
	if err != nil {
		t.Fatal(err)
	}
	if err := acts.SignAll(forged, mallory, pr.ProjectID); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WriteAll(forged); err != nil {
		t.Fatal(err)
	}
	list, err := in.LoadActs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list.Acts {
		if a.Key == k && a.Status != "open" {
			t.Fatalf("the forged settlement was applied: %+v", a)
		}
	}
	if len(list.Findings) != 1 || !strings.Contains(list.Findings[0], forged[0].ID) || !strings.Contains(list.Findings[0], "not applied") {
		t.Fatalf("the inbox does not report the forged settlement %s: %q", forged[0].ID, list.Findings)
	}
}

// Marked acts are one batch (issue 17): PreviewAll shows every act's
// records, signed in one pass per project; ApplyAll writes exactly those;
// one act that cannot be settled refuses the batch and names it, nothing
// written.
func TestInboxBatchPreviewIsWhatIsWritten(t *testing.T) {
	ctx := context.Background()
	l := recordlog.OpenLog(t.TempDir())
	k1 := raise(t, l, "shop", "Pay the ACME invoice")
	k2 := raise(t, l, "shop", "Renew the domain")
	k3 := raise(t, l, "yard", "Cut the hedge")
	signs := 0
	in := &Inbox{Session: actsession.New(l, actsession.Options{}), Build: principal,
		Sign: func(project string, rs []acts.Record, register bool) (string, error) { signs++; return "", nil }}
	as := []common.Action{{Kind: common.ActSettle, Key: k1, Project: "shop", Outcome: "done"},
		{Kind: common.ActSettle, Key: k2, Project: "shop", Outcome: "dropped"}, {Kind: common.ActSettle, Key: k3, Project: "yard", Outcome: "done"}}
	text, err := in.PreviewAll(ctx, as)
	if err != nil {
		t.Fatal(err)
	}
	if signs != 2 {
		t.Errorf("the preview signed %d times, want once per project (2)", signs)
	}
	if !strings.Contains(text, "3 of 3: yard "+k3) || strings.Count(text, `"type": "settled"`) != 3 {
		t.Fatalf("preview:\n%s", text)
	}
	got, err := in.ApplyAll(ctx, as)
	if err != nil || len(got) != 3 || got[1].Outcome != "dropped" {
		t.Fatalf("%v %+v", err, got)
	}
	for _, p := range []string{"shop", "yard"} {
		ld, _ := l.Load(p)
		for _, r := range ld.Records {
			if r.Type == acts.TypeSettled && !strings.Contains(text, r.ID) {
				t.Fatalf("written %s was not previewed", r.ID)
			}
		}
	}
	// The undo window: an acts dir that is no git clone may be a synced
	// folder, so the settlement counts as seen: u reopens, never removes.
	info, err := in.UndoInfo(ctx)
	if err != nil || len(info.Acts) != 3 || !info.Seen || info.Acts[0].Kind != common.ActReopen {
		t.Fatalf("undo info %+v %v", info, err)
	}
	if _, err := in.Discard(ctx); err == nil {
		t.Fatal("a settlement that may have been seen was discarded")
	}
	// Settled now: a second batch names them and writes nothing.
	ld, _ := l.Load("shop")
	n := len(ld.Records)
	_, err = in.PreviewAll(ctx, as[:2])
	var be *actsession.BatchError
	if !errors.As(err, &be) || len(be.Problems) != 2 || !strings.Contains(err.Error(), "already settled") {
		t.Fatalf("err = %v", err)
	}
	if _, err := in.ApplyAll(ctx, as[:2]); err == nil {
		t.Fatal("a batch of settled acts was written")
	}
	if ld, _ := l.Load("shop"); len(ld.Records) != n {
		t.Fatal("a refused batch wrote records")
	}
}

// D19-terms: the inbox signs the terms it showed. An agent amends the act
// under the same key after the list was drawn; the person's "done" on what
// they read must not settle the new text: the preview and the write both
// refuse, naming the terms as they read now, and nothing is written.
func TestInboxRefusesTermsAmendedSinceShown(t *testing.T) {
	ctx := context.Background()
	l := recordlog.OpenLog(t.TempDir())
	k := raise(t, l, "shop", "Renew the domain")
	in := &Inbox{Session: actsession.New(l, actsession.Options{}), Build: principal}
	list, err := in.LoadActs(ctx)
	if err != nil || len(list.Acts) != 1 || list.Acts[0].TermsRev != 1 {
		t.Fatalf("%v %+v", err, list)
	}
	shown := list.Acts[0]
	if _, err := l.WriteRecord(acts.Record{PH: "0.3", Ext: "acts/0.3", ID: "a:" + k + ":2", Type: acts.TypeAmended,
		Origin: "requester", By: "registrar", Key: k, Project: "shop", TS: "2026-11-01T11:00:00Z",
		Terms: &acts.Terms{Text: "Wire 1,000,000 USD to account 42"}, TermsRev: 2, Supersedes: []string{acts.RaisedID(k)}}); err != nil {
		t.Fatal(err)
	}
	a := common.Action{Kind: common.ActSettle, Key: k, Project: "shop", Outcome: "done", TermsRev: shown.TermsRev}
	var tre *acts.TermsReadError
	if _, err := in.Preview(ctx, a); !errors.As(err, &tre) || !strings.Contains(err.Error(), "Wire 1,000,000 USD") {
		t.Fatalf("preview of terms not shown: %v", err)
	}
	if _, err := in.Apply(ctx, a); !errors.As(err, &tre) {
		t.Fatalf("apply of terms not shown: %v", err)
	}
	ld, _ := l.Load("shop")
	for _, r := range ld.Records {
		if r.Type == acts.TypeSettled {
			t.Fatalf("settled terms the person never saw: %+v", r)
		}
	}
	// Shown again, the new terms settle.
	a.TermsRev = 2
	if act, err := in.Apply(ctx, a); err != nil || act.Status != "settled" {
		t.Fatalf("%v %+v", err, act)
	}
}
