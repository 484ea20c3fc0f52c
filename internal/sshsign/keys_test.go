package sshsign

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// writeKey writes a new ed25519 private key (with passphrase when given)
// and its .pub, and returns the path and public key.
func writeKey(t *testing.T, dir, name, pass string) (string, ed25519.PrivateKey, ssh.PublicKey) {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	var blk *pem.Block
	var err error
	if pass == "" {
		blk, err = ssh.MarshalPrivateKey(priv, "")
	} else {
		blk, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte(pass))
	}
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(p), 0o700)
	if err := os.WriteFile(p, pem.EncodeToMemory(blk), 0o600); err != nil {
		t.Fatal(err)
	}
	pub, _ := ssh.NewPublicKey(priv.Public())
	os.WriteFile(p+".pub", ssh.MarshalAuthorizedKey(pub), 0o644)
	return p, priv, pub
}

// serveAgent runs an in-memory ssh-agent holding keys on a unix socket.
func serveAgent(t *testing.T, keys ...ed25519.PrivateKey) string {
	t.Helper()
	kr := agent.NewKeyring()
	for _, k := range keys {
		if err := kr.Add(agent.AddedKey{PrivateKey: k}); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go agent.ServeAgent(kr, c)
		}
	}()
	return sock
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func same(a, b ssh.PublicKey) bool { return string(a.Marshal()) == string(b.Marshal()) }

func TestFindOrder(t *testing.T) {
	home := t.TempDir()
	_, _, defPub := writeKey(t, home, ".ssh/id_ed25519", "")
	flagPath, _, flagPub := writeKey(t, t.TempDir(), "flag", "")
	envPath, _, envPub := writeKey(t, t.TempDir(), "env", "")
	gitPath, _, gitPub := writeKey(t, t.TempDir(), "git", "")
	git := func() (string, string) { return gitPath, "ssh" }
	cases := []struct {
		name string
		l    Lookup
		want ssh.PublicKey
	}{
		{"flag first", Lookup{Flag: flagPath, Getenv: env(map[string]string{"TP_SIGNING_KEY": envPath}), GitSigningKey: git, Home: home}, flagPub},
		{"then env", Lookup{Getenv: env(map[string]string{"TP_SIGNING_KEY": envPath}), GitSigningKey: git, Home: home}, envPub},
		{"then git", Lookup{Getenv: env(nil), GitSigningKey: git, Home: home}, gitPub},
		{"git key that is not ssh is skipped", Lookup{Getenv: env(nil), GitSigningKey: func() (string, string) { return "ABCDEF0123", "" }, Home: home}, defPub},
		{"then ~/.ssh/id_ed25519", Lookup{Getenv: env(nil), Home: home}, defPub},
	}
	for _, c := range cases {
		f, err := c.l.Find()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !same(f.Signer.PublicKey(), c.want) {
			t.Errorf("%s: got the key from %s", c.name, f.From)
		}
	}
}

func TestFindNoKey(t *testing.T) {
	_, err := Lookup{Getenv: env(nil), Home: t.TempDir()}.Find()
	if !errors.Is(err, ErrNoKey) {
		t.Fatalf("want ErrNoKey, got %v", err)
	}
	// A named key that is missing is an error about that key, not ErrNoKey.
	_, err = Lookup{Flag: filepath.Join(t.TempDir(), "missing"), Getenv: env(nil)}.Find()
	if err == nil || errors.Is(err, ErrNoKey) || !strings.Contains(err.Error(), "--signing-key") {
		t.Fatalf("got %v", err)
	}
}

func TestFindThroughAgent(t *testing.T) {
	dir := t.TempDir()
	locked, lockedPriv, lockedPub := writeKey(t, dir, "locked", "secret")
	_, otherPriv, otherPub := writeKey(t, dir, "other", "")

	// Passphrase-protected and no agent: a clear error naming ssh-add.
	_, err := Lookup{Flag: locked, Getenv: env(nil)}.Find()
	if err == nil || !strings.Contains(err.Error(), "ssh-add") {
		t.Fatalf("got %v", err)
	}
	sock := serveAgent(t, otherPriv, lockedPriv)
	e := env(map[string]string{"SSH_AUTH_SOCK": sock})
	for name, spec := range map[string]string{
		"protected file": locked,
		"public file":    locked + ".pub",
		"key:: literal":  "key::" + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(lockedPub))),
	} {
		f, err := Lookup{Flag: spec, Getenv: e}.Find()
		if err != nil || !same(f.Signer.PublicKey(), lockedPub) {
			t.Fatalf("%s: %v", name, err)
		}
		sig, err := Sign(f.Signer, "tp-acts", []byte("m"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Verify(allowedFor(t, "a", f.Signer), "tp-acts", []byte("m"), sig); err != nil {
			t.Fatalf("%s: agent signature does not verify: %v", name, err)
		}
	}
	// Nothing named: the agent key Prefer picks; two keys and no
	// preference is an error.
	f, err := Lookup{Getenv: e, Home: t.TempDir(), Prefer: func(k ssh.PublicKey) bool { return same(k, otherPub) }}.Find()
	if err != nil || !same(f.Signer.PublicKey(), otherPub) || f.From != "ssh-agent" {
		t.Fatalf("prefer: %v", err)
	}
	if _, err := (Lookup{Getenv: e, Home: t.TempDir()}).Find(); !errors.Is(err, ErrNoKey) {
		t.Fatalf("two agent keys, none named: %v", err)
	}
}
