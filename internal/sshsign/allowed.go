package sshsign

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// AllowedSigner is one line of an allowed_signers file (ssh-keygen(1),
// ALLOWED SIGNERS): principals, options, a public key.
type AllowedSigner struct {
	Principals []string
	Namespaces []string // nil: any namespace
	Key        ssh.PublicKey
	Comment    string
	Line       int
}

// AllowsNamespace reports whether the line's namespaces option admits ns.
func (a *AllowedSigner) AllowsNamespace(ns string) bool {
	if a.Namespaces == nil {
		return true
	}
	for _, n := range a.Namespaces {
		if n == ns {
			return true
		}
	}
	return false
}

// AllowedSigners is a parsed allowed_signers file.
type AllowedSigners struct {
	Signers []AllowedSigner
	// Problems are lines that were not trusted: unreadable, or using an
	// option tp does not implement (cert-authority, valid-after,
	// valid-before). A line tp cannot honour fully is never trusted.
	Problems []string
}

// MaxAllowedSigners bounds the file tp reads.
const MaxAllowedSigners = 1 << 20

// ParseAllowedSigners reads an allowed_signers file. Blank lines and
// comments are skipped; every other line must be principals, options and a
// key, or it is reported in Problems and not trusted.
func ParseAllowedSigners(data []byte) *AllowedSigners {
	out := &AllowedSigners{}
	if len(data) > MaxAllowedSigners {
		out.Problems = append(out.Problems, fmt.Sprintf("larger than %d bytes; not read", MaxAllowedSigners))
		return out
	}
	for i, line := range bytes.Split(data, []byte("\n")) {
		n := i + 1
		s := strings.TrimSpace(strings.TrimSuffix(string(line), "\r"))
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		as, err := parseAllowedLine(s)
		if err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("line %d: %v; not trusted", n, err))
			continue
		}
		as.Line = n
		out.Signers = append(out.Signers, as)
	}
	return out
}

func parseAllowedLine(s string) (AllowedSigner, error) {
	var as AllowedSigner
	var principals, rest string
	if strings.HasPrefix(s, `"`) {
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return as, fmt.Errorf("unterminated quoted principals")
		}
		principals, rest = s[1:end+1], s[end+2:]
	} else {
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return as, fmt.Errorf("no key after the principals")
		}
		principals, rest = s[:i], s[i:]
	}
	for _, p := range strings.Split(principals, ",") {
		if p = strings.TrimSpace(p); p == "" {
			return as, fmt.Errorf("empty principal")
		}
		as.Principals = append(as.Principals, p)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return as, fmt.Errorf("no key after the principals")
	}
	// The rest is an authorized_keys line: [options] keytype base64 [comment].
	pub, comment, options, tail, err := ssh.ParseAuthorizedKey([]byte(rest))
	if err != nil {
		return as, fmt.Errorf("no readable public key: %v", err)
	}
	if len(bytes.TrimSpace(tail)) > 0 {
		return as, fmt.Errorf("more than one key on the line")
	}
	if _, isCert := pub.(*ssh.Certificate); isCert {
		return as, fmt.Errorf("certificates are not supported")
	}
	as.Key, as.Comment = pub, comment
	for _, o := range options {
		name, val, hasVal := strings.Cut(o, "=")
		switch strings.ToLower(name) {
		case "namespaces":
			if !hasVal {
				return as, fmt.Errorf("namespaces without a value")
			}
			val = strings.Trim(val, `"`)
			as.Namespaces = []string{}
			for _, ns := range strings.Split(val, ",") {
				if ns = strings.TrimSpace(ns); ns != "" {
					as.Namespaces = append(as.Namespaces, ns)
				}
			}
		default:
			return as, fmt.Errorf("option %q is not supported by tp", name)
		}
	}
	return as, nil
}

// Find returns the line that lists key for namespace, or nil.
func (a *AllowedSigners) Find(key ssh.PublicKey, namespace string) *AllowedSigner {
	if a == nil {
		return nil
	}
	want := key.Marshal()
	for i := range a.Signers {
		s := &a.Signers[i]
		if bytes.Equal(s.Key.Marshal(), want) && s.AllowsNamespace(namespace) {
			return s
		}
	}
	return nil
}

// Line renders one allowed_signers line for principal and key, limited to
// namespace: `principal namespaces="ns" keytype base64 comment`.
func Line(principal, namespace string, key ssh.PublicKey, comment string) string {
	k := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))
	l := fmt.Sprintf("%s namespaces=%q %s", principal, namespace, k)
	if comment = strings.TrimSpace(comment); comment != "" {
		l += " " + comment
	}
	return l
}

// ValidPrincipal reports whether p can stand as a principal in an
// allowed_signers line tp writes: one word, no commas, quotes or '#'.
func ValidPrincipal(p string) bool {
	if p == "" || len(p) > 200 {
		return false
	}
	for _, c := range p {
		if c <= ' ' || c == 0x7f || c == ',' || c == '"' || c == '#' || c == '*' || c == '?' || c == '!' {
			return false
		}
	}
	return true
}
