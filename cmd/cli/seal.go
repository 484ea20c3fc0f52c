package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ageseal"
	"github.com/tp-dev/tp/internal/limitread"
	"github.com/tp-dev/tp/pack"
)

// Sealed packs (D22): tp pack --to seals the finished, signed pack with age;
// tp land, conformance and convert open a sealed file with --identity,
// $TP_AGE_IDENTITY or the person's SSH key, then read what it holds as any
// pack (decryption is not trust).

// sealRecipients reads --to and --to-file into recipients; warnings are the
// keys a file held that age cannot encrypt to.
func sealRecipients(to, toFiles []string) ([]ageseal.Recipient, []string, error) {
	var rs []ageseal.Recipient
	var warnings []string
	for _, t := range to {
		r, err := ageseal.ParseRecipient(t)
		if err != nil {
			return nil, nil, withHint(fmt.Errorf("--to %s: %v; nothing was written", display.Line(clipArg(t)), err),
				"a recipient is an age public key (age1…) or an SSH public key (ssh-ed25519 AAAA…, ssh-rsa AAAA…); --to-file FILE reads one a line")
		}
		rs = append(rs, r)
	}
	for _, f := range toFiles {
		b, err := limitread.File(f, ageseal.MaxRecipientsFile)
		if err != nil {
			return nil, nil, fmt.Errorf("--to-file %s: %v; nothing was written", display.Line(f), err)
		}
		got, skipped, err := ageseal.ParseRecipientsFile(f, b)
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
	if strings.HasSuffix(strings.ToLower(out), ageseal.Ext) {
		return out
	}
	return out + ageseal.Ext
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
// name). max bounds what it may hold: the reader's limit on a pack.
func unseal(io *IO, identity, path string, max int64) (*unsealed, error) {
	u := &unsealed{Path: path, Name: path}
	if !ageseal.IsSealedFile(path) {
		return u, nil
	}
	ids, from, err := ageseal.Identities{Flag: identity, Getenv: io.Env, Home: io.Env("HOME")}.Find()
	if errors.Is(err, ageseal.ErrNoIdentity) {
		return nil, withHint(fmt.Errorf("%s is a sealed pack (age): %s", display.Line(path), display.Line(err.Error())), ageseal.NoIdentityHelp)
	}
	if err != nil {
		return nil, fmt.Errorf("%s is a sealed pack (age): %s", display.Line(path), display.Line(err.Error()))
	}
	plain, cleanup, err := ageseal.Open(path, ids, max)
	if err != nil {
		return nil, fmt.Errorf("%s: %s (tried %s)", display.Line(path), display.Line(err.Error()), display.Line(strings.Join(from, ", ")))
	}
	u.Path, u.Sealed, u.From, u.cleanup = plain, true, from, cleanup
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
