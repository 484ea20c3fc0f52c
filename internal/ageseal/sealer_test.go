package ageseal

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"filippo.io/age"
	"filippo.io/age/armor"

	"github.com/tp-dev/tp/internal/sealed"
)

// TestSniffIsAges: tp tells a sealed file without linking age (D26), so the
// header it looks for must be age's own.
func TestSniffIsAges(t *testing.T) {
	if sealed.ArmorHeader != armor.Header {
		t.Fatalf("sealed.ArmorHeader %q, age's armour header %q", sealed.ArmorHeader, armor.Header)
	}
	var bin, arm bytes.Buffer
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	r := Recipient{R: id.Recipient(), Text: id.Recipient().String()}
	for _, c := range []struct {
		out     *bytes.Buffer
		armored bool
	}{{&bin, false}, {&arm, true}} {
		if err := Encrypt(c.out, bytes.NewReader([]byte("pack")), []Recipient{r}, c.armored); err != nil {
			t.Fatal(err)
		}
		if !sealed.IsSealed(c.out.Bytes()) {
			t.Errorf("armored=%v: age's output not recognised: %q", c.armored, c.out.Bytes()[:40])
		}
	}
	if sealed.IsSealed([]byte("PK\x03\x04")) || sealed.IsSealed([]byte(`{"spec":`)) {
		t.Error("a plain pack recognised as sealed")
	}
}

// TestSealerRoundTrip: what the command line gets through the Sealer seals
// and opens as the package's own functions do, and refuses values it did
// not make.
func TestSealerRoundTrip(t *testing.T) {
	var s sealed.Sealer = Sealer{}
	dir := t.TempDir()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	idFile := filepath.Join(dir, "key.txt")
	if err := os.WriteFile(idFile, []byte(id.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := s.ParseRecipient(id.Recipient().String())
	if err != nil || r.Text != id.Recipient().String() {
		t.Fatalf("ParseRecipient: %+v, %v", r, err)
	}
	rs, _, err := s.ParseRecipientsFile("keys", []byte("# mine\n"+id.Recipient().String()+"\n"))
	if err != nil || len(rs) != 1 {
		t.Fatalf("ParseRecipientsFile: %+v, %v", rs, err)
	}
	var buf bytes.Buffer
	if err := s.Encrypt(&buf, bytes.NewReader([]byte("the pack")), rs, false); err != nil {
		t.Fatal(err)
	}
	sealedPath := filepath.Join(dir, "p.taskpack.age")
	if err := os.WriteFile(sealedPath, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ids, err := s.FindIdentities(idFile, func(string) string { return "" }, "")
	if err != nil || len(ids.From) != 1 {
		t.Fatalf("FindIdentities: %+v, %v", ids, err)
	}
	plain, cleanup, err := s.Open(sealedPath, ids, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if b, err := os.ReadFile(plain); err != nil || string(b) != "the pack" {
		t.Fatalf("opened %q, %v", b, err)
	}
	if _, err := s.FindIdentities("", func(string) string { return "" }, t.TempDir()); err != sealed.ErrNoIdentity {
		t.Errorf("no keys: %v, want sealed.ErrNoIdentity", err)
	}
	if err := s.Encrypt(&buf, bytes.NewReader(nil), []sealed.Recipient{{Text: "x", Key: "not a recipient"}}, false); err == nil {
		t.Error("a recipient the Sealer did not read was used")
	}
	if _, _, err := s.Open(sealedPath, sealed.Identities{Keys: "not keys"}, 1<<20); err == nil {
		t.Error("identities the Sealer did not find were used")
	}
}
