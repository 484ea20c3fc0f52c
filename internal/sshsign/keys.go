package sshsign

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// Lookup says where to look for the signing key, in this order (D19):
// Flag (--signing-key), $TP_SIGNING_KEY, git's user.signingkey when it
// names an SSH key, ~/.ssh/id_ed25519. A key file protected by a
// passphrase, a public key file, or git's "key::" literal is used through
// ssh-agent ($SSH_AUTH_SOCK). With none of these, an agent key that Prefer
// accepts (a principal of the project) is used, else the agent's only key.
type Lookup struct {
	Flag   string
	Getenv func(string) string
	// GitSigningKey returns git's user.signingkey and gpg.format ("" when
	// unset); nil skips git.
	GitSigningKey func() (key, format string)
	Home          string
	// Prefer picks among agent keys when no key was named.
	Prefer func(ssh.PublicKey) bool
}

// ErrNoKey is returned when no key was found anywhere.
var ErrNoKey = errors.New("no SSH key to sign with")

// Found is a signer and where it came from.
type Found struct {
	Signer ssh.Signer
	From   string // e.g. "--signing-key ~/.ssh/tp", "ssh-agent"
}

// Find looks the signing key up.
func (l Lookup) Find() (Found, error) {
	getenv := l.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	type cand struct{ spec, from string }
	var named []cand
	if l.Flag != "" {
		named = append(named, cand{l.Flag, "--signing-key"})
	}
	if v := getenv("TP_SIGNING_KEY"); v != "" {
		named = append(named, cand{v, "$TP_SIGNING_KEY"})
	}
	if l.GitSigningKey != nil {
		if k, format := l.GitSigningKey(); k != "" && (format == "ssh" || strings.HasPrefix(k, "key::") || looksLikeSSHKeyFile(l.expand(k))) {
			named = append(named, cand{k, "git user.signingkey"})
		}
	}
	// The first named key decides: a named key that cannot be used is an
	// error, not a reason to sign with another one.
	if len(named) > 0 {
		c := named[0]
		s, err := l.load(c.spec, getenv)
		if err != nil {
			return Found{}, fmt.Errorf("%s %s: %w", c.from, c.spec, err)
		}
		return Found{Signer: s, From: c.from + " " + c.spec}, nil
	}
	if l.Home != "" {
		def := filepath.Join(l.Home, ".ssh", "id_ed25519")
		if _, err := os.Stat(def); err == nil {
			s, err := l.load(def, getenv)
			if err != nil {
				return Found{}, fmt.Errorf("%s: %w", def, err)
			}
			return Found{Signer: s, From: def}, nil
		}
	}
	signers, err := agentSigners(getenv)
	if err == nil && len(signers) > 0 {
		if l.Prefer != nil {
			for _, s := range signers {
				if l.Prefer(s.PublicKey()) {
					return Found{Signer: s, From: "ssh-agent"}, nil
				}
			}
		}
		if len(signers) == 1 {
			return Found{Signer: signers[0], From: "ssh-agent"}, nil
		}
		return Found{}, fmt.Errorf("%w: ssh-agent holds %d keys and none is named; choose one with --signing-key FILE", ErrNoKey, len(signers))
	}
	return Found{}, ErrNoKey
}

func (l Lookup) expand(p string) string {
	if strings.HasPrefix(p, "~/") && l.Home != "" {
		return filepath.Join(l.Home, p[2:])
	}
	return p
}

func looksLikeSSHKeyFile(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	if _, _, _, _, err := ssh.ParseAuthorizedKey(b); err == nil {
		return true
	}
	return strings.Contains(string(b), "OPENSSH PRIVATE KEY")
}

// load turns a key spec into a signer: a private key file; a passphrase-
// protected one, a public key file or a "key::" literal through the agent.
func (l Lookup) load(spec string, getenv func(string) string) (ssh.Signer, error) {
	var pub ssh.PublicKey
	if lit, ok := strings.CutPrefix(spec, "key::"); ok {
		k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(lit))
		if err != nil {
			return nil, fmt.Errorf("not a public key: %v", err)
		}
		pub = k
	} else {
		path := l.expand(spec)
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if k, _, _, _, err := ssh.ParseAuthorizedKey(b); err == nil {
			pub = k // a .pub file: its private half is in the agent
		} else {
			s, err := ssh.ParsePrivateKey(b)
			if err == nil {
				return s, nil
			}
			var pm *ssh.PassphraseMissingError
			if !errors.As(err, &pm) || pm.PublicKey == nil {
				return nil, fmt.Errorf("not an SSH private or public key: %v", err)
			}
			pub = pm.PublicKey
		}
	}
	signers, err := agentSigners(getenv)
	if err != nil {
		return nil, fmt.Errorf("key %s must be used through ssh-agent (it is protected by a passphrase, or only its public half is here), and %v; run ssh-add", Fingerprint(pub), err)
	}
	want := string(pub.Marshal())
	for _, s := range signers {
		if string(s.PublicKey().Marshal()) == want {
			return s, nil
		}
	}
	return nil, fmt.Errorf("key %s is not in ssh-agent; add it with ssh-add", Fingerprint(pub))
}

func agentSigners(getenv func(string) string) ([]ssh.Signer, error) {
	sock := getenv("SSH_AUTH_SOCK")
	if sock == "" {
		return nil, errors.New("SSH_AUTH_SOCK is not set")
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("ssh-agent: %v", err)
	}
	// The connection stays open for the signers; a command signs a few
	// records and exits.
	return agent.NewClient(conn).Signers()
}

// NoKeyHelp is what to tell a person who has no key.
const NoKeyHelp = `make one with "ssh-keygen -t ed25519" (it is written to ~/.ssh/id_ed25519, where tp looks), or name one with --signing-key FILE or $TP_SIGNING_KEY, set git's user.signingkey to an SSH key, or load one into ssh-agent`
