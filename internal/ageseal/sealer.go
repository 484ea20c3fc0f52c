package ageseal

import (
	"errors"
	"io"

	"filippo.io/age"

	"github.com/tp-dev/tp/internal/sealed"
)

// Sealer is this package as the command line uses it (sealed.Sealer):
// tp-full passes it in; tp, which does not link age, forwards the commands
// that need it to tp-full (D26).
type Sealer struct{}

var _ sealed.Sealer = Sealer{}

// ParseRecipient is ParseRecipient.
func (Sealer) ParseRecipient(s string) (sealed.Recipient, error) {
	r, err := ParseRecipient(s)
	if err != nil {
		return sealed.Recipient{}, err
	}
	return sealed.Recipient{Text: r.Text, Key: r.R}, nil
}

// ParseRecipientsFile is ParseRecipientsFile.
func (Sealer) ParseRecipientsFile(name string, data []byte) ([]sealed.Recipient, []string, error) {
	rs, skipped, err := ParseRecipientsFile(name, data)
	out := make([]sealed.Recipient, len(rs))
	for i, r := range rs {
		out[i] = sealed.Recipient{Text: r.Text, Key: r.R}
	}
	return out, skipped, err
}

// Encrypt is Encrypt, for recipients this Sealer parsed.
func (Sealer) Encrypt(dst io.Writer, src io.Reader, rs []sealed.Recipient, armored bool) error {
	in := make([]Recipient, len(rs))
	for i, r := range rs {
		k, ok := r.Key.(age.Recipient)
		if !ok {
			return errors.New("a recipient not read by the age sealer")
		}
		in[i] = Recipient{R: k, Text: r.Text}
	}
	return Encrypt(dst, src, in, armored)
}

// FindIdentities is Identities.Find.
func (Sealer) FindIdentities(flag string, getenv func(string) string, home string) (sealed.Identities, error) {
	ids, from, err := Identities{Flag: flag, Getenv: getenv, Home: home}.Find()
	if err != nil {
		return sealed.Identities{}, err
	}
	return sealed.Identities{From: from, Keys: ids}, nil
}

// Open is Open, with identities FindIdentities found.
func (Sealer) Open(path string, ids sealed.Identities, max int64) (string, func(), error) {
	keys, ok := ids.Keys.([]age.Identity)
	if !ok {
		return "", nil, errors.New("identities not found by the age sealer")
	}
	return Open(path, keys, max)
}
