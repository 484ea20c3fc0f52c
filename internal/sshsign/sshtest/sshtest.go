// Package sshtest makes SSH keys for tests: one fresh ed25519 signer, the
// key every signing test (packs, settlements, principals) starts from, and
// the same key written to files as ssh-keygen writes them.
package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
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

// WriteKeyFile writes a new unencrypted ed25519 key at path in OpenSSH's
// format (0600, its folder made) and its .pub beside it, as
// `ssh-keygen -t ed25519 -N "" -C comment` would, and returns its signer.
func WriteKeyFile(path, comment string) (ssh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	blk, err := ssh.MarshalPrivateKey(priv, comment)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(blk), 0o600); err != nil {
		return nil, err
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	pub := AuthorizedKey(s)
	if comment != "" {
		pub += " " + comment
	}
	return s, os.WriteFile(path+".pub", []byte(pub+"\n"), 0o644)
}

// KeyFile is WriteKeyFile that fails t.
func KeyFile(t testing.TB, path, comment string) ssh.Signer {
	t.Helper()
	s, err := WriteKeyFile(path, comment)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// AuthorizedKey is s's public key as one authorized_keys line, no comment.
func AuthorizedKey(s ssh.Signer) string {
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.PublicKey())))
}
