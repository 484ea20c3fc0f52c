package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/gitexec"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/store"
	"golang.org/x/crypto/ssh"
)

// Signing the principal side's records (Acts 0.3 §10, D19): the key is
// looked up as D19 says, the project's principals are checked before
// anything is written, and a project without principals registers the
// signer (trust on first use), said aloud.

// actsFindSigner looks the signing key up; prefer picks an ssh-agent key
// when none is named. No key at all: an error explaining ssh-keygen.
func actsFindSigner(io *IO, g *globalOpts, prefer func(ssh.PublicKey) bool) (sshsign.Found, error) {
	home := io.Env("HOME")
	f, err := sshsign.Lookup{
		Flag:          g.signingKey,
		Getenv:        io.Env,
		GitSigningKey: actsGitSigningKey(home),
		Home:          home,
		Prefer:        prefer,
	}.Find()
	if errors.Is(err, sshsign.ErrNoKey) {
		return f, withHint(errors.New(sanitize.Line(err.Error())+"; nothing was written"), sshsign.NoKeyHelp)
	}
	if err != nil {
		return f, fmt.Errorf("signing key: %s; nothing was written", sanitize.Line(err.Error()))
	}
	return f, nil
}

// actsGitSigningKey reads git's user.signingkey and gpg.format from the
// user's global config (git runs through gitexec, in the home folder, so no
// repository's config is involved).
func actsGitSigningKey(home string) func() (string, string) {
	return func() (string, string) {
		if home == "" {
			return "", ""
		}
		ctx := context.Background()
		gx, err := gitexec.Open(ctx, home)
		if err != nil {
			return "", ""
		}
		key, _ := gx.Read(ctx, "config", "--global", "--get", "user.signingkey")
		format, _ := gx.Read(ctx, "config", "--global", "--get", "gpg.format")
		return strings.TrimSpace(string(key)), strings.TrimSpace(string(format))
	}
}

// actsTOFU is the notice of a principal registered on first use.
type actsTOFU struct {
	Project     string `json:"project"`
	Principal   string `json:"principal"`
	Fingerprint string `json:"fingerprint"`
	KeyFrom     string `json:"key_from"`
	File        string `json:"allowed_signers"`
	// Adopted counts the unsigned settlements the registrar had already
	// applied, which the registration adopts as they are (D19).
	Adopted int `json:"adopted_unsigned_records"`
}

func (t *actsTOFU) String() string {
	adopted := ""
	if t.Adopted > 0 {
		adopted = fmt.Sprintf(" The %d unsigned principal-side record(s) the registrar had already applied are adopted as they are; unsigned ones not yet applied will be reported, never applied.", t.Adopted)
	}
	return fmt.Sprintf("trust on first use: project %s had no principal; your key %s (%s, from %s) is now its principal, written to %s. From now on only records signed by a principal are applied; tp acts principal list --project %s shows them.",
		sanitize.Line(t.Project), t.Fingerprint, sanitize.Line(t.Principal), sanitize.Line(t.KeyFrom), sanitize.Line(t.File), sanitize.Line(t.Project)) + adopted
}

// actsPrincipalName is the name a key gets in allowed_signers: the actor
// (D14) when it is one word, else "principal".
func actsPrincipalName(io *IO) string {
	n := store.Actor("", io.Env)
	if sshsign.ValidPrincipal(n) {
		return n
	}
	return "principal"
}

// actsAuthorize finds the signer for principal-side records of project and
// checks it may sign there. With register, a project without principals
// registers the signer first (trust on first use) and the notice says so;
// without it, that registration is only described (a preview).
func actsAuthorize(io *IO, g *globalOpts, l *acts.Log, project string, register bool) (ssh.Signer, *actsTOFU, error) {
	pr, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, nil, err
	}
	if pr.Mismatch != "" {
		return nil, nil, withHint(fmt.Errorf("project %s: the principals cannot be trusted: %s; nothing was written", sanitize.Line(project), sanitize.Line(pr.Mismatch)),
			"a principal repairs it: tp acts principal add --project "+sanitize.Line(project)+" THEIR_KEY.pub rewrites allowed_signers from the signed changes; tp acts verify --project "+sanitize.Line(project)+" shows the details")
	}
	f, err := actsFindSigner(io, g, func(k ssh.PublicKey) bool { _, ok := pr.Holds(k); return ok })
	if err != nil {
		return nil, nil, err
	}
	pub := f.Signer.PublicKey()
	if pr.Has() {
		if _, ok := pr.Holds(pub); !ok {
			var names []string
			for _, p := range pr.Chain {
				names = append(names, p.Name+" "+p.Fingerprint())
			}
			return nil, nil, withHint(fmt.Errorf("key %s (from %s) is not a principal of project %s (principals: %s): a record signed with it would never be applied; nothing was written",
				sshsign.Fingerprint(pub), sanitize.Line(f.From), sanitize.Line(project), sanitize.Line(strings.Join(names, ", "))),
				"sign with a principal's key (--signing-key FILE), or have a principal run tp acts principal add")
		}
		return f.Signer, nil, nil
	}
	t := &actsTOFU{Project: project, Principal: actsPrincipalName(io), Fingerprint: sshsign.Fingerprint(pub), KeyFrom: f.From, File: l.SignersPath(project)}
	if register {
		s := actsPrincipalSender(io)
		after, err := l.ChangePrincipal(project, acts.PrincipalAdded, t.Principal, pub, f.Signer, s.By, s.Now, actsNonce())
		if err != nil {
			return nil, nil, err
		}
		if len(after.Changes) > 0 {
			t.Adopted = len(after.Changes[0].Adopts)
		}
	}
	return f.Signer, t, nil
}

// actsSign authorizes and signs the principal-side records of rs in place;
// the returned notice (may be nil) says a principal was registered.
func actsSign(io *IO, g *globalOpts, l *acts.Log, project string, rs []acts.Record) (*actsTOFU, error) {
	need := false
	for _, r := range rs {
		need = need || acts.PrincipalSide(r)
	}
	if !need {
		return nil, nil
	}
	s, t, err := actsAuthorize(io, g, l, project, true)
	if err != nil {
		return nil, err
	}
	return t, acts.SignAll(rs, s)
}

func actsNonce() string { return acts.NewNonce() }

// actsSanitizeRejected makes a rejected record's report safe to print.
func actsSanitizeRejected(r acts.Rejected) acts.Rejected {
	return r.Sanitized()
}
