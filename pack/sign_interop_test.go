package pack

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/internal/sshsign"
)

// ssh-keygen -Y verify -n taskpack accepts a tp pack signature over the
// documented signed bytes (D22: ContentIdentity), and refuses them once a
// luggage byte changed; tp reads a pack whose signature ssh-keygen -Y sign
// made over those bytes. Skipped where ssh-keygen is missing.
func TestSignatureSSHKeygenInterop(t *testing.T) {
	kg, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen not installed")
	}
	dir := t.TempDir()
	key := filepath.Join(dir, "id_ed25519")
	if out, err := exec.Command(kg, "-q", "-t", "ed25519", "-N", "", "-C", "alice@test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
	b, _ := os.ReadFile(key)
	signer, err := ssh.ParsePrivateKey(b)
	if err != nil {
		t.Fatal(err)
	}
	allowed := filepath.Join(dir, "allowed_signers")
	os.WriteFile(allowed, []byte(sshsign.Line("alice", SignatureNamespace, signer.PublicKey(), "")+"\n"), 0o644)
	for _, enc := range []Encoding{EncodingBag, EncodingFlat} {
		path := writeSigned(t, signer, enc)
		p, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		msg := ContentIdentity(p.Raw, p.Luggage)
		sigFile := filepath.Join(dir, "pack.sig")
		os.WriteFile(sigFile, []byte(p.Signature.Armored), 0o644)
		p.Close()
		verify := func(m []byte) ([]byte, error) {
			cmd := exec.Command(kg, "-Y", "verify", "-f", allowed, "-I", "alice", "-n", SignatureNamespace, "-s", sigFile)
			cmd.Stdin = bytes.NewReader(m)
			return cmd.CombinedOutput()
		}
		if out, err := verify(msg); err != nil {
			t.Fatalf("%s: ssh-keygen -Y verify refused tp's signature: %v: %s", enc, err, out)
		}
		changed := bytes.Replace(msg, []byte(" 22\n"), []byte(" 23\n"), 1)
		if bytes.Equal(changed, msg) {
			t.Fatalf("test did not change the signed bytes:\n%s", msg)
		}
		if out, err := verify(changed); err == nil {
			t.Fatalf("%s: ssh-keygen verified changed bytes: %s", enc, out)
		}
	}

	// ssh-keygen signs the identity; the pack carrying that signature opens
	// as signed by alice's key.
	raw := packtest.BagOf(t, packtest.RefObject(t))
	path := packtest.WriteTemp(t, "plain.taskpack", raw)
	p, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	msg := ContentIdentity(p.Raw, p.Luggage)
	p.Close()
	msgFile := filepath.Join(dir, "identity")
	os.WriteFile(msgFile, msg, 0o644)
	if out, err := exec.Command(kg, "-Y", "sign", "-f", key, "-n", SignatureNamespace, msgFile).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v: %s", err, out)
	}
	sig, _ := os.ReadFile(msgFile + ".sig")
	signed := rezip(t, path, func(files map[string][]byte) { files[TagSignature] = sig })
	q, err := Open(signed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if q.Signature == nil || q.Signature.Fingerprint != sshsign.Fingerprint(signer.PublicKey()) {
		t.Fatalf("ssh-keygen's signature read as %+v", q.Signature)
	}
	if !strings.HasPrefix(string(sig), "-----BEGIN SSH SIGNATURE-----") {
		t.Fatalf("ssh-keygen wrote %q", sig)
	}
}
