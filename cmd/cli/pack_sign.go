package cli

import (
	"errors"
	"fmt"

	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/trust"
	"github.com/tp-dev/tp/pack"
)

// Signed packs (D22): tp pack signs with the key D19 looks up; tp land
// asks the person's senders ring who that key is.

// packSignsByDefault: a person who configured a signing key — --signing-key,
// $TP_SIGNING_KEY, or git's user.signingkey naming an SSH key — gets signed
// packs without asking; ~/.ssh/id_ed25519 alone is not configuration.
func packSignsByDefault(io *IO, g *globalOpts) bool {
	if g.signingKey != "" || io.Env("TP_SIGNING_KEY") != "" {
		return true
	}
	k, format := actsGitSigningKey(io.Env("HOME"))()
	return k != "" && format == "ssh"
}

// packSigner is the signing function for a pack, and where its key came
// from. No key at all is an error explaining ssh-keygen.
func packSigner(io *IO, g *globalOpts) (func([]byte) (string, error), string, error) {
	home := io.Env("HOME")
	f, err := sshsign.Lookup{Flag: g.signingKey, Getenv: io.Env, GitSigningKey: actsGitSigningKey(home), Home: home}.Find()
	if errors.Is(err, sshsign.ErrNoKey) {
		return nil, "", withHint(errors.New("tp pack --sign: "+sanitize.Line(err.Error())+"; nothing was written"), sshsign.NoKeyHelp)
	}
	if err != nil {
		return nil, "", fmt.Errorf("tp pack --sign: signing key: %s; nothing was written", sanitize.Line(err.Error()))
	}
	sign := func(msg []byte) (string, error) { return sshsign.Sign(f.Signer, pack.SignatureNamespace, msg) }
	return sign, f.From, nil
}

// senderRing is the person's ring of trusted pack senders (internal/trust);
// nil with an error when the store cannot be opened.
func senderRing(io *IO) (*trust.Ring, error) {
	s, err := trust.OpenDefault(io.Env)
	if err != nil {
		return nil, err
	}
	return s.Senders(), nil
}
