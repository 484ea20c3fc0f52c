package landing

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/pack"
)

func sshKeyPair(t *testing.T) (ssh.Signer, string) {
	t.Helper()
	s := sshtest.Signer(t)
	return s, sshtest.AuthorizedKey(s)
}

// signedReceipt writes receiptFrom's receipt as a flat pack, signed by s
// (nil: unsigned).
func signedReceipt(t *testing.T, s ssh.Signer, p string, v int, answer string) *pack.Pack {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.taskpack.json")
	var opts pack.WriteOptions
	if s != nil {
		opts.Sign = func(msg []byte) (string, error) { return sshsign.Sign(s, pack.SignatureNamespace, msg) }
	}
	obj := mustParse(t, receiptFrom(p, v, "bob", "b-box", answer, "bob@b-box"))
	if err := pack.Write(out, pack.Source{Object: obj}, pack.EncodingFlat, opts); err != nil {
		t.Fatal(err)
	}
	return openPack(t, out)
}

// TestReceiptCheckedAgainstTheKeyTheHandoffWentTo (issue 19, D22): a
// handoff sealed --to bob's SSH key, or answered once by a receipt signed
// with key K, expects its receipts signed by that key. Mallory signing a
// receipt for bob's handoff, or an unsigned one, is refused unless --into
// names the target (then warned); bob's own passes, and a first signed
// receipt pins its key.
func TestReceiptCheckedAgainstTheKeyTheHandoffWentTo(t *testing.T) {
	bob, bobPub := sshKeyPair(t)
	mallory, _ := sshKeyPair(t)
	sealedToBob := func(t *testing.T) (*store.Store, string, int) {
		st := testStore(t)
		p := askingPassport(t, st)
		out := filepath.Join(t.TempDir(), "h.taskpack")
		rep, err := Pack(context.Background(), st, PackRequest{ID: p, Out: out, Encoding: pack.EncodingBag,
			Build: BuildOptions{Actor: "maria", Machine: "home"}, SealedTo: []string{bobPub, "age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqsq5p8yr"}})
		if err != nil {
			t.Fatal(err)
		}
		return st, p, int(rep.Version)
	}
	unsealed := func(t *testing.T) (*store.Store, string) {
		st := testStore(t)
		p := askingPassport(t, st)
		sentFrom(t, st, p, 1)
		return st, p
	}
	refused := func(t *testing.T, err error, what string) {
		t.Helper()
		var pe *pack.Error
		if !errors.As(err, &pe) || pe.Rule != RuleReceiptKey || !strings.Contains(pe.Detail, what) || !strings.Contains(pe.Detail, "--into") {
			t.Fatalf("err = %v, want %s saying %q and naming --into", err, RuleReceiptKey, what)
		}
	}
	env := envOn("home", "maria")
	t.Run("sealed to bob, mallory signs", func(t *testing.T) {
		st, p, v := sealedToBob(t)
		_, err := PlanMerge(context.Background(), signedReceipt(t, mallory, p, v, "x.csv"), st, "", env)
		refused(t, err, "signed by "+sshsign.Fingerprint(mallory.PublicKey()))
	})
	t.Run("sealed to bob, unsigned", func(t *testing.T) {
		st, p, v := sealedToBob(t)
		_, err := PlanMerge(context.Background(), signedReceipt(t, nil, p, v, "x.csv"), st, "", env)
		refused(t, err, "unsigned")
	})
	t.Run("sealed to bob, mallory signs, --into names it", func(t *testing.T) {
		st, p, v := sealedToBob(t)
		pl, err := PlanMerge(context.Background(), signedReceipt(t, mallory, p, v, "x.csv"), st, p, env)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(pl.Warnings, "\n"), "not the key this handoff went to") {
			t.Fatalf("no warning: %q", pl.Warnings)
		}
	})
	t.Run("sealed to bob, bob signs (near miss)", func(t *testing.T) {
		st, p, v := sealedToBob(t)
		pk := signedReceipt(t, bob, p, v, "x.csv")
		pl, err := PlanMerge(context.Background(), pk, st, "", env)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Merge(context.Background(), pk, pl, st, Decisions{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("first signed receipt pins its key", func(t *testing.T) {
		st, p := unsealed(t)
		pk := signedReceipt(t, bob, p, 1, "first.csv")
		pl, err := PlanMerge(context.Background(), pk, st, "", env)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Merge(context.Background(), pk, pl, st, Decisions{}); err != nil {
			t.Fatal(err)
		}
		_, err = PlanMerge(context.Background(), signedReceipt(t, mallory, p, 1, "second.csv"), st, "", env)
		refused(t, err, "signed by "+sshsign.Fingerprint(mallory.PublicKey()))
		_, err = PlanMerge(context.Background(), signedReceipt(t, nil, p, 1, "third.csv"), st, "", env)
		refused(t, err, "unsigned")
		if _, err := PlanMerge(context.Background(), signedReceipt(t, bob, p, 1, "fourth.csv"), st, "", env); err != nil {
			t.Fatalf("bob's second receipt: %v", err)
		}
	})
	t.Run("nothing recorded, unsigned (near miss)", func(t *testing.T) {
		st, p := unsealed(t)
		if _, err := PlanMerge(context.Background(), signedReceipt(t, nil, p, 1, "x.csv"), st, "", env); err != nil {
			t.Fatal(err)
		}
	})
}
