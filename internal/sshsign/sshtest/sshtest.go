// Package sshtest makes SSH keys for tests: one fresh ed25519 signer, the
// key every signing test (packs, settlements, principals) starts from.
package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"testing"

	"golang.org/x/crypto/ssh"
)

// Signer is a fresh ed25519 SSH signer; it fails t if one cannot be made.
func Signer(t testing.TB) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
