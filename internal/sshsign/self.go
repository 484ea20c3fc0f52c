package sshsign

import (
	"bytes"
	"fmt"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// VerifyAny checks an armored signature over msg against the key the
// signature itself names: it must parse (strictly, as Parse), be made for
// namespace, and verify. It says that the holder of that key signed these
// bytes, and nothing about whether the key is trusted: that is the caller's
// question (D22). Every failure is a *VerifyError.
func VerifyAny(namespace string, msg []byte, armored string) (ssh.PublicKey, error) {
	sig, err := Parse(armored)
	if err != nil {
		return nil, &VerifyError{Reason: "unreadable signature: " + err.Error()}
	}
	fp := Fingerprint(sig.PublicKey)
	if sig.Namespace != namespace {
		return nil, &VerifyError{Reason: fmt.Sprintf("signature made for namespace %q, not %q", sig.Namespace, namespace), Fingerprint: fp}
	}
	if _, isCert := sig.PublicKey.(*ssh.Certificate); isCert {
		return nil, &VerifyError{Reason: "signed with a certificate, which tp does not support", Fingerprint: fp}
	}
	if err := sshsig.Verify(bytes.NewReader(msg), sig, sig.PublicKey, sig.HashAlgorithm, namespace); err != nil {
		return nil, &VerifyError{Reason: fmt.Sprintf("signature by %s does not match the signed bytes (%v)", fp, err), Fingerprint: fp, Mismatch: true}
	}
	return sig.PublicKey, nil
}
