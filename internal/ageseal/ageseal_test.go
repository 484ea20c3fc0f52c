package ageseal

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"
	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

func sshKey(t testing.TB, dir string) (privPath, pubLine string) {
	t.Helper()
	privPath = filepath.Join(dir, "id_ed25519")
	s := sshtest.KeyFile(t, privPath, "")
	return privPath, sshtest.AuthorizedKey(s) + " someone@host"
}

func seal(t testing.TB, data []byte, armored bool, rs ...Recipient) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Encrypt(&buf, bytes.NewReader(data), rs, armored); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "x.taskpack.age")
	os.WriteFile(p, buf.Bytes(), 0o644)
	return p
}

// Sealed for an SSH key or an age key, binary or armoured, the receiver's
// key opens it byte for byte and nobody else's does; a changed byte or a
// cut stream is refused; more than the limit is refused.
func TestSealOpen(t *testing.T) {
	dir := t.TempDir()
	keyPath, pubLine := sshKey(t, dir)
	sshR, err := ParseRecipient(pubLine)
	if err != nil {
		t.Fatal(err)
	}
	ageID, _ := age.GenerateX25519Identity()
	ageR, err := ParseRecipient(ageID.Recipient().String())
	if err != nil {
		t.Fatal(err)
	}
	idFile := filepath.Join(dir, "key.txt")
	os.WriteFile(idFile, []byte("# created: now\n"+ageID.String()+"\n"), 0o600)
	_, otherPub := sshKey(t, t.TempDir())
	otherR, _ := ParseRecipient(otherPub)
	data := bytes.Repeat([]byte("pack bytes "), 20000)

	for _, c := range []struct {
		name    string
		r       Recipient
		idPath  string
		armored bool
	}{
		{"ssh binary", sshR, keyPath, false},
		{"ssh armoured", sshR, keyPath, true},
		{"age binary", ageR, idFile, false},
		{"age armoured", ageR, idFile, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := seal(t, data, c.armored, c.r)
			if !IsSealedFile(path) {
				t.Fatal("not recognised as sealed")
			}
			ids, err := LoadIdentity(c.idPath)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if _, err := Decrypt(&out, path, ids, int64(len(data))); err != nil || !bytes.Equal(out.Bytes(), data) {
				t.Fatalf("open: %v (%d bytes back)", err, out.Len())
			}
			if _, err := Decrypt(&bytes.Buffer{}, path, ids, int64(len(data))-1); err == nil || !strings.Contains(err.Error(), "more than") {
				t.Fatalf("past the limit: %v", err)
			}
			// nobody else's key
			other := seal(t, data, c.armored, otherR)
			if _, err := Decrypt(&bytes.Buffer{}, other, ids, 1<<30); err == nil || !strings.Contains(err.Error(), "someone else") {
				t.Fatalf("someone else's pack: %v", err)
			}
			if c.armored {
				return
			}
			b, _ := os.ReadFile(path)
			for _, cut := range []struct {
				name string
				b    []byte
			}{
				{"a changed byte", append(append([]byte{}, b[:len(b)-100]...), append([]byte{b[len(b)-100] ^ 1}, b[len(b)-99:]...)...)},
				{"cut short", b[:len(b)-10]},
			} {
				p := filepath.Join(t.TempDir(), "y.age")
				os.WriteFile(p, cut.b, 0o644)
				if _, err := Decrypt(&bytes.Buffer{}, p, ids, 1<<30); err == nil {
					t.Fatalf("%s: opened", cut.name)
				}
			}
		})
	}
}

// Open writes the plain pack into a private folder and removes it.
func TestOpenCleansUp(t *testing.T) {
	dir := t.TempDir()
	keyPath, pubLine := sshKey(t, dir)
	r, _ := ParseRecipient(pubLine)
	path := seal(t, []byte("hello"), false, r)
	ids, _ := LoadIdentity(keyPath)
	plain, cleanup, err := Open(path, ids, 100)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Dir(plain))
	if err != nil || st.Mode().Perm() != 0o700 || filepath.Base(plain) != "x.taskpack" {
		t.Fatalf("plain copy at %s, folder %v %v", plain, st.Mode(), err)
	}
	cleanup()
	if _, err := os.Stat(plain); err == nil {
		t.Fatal("the plain copy outlived cleanup")
	}
}

func TestParseRecipients(t *testing.T) {
	_, pub := sshKey(t, t.TempDir())
	ageID, _ := age.GenerateX25519Identity()
	file := "# keys\n" + pub + "\n\necdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg= x\n" + ageID.Recipient().String() + "\n"
	rs, skipped, err := ParseRecipientsFile("keys", []byte(file))
	if err != nil || len(rs) != 2 || len(skipped) != 1 || !strings.Contains(skipped[0], "line 4") {
		t.Fatalf("recipients %d, skipped %v, err %v", len(rs), skipped, err)
	}
	for _, bad := range []string{"", "hello", ageID.String(), "ssh-ed25519 AAAA", "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg="} {
		if _, err := ParseRecipient(bad); err == nil {
			t.Errorf("%q taken as a recipient", bad)
		}
	}
	if _, _, err := ParseRecipientsFile("k", []byte("# nothing\n")); err == nil {
		t.Error("a file without recipients was taken")
	}
	if _, _, err := ParseRecipientsFile("k", []byte("junk line\n")); err == nil || !strings.Contains(err.Error(), "k line 1") {
		t.Errorf("junk: %v", err)
	}
}

func TestIdentitiesOrder(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	def, _ := sshKey(t, filepath.Join(home, ".ssh"))
	_ = def
	if _, from, err := (Identities{Getenv: func(string) string { return "" }, Home: home}).Find(); err != nil || len(from) != 1 {
		t.Fatalf("default key: %v %v", from, err)
	}
	if _, _, err := (Identities{Getenv: func(string) string { return "" }, Home: t.TempDir()}).Find(); err != ErrNoIdentity {
		t.Fatalf("no key: %v", err)
	}
	// A named identity that cannot be used is an error, not a reason to
	// try the default key.
	bad := filepath.Join(t.TempDir(), "bad")
	os.WriteFile(bad, []byte("nope\n"), 0o600)
	env := func(k string) string {
		if k == "TP_AGE_IDENTITY" {
			return bad
		}
		return ""
	}
	if _, _, err := (Identities{Getenv: env, Home: home}).Find(); err == nil || !strings.Contains(err.Error(), "$TP_AGE_IDENTITY") {
		t.Fatalf("bad env identity: %v", err)
	}
	// A passphrase-protected SSH key is explained, not silently skipped.
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	blk, _ := ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte("pw"))
	locked := filepath.Join(t.TempDir(), "locked")
	os.WriteFile(locked, pem.EncodeToMemory(blk), 0o600)
	if _, err := LoadIdentity(locked); err == nil || !strings.Contains(err.Error(), "ssh-agent cannot decrypt") {
		t.Fatalf("locked key: %v", err)
	}
}

// FuzzDecrypt: any bytes as a sealed file — the age header (binary or
// armoured), its stanzas, the payload — are refused or opened, never a
// panic, never more than the limit written.
func FuzzDecrypt(f *testing.F) {
	dir := f.TempDir()
	keyPath, pubLine := sshKey(f, dir)
	r, _ := ParseRecipient(pubLine)
	ids, err := LoadIdentity(keyPath)
	if err != nil {
		f.Fatal(err)
	}
	for _, armored := range []bool{false, true} {
		var buf bytes.Buffer
		Encrypt(&buf, strings.NewReader("a small pack"), []Recipient{r}, armored)
		f.Add(buf.Bytes())
	}
	f.Add([]byte(Magic + "-> X25519 abc\n--- xyz\n"))
	f.Add([]byte("-----BEGIN AGE ENCRYPTED FILE-----\n\n-----END AGE ENCRYPTED FILE-----\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "f.age")
		os.WriteFile(p, b, 0o644)
		var out bytes.Buffer
		n, err := Decrypt(&out, p, ids, 64)
		if err == nil && n > 64 {
			t.Fatalf("%d bytes past the limit", n)
		}
	})
}
