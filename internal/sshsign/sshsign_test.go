package sshsign

import (
	"encoding/pem"
	"errors"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

func allowedFor(t testing.TB, principal string, s ssh.Signer) *AllowedSigners {
	t.Helper()
	a := ParseAllowedSigners([]byte(Line(principal, "tp-acts", s.PublicKey(), "test") + "\n"))
	if len(a.Problems) > 0 || len(a.Signers) != 1 {
		t.Fatalf("allowed signers: %v", a.Problems)
	}
	return a
}

func TestSignVerify(t *testing.T) {
	alice, mallory := sshtest.Signer(t), sshtest.Signer(t)
	msg := []byte(`{"id": "s:1"}` + "\n")
	sig, err := Sign(alice, "tp-acts", msg)
	if err != nil {
		t.Fatal(err)
	}
	tampered := append([]byte{}, msg...)
	tampered[3] ^= 1
	otherNS, _ := Sign(alice, "git", msg)
	byMallory, _ := Sign(mallory, "tp-acts", msg)
	cases := []struct {
		name    string
		allowed *AllowedSigners
		msg     []byte
		sig     string
		want    string // "" = verifies
	}{
		{"good", allowedFor(t, "alice", alice), msg, sig, ""},
		{"tampered byte", allowedFor(t, "alice", alice), tampered, sig, "does not match"},
		{"wrong key", allowedFor(t, "alice", alice), msg, byMallory, "not a principal"},
		{"removed principal", &AllowedSigners{}, msg, sig, "not a principal"},
		{"other namespace", allowedFor(t, "alice", alice), msg, otherNS, "namespace"},
		{"not a signature", allowedFor(t, "alice", alice), msg, "hello", "unreadable"},
		{"trailing text", allowedFor(t, "alice", alice), msg, sig + "x", "unreadable"},
		{"empty", allowedFor(t, "alice", alice), msg, "", "unreadable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Verify(c.allowed, "tp-acts", c.msg, c.sig)
			if c.want == "" {
				if err != nil {
					t.Fatalf("want verified, got %v", err)
				}
				if got.Principal != "alice" || got.Fingerprint != Fingerprint(alice.PublicKey()) {
					t.Fatalf("signed = %+v", got)
				}
				return
			}
			var ve *VerifyError
			if err == nil || !errors.As(err, &ve) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want a VerifyError containing %q, got %v", c.want, err)
			}
		})
	}
}

// A line limited to another namespace does not admit tp-acts.
func TestAllowedNamespaces(t *testing.T) {
	s := sshtest.Signer(t)
	key := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.PublicKey())))
	a := ParseAllowedSigners([]byte(`alice namespaces="git,file" ` + key + "\n"))
	if a.Find(s.PublicKey(), "tp-acts") != nil || a.Find(s.PublicKey(), "git") == nil {
		t.Fatal("namespaces option not honoured")
	}
	b := ParseAllowedSigners([]byte("alice,bob " + key + "\n"))
	if f := b.Find(s.PublicKey(), "tp-acts"); f == nil || f.Principals[1] != "bob" {
		t.Fatal("a line without namespaces admits every namespace")
	}
}

func TestParseAllowedSignersProblems(t *testing.T) {
	s := sshtest.Signer(t)
	key := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.PublicKey())))
	cases := map[string]string{
		"alice":                                   "no key",
		"alice ssh-ed25519 AAAA":                  "no readable public key",
		`alice cert-authority ` + key:             "not supported",
		`alice valid-after="20200101" ` + key:     "not supported",
		`"alice ` + key:                           "unterminated",
		`alice,,bob ` + key:                       "empty principal",
		"alice " + key + "\nbob " + key + " # ok": "",
	}
	for in, want := range cases {
		a := ParseAllowedSigners([]byte("# comment\n\n" + in))
		if want == "" {
			if len(a.Problems) != 0 || len(a.Signers) != 2 {
				t.Errorf("%q: problems %v, %d signers", in, a.Problems, len(a.Signers))
			}
			continue
		}
		if len(a.Problems) != 1 || !strings.Contains(a.Problems[0], want) || len(a.Signers) != 0 {
			t.Errorf("%q: want one problem with %q, got %v (%d signers)", in, want, a.Problems, len(a.Signers))
		}
	}
}

func TestParseStrict(t *testing.T) {
	s := sshtest.Signer(t)
	sig, err := Sign(s, "tp-acts", []byte("m"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(sig); err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode([]byte(sig))
	withHeader := string(pem.EncodeToMemory(&pem.Block{Type: blk.Type, Headers: map[string]string{"A": "b"}, Bytes: blk.Bytes}))
	other := string(pem.EncodeToMemory(&pem.Block{Type: "OPENSSH PRIVATE KEY", Bytes: blk.Bytes}))
	for name, bad := range map[string]string{
		"headers":    withHeader,
		"other type": other,
		"two blocks": sig + sig,
		"prefix":     "x" + sig,
		"huge":       strings.Repeat(" ", MaxArmored+1),
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// ssh-keygen -Y verify accepts what Sign writes, with a Line-made
// allowed_signers file; and Verify accepts what ssh-keygen -Y sign writes.
func TestSSHKeygenInterop(t *testing.T) {
	kg, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen not installed")
	}
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "id_ed25519")
	if out, err := exec.Command(kg, "-q", "-t", "ed25519", "-N", "", "-C", "alice@test", "-f", keyPath).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
	priv, _ := os.ReadFile(keyPath)
	signer, err := ssh.ParsePrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	allowedPath := filepath.Join(dir, "allowed_signers")
	os.WriteFile(allowedPath, []byte(Line("alice", "tp-acts", signer.PublicKey(), "")+"\n"), 0o644)
	msg := []byte("{\n  \"id\": \"s:1\"\n}\n")
	msgPath := filepath.Join(dir, "msg")
	os.WriteFile(msgPath, msg, 0o644)

	sig, err := Sign(signer, "tp-acts", msg)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(msgPath+".sig", []byte(sig), 0o644)
	verify := func(path string) ([]byte, error) {
		c := exec.Command(kg, "-Y", "verify", "-f", allowedPath, "-I", "alice", "-n", "tp-acts", "-s", path)
		c.Stdin = strings.NewReader(string(msg))
		return c.CombinedOutput()
	}
	if out, err := verify(msgPath + ".sig"); err != nil {
		t.Fatalf("ssh-keygen -Y verify refused tp's signature: %v: %s", err, out)
	}
	// A tampered message fails there too (the check above can fail).
	c := exec.Command(kg, "-Y", "verify", "-f", allowedPath, "-I", "alice", "-n", "tp-acts", "-s", msgPath+".sig")
	c.Stdin = strings.NewReader(string(msg) + " ")
	if err := c.Run(); err == nil {
		t.Fatal("ssh-keygen verified a tampered message")
	}

	// The other way round.
	if out, err := exec.Command(kg, "-Y", "sign", "-f", keyPath, "-n", "tp-acts", msgPath).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v: %s", err, out)
	}
	theirs, _ := os.ReadFile(msgPath + ".sig")
	a, _ := os.ReadFile(allowedPath)
	got, err := Verify(ParseAllowedSigners(a), "tp-acts", msg, string(theirs))
	if err != nil || got.Principal != "alice" {
		t.Fatalf("Verify of ssh-keygen's signature: %+v %v", got, err)
	}
}

func FuzzParse(f *testing.F) {
	s := sshtest.Signer(f)
	sig, _ := Sign(s, "tp-acts", []byte("m"))
	f.Add(sig)
	f.Add("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Parse(in)
		if err == nil && (got == nil || got.PublicKey == nil || got.Signature == nil) {
			t.Fatal("parsed without a key or signature")
		}
		// Verify never panics on any input and never verifies garbage
		// against an empty allowed list.
		if _, err := Verify(&AllowedSigners{}, "tp-acts", []byte("m"), in); err == nil {
			t.Fatal("verified against no principals")
		}
	})
}

func FuzzParseAllowedSigners(f *testing.F) {
	s := sshtest.Signer(f)
	f.Add(Line("alice", "tp-acts", s.PublicKey(), "c"))
	f.Add(`"a b" namespaces="x,y" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE`)
	f.Fuzz(func(t *testing.T, in string) {
		a := ParseAllowedSigners([]byte(in))
		for _, sg := range a.Signers {
			if sg.Key == nil || len(sg.Principals) == 0 {
				t.Fatal("a trusted line without key or principal")
			}
		}
	})
}
