package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/gitexec"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/store"
	"golang.org/x/crypto/ssh"
)

// The principal side's signing key (Acts 0.3 §10, D19), looked up as D19
// says: the command line's input to recordlog.WriteAsPrincipal, which checks the
// project's principals before anything is written and registers the signer
// of a project without principals (trust on first use).

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
		return f, withHint(errors.New(display.Line(err.Error())+"; nothing was written"), sshsign.NoKeyHelp)
	}
	if err != nil {
		return f, fmt.Errorf("signing key: %s; nothing was written", display.Line(err.Error()))
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
		// One git process for both keys; the last value of each wins, as
		// with --get.
		out, _ := gx.Read(ctx, "config", "--global", "--null", "--get-regexp", `^(user\.signingkey|gpg\.format)$`)
		var key, format string
		for _, kv := range strings.Split(string(out), "\x00") {
			switch k, v, _ := strings.Cut(kv, "\n"); k {
			case "user.signingkey":
				key = v
			case "gpg.format":
				format = v
			}
		}
		return strings.TrimSpace(key), strings.TrimSpace(format)
	}
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

// actsPrincipalKey is the principal side's signing key as D19 looks it up,
// registered (trust on first use) under actsPrincipalName as this tp.
func actsPrincipalKey(io *IO, g *globalOpts) recordlog.PrincipalKey {
	s := actsPrincipalSender(io)
	return recordlog.PrincipalKey{
		Find: func(prefer func(ssh.PublicKey) bool) (sshsign.Found, error) { return actsFindSigner(io, g, prefer) },
		Name: actsPrincipalName(io), By: s.By, Now: s.Now, Nonce: actsNonce,
	}
}

func actsNonce() string { return acts.NewNonce() }

// actsSanitizeRejected makes a rejected record's report safe to print.
func actsSanitizeRejected(r recordlog.Rejected) recordlog.Rejected {
	return r.Sanitized()
}
