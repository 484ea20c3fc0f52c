// Package ageseal seals finished packs for their receivers and opens them
// again (D22): encryption is age (filippo.io/age, the age-encryption.org/v1
// format), to age recipients (age1…) or SSH public keys (ssh-ed25519,
// ssh-rsa), binary or PEM-armoured. The cryptography is filippo.io/age's;
// this package only reads recipients and identities strictly, streams, and
// bounds what it writes.
//
// Decryption is not trust: what comes out is a pack like any other, read
// with every limit and refusal of D10 and checked by its signature, if any.
package ageseal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"
	"filippo.io/age/agessh"
	"filippo.io/age/armor"
	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/sealed"
)

// Magic is the first line of a binary age file; armor.Header of an
// armoured one.
const Magic = sealed.Magic

// Ext is the extension a sealed pack's name ends with.
const Ext = sealed.Ext

// IsSealed reports whether head (a file's first bytes) is an age file,
// binary or armoured (leading whitespace allowed, as age's armour reader
// allows it).
func IsSealed(head []byte) bool { return sealed.IsSealed(head) }

// IsSealedFile reports whether the file at path is an age file.
func IsSealedFile(path string) bool { return sealed.IsSealedFile(path) }

// Recipient is one receiver a pack is sealed for, as given.
type Recipient struct {
	R    age.Recipient
	Text string // as given: age1… or "ssh-ed25519 AAAA…" (no comment)
}

// ParseRecipient reads one recipient: an age public key (age1…, age1pq1…)
// or an SSH public key line (ssh-ed25519, ssh-rsa; options and comment as
// authorized_keys has them). Other SSH key types (ecdsa, security keys)
// cannot be encrypted to and are refused by name.
func ParseRecipient(s string) (Recipient, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Recipient{}, errors.New("empty recipient")
	case strings.HasPrefix(s, "age1pq1"):
		r, err := age.ParseHybridRecipient(s)
		if err != nil {
			return Recipient{}, fmt.Errorf("not an age recipient: %v", err)
		}
		return Recipient{R: r, Text: s}, nil
	case strings.HasPrefix(s, "age1"):
		r, err := age.ParseX25519Recipient(s)
		if err != nil {
			return Recipient{}, fmt.Errorf("not an age recipient: %v", err)
		}
		return Recipient{R: r, Text: s}, nil
	case strings.HasPrefix(s, "AGE-SECRET-KEY-"):
		return Recipient{}, errors.New("that is an age secret key, not a recipient: give its public key (age-keygen -y)")
	}
	pub, _, _, rest, err := ssh.ParseAuthorizedKey([]byte(s))
	if err != nil {
		return Recipient{}, errors.New("neither an age recipient (age1…) nor an SSH public key (ssh-ed25519 …, ssh-rsa …)")
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return Recipient{}, errors.New("more than one key on the line")
	}
	line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
	switch pub.Type() {
	case ssh.KeyAlgoED25519, ssh.KeyAlgoRSA:
	default:
		return Recipient{}, fmt.Errorf("an SSH %s key cannot be encrypted to (age takes ssh-ed25519 and ssh-rsa)", pub.Type())
	}
	r, err := agessh.ParseRecipient(line)
	if err != nil {
		return Recipient{}, fmt.Errorf("SSH recipient: %v", err)
	}
	return Recipient{R: r, Text: line}, nil
}

// MaxRecipientsFile bounds a recipients file (an authorized_keys file, a
// GitHub .keys file).
const MaxRecipientsFile = sealed.MaxRecipientsFile

// ParseRecipientsFile reads one recipient a line (blank lines and # comments
// skipped). Keys age cannot encrypt to (ecdsa, security keys: common in a
// GitHub .keys file) are skipped and reported in skipped; any other line
// that is not a recipient is an error naming the line. A file with no
// usable recipient is an error.
func ParseRecipientsFile(name string, data []byte) (rs []Recipient, skipped []string, err error) {
	if len(data) > MaxRecipientsFile {
		return nil, nil, fmt.Errorf("%s: larger than %d bytes", name, MaxRecipientsFile)
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := ParseRecipient(line)
		if err != nil {
			if strings.Contains(err.Error(), "cannot be encrypted to") {
				skipped = append(skipped, fmt.Sprintf("%s line %d: %v; skipped", name, i+1, err))
				continue
			}
			return nil, nil, fmt.Errorf("%s line %d: %v", name, i+1, err)
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return nil, skipped, fmt.Errorf("%s: no recipient age can encrypt to", name)
	}
	return rs, skipped, nil
}

// Encrypt writes src to dst sealed for recipients, armoured when armored.
func Encrypt(dst io.Writer, src io.Reader, recipients []Recipient, armored bool) error {
	if len(recipients) == 0 {
		return errors.New("no recipients")
	}
	rs := make([]age.Recipient, len(recipients))
	for i, r := range recipients {
		rs[i] = r.R
	}
	out := dst
	var aw io.WriteCloser
	if armored {
		aw = armor.NewWriter(dst)
		out = aw
	}
	w, err := age.Encrypt(out, rs...)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, src); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if aw != nil {
		return aw.Close()
	}
	return nil
}

// Identities says where the keys to open a sealed pack are looked for, in
// this order: Flag (--identity FILE), $TP_AGE_IDENTITY, then the person's
// SSH keys ~/.ssh/id_ed25519 and ~/.ssh/id_rsa. ssh-agent cannot be used:
// age needs the private key itself to decrypt, and an agent only signs.
type Identities struct {
	Flag   string
	Getenv func(string) string
	Home   string
}

// ErrNoIdentity: nothing to decrypt with.
var ErrNoIdentity = sealed.ErrNoIdentity

// NoIdentityHelp says what to do about ErrNoIdentity.
const NoIdentityHelp = sealed.NoIdentityHelp

// MaxIdentityFile bounds an identity file.
const MaxIdentityFile = 1 << 20

// Find loads the identities: the first of Flag and $TP_AGE_IDENTITY that is
// set decides (an error there is not a reason to try another); else every
// default SSH key that exists and can be used.
func (l Identities) Find() ([]age.Identity, []string, error) {
	getenv := l.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if l.Flag != "" {
		ids, err := LoadIdentity(l.Flag)
		if err != nil {
			return nil, nil, fmt.Errorf("--identity %s: %w", l.Flag, err)
		}
		return ids, []string{"--identity " + l.Flag}, nil
	}
	if v := getenv("TP_AGE_IDENTITY"); v != "" {
		ids, err := LoadIdentity(v)
		if err != nil {
			return nil, nil, fmt.Errorf("$TP_AGE_IDENTITY %s: %w", v, err)
		}
		return ids, []string{"$TP_AGE_IDENTITY " + v}, nil
	}
	var ids []age.Identity
	var from, problems []string
	if l.Home != "" {
		for _, n := range []string{"id_ed25519", "id_rsa"} {
			p := filepath.Join(l.Home, ".ssh", n)
			if _, err := os.Stat(p); err != nil {
				continue
			}
			got, err := LoadIdentity(p)
			if err != nil {
				problems = append(problems, p+": "+err.Error())
				continue
			}
			ids = append(ids, got...)
			from = append(from, p)
		}
	}
	if len(ids) == 0 {
		if len(problems) > 0 {
			return nil, nil, fmt.Errorf("%w (%s)", ErrNoIdentity, strings.Join(problems, "; "))
		}
		return nil, nil, ErrNoIdentity
	}
	return ids, from, nil
}

// LoadIdentity reads an identity file: age secret keys (one a line, as
// age-keygen writes them) or an unencrypted SSH private key (ed25519, RSA).
func LoadIdentity(path string) ([]age.Identity, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxIdentityFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxIdentityFile {
		return nil, fmt.Errorf("larger than %d bytes", MaxIdentityFile)
	}
	if bytes.Contains(b, []byte("PRIVATE KEY-----")) {
		id, err := agessh.ParseIdentity(b)
		if err != nil {
			var pm *ssh.PassphraseMissingError
			if errors.As(err, &pm) {
				return nil, errors.New("the SSH key is protected by a passphrase, and ssh-agent cannot decrypt age files; give an age identity, or a copy of the key without its passphrase")
			}
			return nil, fmt.Errorf("not an SSH private key age can use: %v", err)
		}
		return []age.Identity{id}, nil
	}
	ids, err := age.ParseIdentities(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not an age identity file: %v", err)
	}
	return ids, nil
}

// Decrypt opens the sealed file at path with ids and streams the pack it
// holds into dst, at most max bytes (a sealed pack holds no more than a pack
// may be; more is refused). It holds one 64 KiB chunk in memory at a time.
// A wrong key, a changed byte (age authenticates every chunk) or a cut
// stream is an error.
func Decrypt(dst io.Writer, path string, ids []age.Identity, max int64) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(64)
	var src io.Reader = br
	if !bytes.HasPrefix(head, []byte(Magic)) {
		if !IsSealed(head) {
			return 0, errors.New("not an age file")
		}
		src = armor.NewReader(br)
	}
	r, err := age.Decrypt(src, ids...)
	if err != nil {
		var nm *age.NoIdentityMatchError
		if errors.As(err, &nm) {
			return 0, fmt.Errorf("sealed for someone else: none of your keys opens it (%v)", err)
		}
		return 0, fmt.Errorf("cannot open the sealed pack: %v", err)
	}
	n, err := io.Copy(dst, io.LimitReader(r, max+1))
	if err != nil {
		return n, fmt.Errorf("the sealed pack is damaged, changed or cut short: %v", err)
	}
	if n > max {
		return n, fmt.Errorf("the sealed pack holds more than %d bytes, the limit for a pack (D10)", max)
	}
	return n, nil
}

// Open decrypts the sealed pack at path into a new private temporary
// folder (0700) and returns the plain pack's path there, named like the
// sealed file without ".age", and a cleanup that removes it. Readers then
// open that file as any pack, with every limit and refusal (D10).
func Open(path string, ids []age.Identity, max int64) (plain string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "tp-sealed-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	name := strings.TrimSuffix(filepath.Base(path), Ext)
	if name == "" || name == "." || name == ".." {
		name = "pack"
	}
	plain = filepath.Join(dir, name)
	f, err := os.OpenFile(plain, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	_, err = Decrypt(bw, path, ids, max)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return plain, cleanup, nil
}
