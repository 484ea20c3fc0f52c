package landing

import (
	"fmt"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/trust"
	"github.com/tp-dev/tp/pack"
)

// Signer states (D22): what the landing says about who signed the pack.
const (
	SignerUnsigned   = "unsigned"    // the pack carries no signature
	SignerKnown      = "known"       // signed by a key in the person's senders ring
	SignerUnknown    = "unknown"     // signed by a key the person has not trusted
	SignerTrustedNow = "trusted_now" // unknown, and trusted by this landing (--trust-sender, the TUI's yes)
)

// Signer is who signed a pack, as the person's trust store knows the key
// (D22). Name and KnownSince come from the trust store, never from the
// pack: the pack's own origin.actor is a claim, the trusted name is the
// person's. The key's fingerprint is the signature's.
type Signer struct {
	State       string `json:"state"`
	Name        string `json:"name,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	KeyType     string `json:"key_type,omitempty"`
	PublicKey   string `json:"public_key,omitempty"`
	KnownSince  string `json:"known_since,omitempty"` // the date the person trusted the key (YYYY-MM-DD)

	key ssh.PublicKey
}

// Say is the signer in one line for a person, as every front end says it.
func (s Signer) Say() string {
	switch s.State {
	case SignerKnown:
		since := ""
		if s.KnownSince != "" {
			since = ", known since " + s.KnownSince
		}
		return fmt.Sprintf("signed by %s (%s)%s", s.Name, s.Fingerprint, since)
	case SignerTrustedNow:
		return fmt.Sprintf("signed by %s (%s), trusted now", s.Name, s.Fingerprint)
	case SignerUnknown:
		return fmt.Sprintf("signed by a key you have not seen (%s): trust it?", s.Fingerprint)
	}
	return "unsigned: nothing says who sent it or that it arrived unchanged"
}

// Senders is the part of the trust store a landing uses: the ring of pack
// senders (*trust.Ring).
type Senders interface {
	Lookup(key ssh.PublicKey) (trust.Entry, bool, error)
	Trust(name string, key ssh.PublicKey, now time.Time) (trust.Entry, error)
}

// signerOf is the plan's signer before the trust store is asked: unsigned,
// or unknown with the signature's key.
func signerOf(sig *pack.Signature) Signer {
	if sig == nil {
		return Signer{State: SignerUnsigned}
	}
	return Signer{State: SignerUnknown, Fingerprint: sig.Fingerprint, KeyType: sig.KeyType, PublicKey: sig.AuthorizedKey, key: sig.Key}
}

// Key is the signing key; nil when unsigned.
func (s Signer) Key() ssh.PublicKey { return s.key }

// ResolveSigner asks the person's senders ring about the plan's signer:
// known (with the name and date the person gave it) or unknown. A ring that
// cannot be read leaves the signer unknown, with a warning. Nothing is
// written.
func (pl *Plan) ResolveSigner(senders Senders) {
	if pl.Signer.State == SignerUnsigned || pl.Signer.key == nil || senders == nil {
		return
	}
	e, ok, err := senders.Lookup(pl.Signer.key)
	if err != nil {
		pl.Warnings = append(pl.Warnings, "the trust store could not be read, so the signer is treated as unknown: "+err.Error())
		return
	}
	if !ok {
		return
	}
	pl.Signer.State, pl.Signer.Name = SignerKnown, e.Name
	if !e.Since.IsZero() {
		pl.Signer.KnownSince = e.Since.UTC().Format("2006-01-02")
	}
	if a := pl.Sender.Actor; a != "" && a != e.Name {
		pl.Warnings = append(pl.Warnings, fmt.Sprintf("the pack says it comes from %q; the key that signed it is the one you trust as %s", a, e.Name))
	}
}

// TrustSigner trusts the plan's unknown signer under name in senders (trust
// on first use, D22): only on the person's explicit word (--trust-sender
// NAME, the walkthrough's yes), never because a pack asked.
func (pl *Plan) TrustSigner(senders Senders, name string, now time.Time) error {
	switch {
	case pl.Signer.State == SignerUnsigned:
		return &pack.Error{File: pl.File, Rule: RuleDecision, Detail: "--trust-sender: the pack is unsigned, so there is no key to trust"}
	case pl.Signer.State != SignerUnknown:
		return nil // known already: nothing to add
	case senders == nil:
		return &pack.Error{File: pl.File, Rule: RuleDecision, Detail: "--trust-sender: no trust store to record the key in"}
	}
	e, err := senders.Trust(name, pl.Signer.key, now)
	if err != nil {
		return err
	}
	pl.Signer.State, pl.Signer.Name = SignerTrustedNow, e.Name
	pl.Signer.KnownSince = e.Since.UTC().Format("2006-01-02")
	return nil
}
