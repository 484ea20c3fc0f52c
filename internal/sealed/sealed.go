// Package sealed is what tp knows of sealed packs (D22) without linking
// age: how to tell a sealed file from its first bytes, and the Sealer that
// seals and opens one. internal/ageseal is the Sealer; tp-full links it and
// tp does not, so a command that seals or opens a sealed pack runs in
// tp-full (D26), and the commands scripts call most start without age's
// packages (issue 20).
package sealed

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// Magic is the first line of a binary age file.
const Magic = "age-encryption.org/v1\n"

// ArmorHeader begins a PEM-armoured age file (filippo.io/age/armor.Header;
// internal/ageseal's tests hold the two equal).
const ArmorHeader = "-----BEGIN AGE ENCRYPTED FILE-----"

// Ext is the extension a sealed pack's name ends with.
const Ext = ".age"

// MaxRecipientsFile bounds a recipients file (an authorized_keys file, a
// GitHub .keys file).
const MaxRecipientsFile = 1 << 20

// IsSealed reports whether head (a file's first bytes) is an age file,
// binary or armoured (leading whitespace allowed, as age's armour reader
// allows it).
func IsSealed(head []byte) bool {
	if bytes.HasPrefix(head, []byte(Magic)) {
		return true
	}
	return bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte(ArmorHeader))
}

// IsSealedFile reports whether the file at path is an age file.
func IsSealedFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	return IsSealed(head[:n])
}

// ErrNoIdentity: nothing to decrypt with.
var ErrNoIdentity = errors.New("no identity to open a sealed pack with")

// NoIdentityHelp says what to do about ErrNoIdentity.
const NoIdentityHelp = `name an age identity file or an SSH private key with --identity FILE or $TP_AGE_IDENTITY; tp also tries ~/.ssh/id_ed25519 and ~/.ssh/id_rsa. ssh-agent cannot decrypt (age needs the key itself), so a key protected by a passphrase must be given as an age identity or without its passphrase`

// Recipient is one receiver a pack is sealed for: Text as given (age1… or
// "ssh-ed25519 AAAA…", no comment) and the Sealer's own value for it.
type Recipient struct {
	Text string
	Key  any
}

// Identities are the keys a sealed pack may be opened with, as the Sealer
// found them, and where it found them (for messages).
type Identities struct {
	From []string
	Keys any
}

// Sealer seals packs for their receivers and opens sealed ones (D22).
type Sealer interface {
	// ParseRecipient reads one recipient: an age public key or an SSH
	// public key line.
	ParseRecipient(s string) (Recipient, error)
	// ParseRecipientsFile reads one recipient a line; skipped are the
	// keys that cannot be encrypted to.
	ParseRecipientsFile(name string, data []byte) (rs []Recipient, skipped []string, err error)
	// Encrypt writes src to dst sealed for rs, armoured when armored.
	Encrypt(dst io.Writer, src io.Reader, rs []Recipient, armored bool) error
	// FindIdentities loads the keys to open a sealed pack with: flag
	// (--identity), $TP_AGE_IDENTITY, then the person's SSH keys under
	// home. ErrNoIdentity (wrapped or not) when there are none.
	FindIdentities(flag string, getenv func(string) string, home string) (Identities, error)
	// Open decrypts the sealed pack at path, at most max bytes, into a
	// private temporary file; cleanup removes it.
	Open(path string, ids Identities, max int64) (plain string, cleanup func(), err error)
}
