// Package sshsign signs and verifies messages in OpenSSH's SSHSIG format
// (PROTOCOL.sshsig) and reads OpenSSH's allowed_signers files, the pieces
// Acts 0.3 §10's "only the principal settles" is built from
// (D19). The cryptography is golang.org/x/crypto/ssh and github.com/hiddeco/sshsig;
// this package only chooses the formats strictly and looks keys up.
package sshsign

import (
	"bytes"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// Hash is the message hash OpenSSH's ssh-keygen -Y sign uses by default.
const Hash = sshsig.HashSHA512

// MaxArmored bounds an armored signature: the largest common keys (RSA
// 16384 bits) sign in well under 8 KiB.
const MaxArmored = 16 << 10

// Sign returns the armored SSHSIG of msg under namespace, as
// `ssh-keygen -Y sign -n namespace` writes it.
func Sign(signer ssh.Signer, namespace string, msg []byte) (string, error) {
	sig, err := sshsig.SignWithRand(bytes.NewReader(msg), rand.Reader, signer, Hash, namespace)
	if err != nil {
		return "", fmt.Errorf("signing with %s key %s: %w", signer.PublicKey().Type(), Fingerprint(signer.PublicKey()), err)
	}
	return string(sshsig.Armor(sig)), nil
}

// Parse reads an armored signature strictly: exactly one "SSH SIGNATURE"
// PEM block, no headers, nothing but whitespace around it, version 1 and a
// hash algorithm OpenSSH defines. It is the parser of untrusted signatures;
// it never verifies anything.
func Parse(armored string) (*sshsig.Signature, error) {
	if len(armored) > MaxArmored {
		return nil, fmt.Errorf("signature longer than %d bytes", MaxArmored)
	}
	b := []byte(armored)
	if !bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("-----BEGIN "+sshsig.PEMType+"-----")) {
		return nil, errors.New("not an armored SSH signature (no -----BEGIN SSH SIGNATURE----- line)")
	}
	blk, rest := pem.Decode(b)
	if blk == nil {
		return nil, errors.New("armored SSH signature does not decode")
	}
	if blk.Type != sshsig.PEMType {
		return nil, fmt.Errorf("armored block is %q, not %q", blk.Type, sshsig.PEMType)
	}
	if len(blk.Headers) > 0 {
		return nil, errors.New("armored SSH signature has PEM headers")
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, errors.New("text after the armored SSH signature")
	}
	sig, err := sshsig.ParseSignature(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("SSH signature: %w", err)
	}
	return sig, nil
}

// Signed is what a verified signature says about its signer.
type Signed struct {
	Principal   string // the first principal of the allowed_signers line
	Fingerprint string // SHA256:… of the signing key
	KeyType     string
}

// VerifyError says why a signature did not verify.
type VerifyError struct {
	Reason      string
	Fingerprint string // the key the signature names, when it parsed
	// Mismatch is set when the signature was readable and made for the
	// namespace, but the bytes are not the ones it signed.
	Mismatch bool
}

func (e *VerifyError) Error() string { return e.Reason }

// Verify checks an armored signature over msg: it must parse, be made for
// namespace, by a key that allowed lists for namespace, and verify. It
// returns the allowed signer; every failure is a *VerifyError.
func Verify(allowed *AllowedSigners, namespace string, msg []byte, armored string) (Signed, error) {
	sig, err := Parse(armored)
	if err != nil {
		return Signed{}, &VerifyError{Reason: "unreadable signature: " + err.Error()}
	}
	fp := Fingerprint(sig.PublicKey)
	if sig.Namespace != namespace {
		return Signed{}, &VerifyError{Reason: fmt.Sprintf("signature made for namespace %q, not %q", sig.Namespace, namespace), Fingerprint: fp}
	}
	as := allowed.Find(sig.PublicKey, namespace)
	if as == nil {
		return Signed{}, &VerifyError{Reason: fmt.Sprintf("signed by key %s, which is not a principal here", fp), Fingerprint: fp}
	}
	if err := sshsig.Verify(bytes.NewReader(msg), sig, as.Key, sig.HashAlgorithm, namespace); err != nil {
		return Signed{}, &VerifyError{Reason: fmt.Sprintf("signature by %s does not match the record's bytes (%v)", fp, err), Fingerprint: fp}
	}
	return Signed{Principal: as.Principals[0], Fingerprint: fp, KeyType: as.Key.Type()}, nil
}

// SignerOf returns the key an armored signature names, without verifying
// it (to say who claims to have signed a record that failed).
func SignerOf(armored string) (ssh.PublicKey, error) {
	sig, err := Parse(armored)
	if err != nil {
		return nil, err
	}
	return sig.PublicKey, nil
}

// Fingerprint is the key's SHA256 fingerprint as ssh-keygen -l prints it.
func Fingerprint(k ssh.PublicKey) string { return ssh.FingerprintSHA256(k) }
