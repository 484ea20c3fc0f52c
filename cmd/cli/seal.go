package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/limitread"
	"github.com/tp-dev/tp/internal/sealed"
	"github.com/tp-dev/tp/pack"
)

// Sealed packs (D22): tp pack --to seals the finished, signed pack with age;
// tp land, conformance and convert open a sealed file with --identity,
// $TP_AGE_IDENTITY or the person's SSH key, then read what it holds as any
// pack (decryption is not trust). Age is tp-full's (io.Sealer, D26): tp
// runs such a command line in tp-full, at the point the command first
// needs age, before it has read a pack, written, locked or prompted.

// sealer is what seals and opens sealed packs. In tp, which links no age,
// it runs the whole command line in tp-full instead (what names the
// command), and returns only tp-full's exit or the reason it could not.
func sealer(io *IO, what string) (sealed.Sealer, error) {
	if io.Sealer != nil {
		return io.Sealer, nil
	}
	if io.Forward == nil {
		return nil, errNoFull(what)
	}
	return nil, io.Forward(what)
}

// sealRecipients reads --to and --to-file into recipients; warnings are the
// keys a file held that age cannot encrypt to.
func sealRecipients(s sealed.Sealer, to, toFiles []string) ([]sealed.Recipient, []string, error) {
	var rs []sealed.Recipient
	var warnings []string
	for _, t := range to {
		r, err := s.ParseRecipient(t)
		if err != nil {
			return nil, nil, withHint(fmt.Errorf("--to %s: %v; nothing was written", display.Line(clipArg(t)), err),
				"a recipient is an age public key (age1…) or an SSH public key (ssh-ed25519 AAAA…, ssh-rsa AAAA…); --to-file FILE reads one a line")
		}
		rs = append(rs, r)
	}
	for _, f := range toFiles {
		b, err := limitread.File(f, sealed.MaxRecipientsFile)
		if err != nil {
			return nil, nil, fmt.Errorf("--to-file %s: %v; nothing was written", display.Line(f), err)
		}
		got, skipped, err := s.ParseRecipientsFile(f, b)
		warnings = append(warnings, skipped...)
		if err != nil {
			return nil, nil, fmt.Errorf("--to-file: %s; nothing was written", display.Line(err.Error()))
		}
		rs = append(rs, got...)
	}
	return rs, warnings, nil
}

func clipArg(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// sealedName is the file a sealed pack is written to: out, with ".age"
// added unless it has it.
func sealedName(out string) string {
	if strings.HasSuffix(strings.ToLower(out), sealed.Ext) {
		return out
	}
	return out + sealed.Ext
}

// unsealed is a pack file ready to read: the file itself, or what a sealed
// file holds, decrypted into a private temporary folder.
type unsealed struct {
	Path    string // what to open
	Name    string // what to call it: the file the person named
	Sealed  bool
	From    []string // the identities tried
	cleanup func()
}

func (u *unsealed) Close() {
	if u.cleanup != nil {
		u.cleanup()
	}
}

// unseal opens path if it is sealed (sniffed from its bytes, never the
// name). max bounds what it may hold: the reader's limit on a pack. It is
// the first thing the commands that read a pack do, so in tp a sealed one
// sends the command line to tp-full (sealer) before anything else was done.
func unseal(io *IO, what, identity, path string, max int64) (*unsealed, error) {
	u := &unsealed{Path: path, Name: path}
	if !sealed.IsSealedFile(path) {
		return u, nil
	}
	s, err := sealer(io, what+" of a sealed pack")
	if err != nil {
		return nil, err
	}
	ids, err := s.FindIdentities(identity, io.Env, io.Env("HOME"))
	if errors.Is(err, sealed.ErrNoIdentity) {
		return nil, withHint(fmt.Errorf("%s is a sealed pack (age): %s", display.Line(path), display.Line(err.Error())), sealed.NoIdentityHelp)
	}
	if err != nil {
		return nil, fmt.Errorf("%s is a sealed pack (age): %s", display.Line(path), display.Line(err.Error()))
	}
	plain, cleanup, err := s.Open(path, ids, max)
	if err != nil {
		return nil, fmt.Errorf("%s: %s (tried %s)", display.Line(path), display.Line(err.Error()), display.Line(strings.Join(ids.From, ", ")))
	}
	u.Path, u.Sealed, u.From, u.cleanup = plain, true, ids.From, cleanup
	return u, nil
}

// sealedMax is what a sealed pack may hold: a pack's uncompressed limit
// (D10), and the flat form's base64 of it.
func sealedMax(l pack.Limits) int64 {
	if l.MaxTotal <= 0 {
		l.MaxTotal = pack.DefaultLimits().MaxTotal
	}
	return l.MaxTotal/3*4 + 64<<20
}

// renamed makes errors about the decrypted copy name the sealed file.
func (u *unsealed) renamed(err error) error {
	if err == nil || !u.Sealed {
		return err
	}
	var pe *pack.Error
	if errors.As(err, &pe) && pe.File == u.Path {
		pe.File = u.Name
	}
	var re *pack.RefusalError
	if errors.As(err, &re) {
		for _, it := range re.Items {
			if it.File == u.Path {
				it.File = u.Name
			}
		}
	}
	return err
}
