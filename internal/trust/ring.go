package trust

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/sshsign"
	"golang.org/x/crypto/ssh"
)

// Ring is one file of trusted keys: the pack senders, or one project's
// principals. Every key in it is trusted for the ring's namespace only.
type Ring struct {
	s         *Store
	path      string
	namespace string
	what      string
}

// Entry is one trusted key.
type Entry struct {
	Name        string        // the name the person gave the key
	Key         ssh.PublicKey //
	Fingerprint string        // SHA256:…
	Since       time.Time     // when it was trusted (UTC); zero if the line does not say
	Line        int           // line in the ring's file
}

// Keys is a ring's file as read: the trusted keys and the lines that were
// not trusted (unreadable, or with options tp does not implement).
type Keys struct {
	Entries  []Entry
	Problems []string
}

// Path is the ring's file, an allowed_signers file (for `ssh-keygen -Y
// verify -f`). It may not exist yet.
func (r *Ring) Path() string { return r.path }

// Namespace is the SSHSIG namespace the ring's keys are trusted for.
func (r *Ring) Namespace() string { return r.namespace }

// Load reads the ring. A ring that does not exist yet is empty.
func (r *Ring) Load() (*Keys, error) {
	data, err := r.s.readFile(r.path)
	if err != nil {
		return nil, err
	}
	return parseKeys(data, r.namespace, r.path), nil
}

// parseKeys reads a ring's bytes: lines whose namespaces do not include
// namespace are reported and not trusted (a key trusted to sign packs is
// not thereby trusted to settle acts).
func parseKeys(data []byte, namespace, path string) *Keys {
	as := sshsign.ParseAllowedSigners(data)
	k := &Keys{}
	for _, p := range as.Problems {
		k.Problems = append(k.Problems, path+": "+p)
	}
	for _, s := range as.Signers {
		if s.Namespaces == nil || !s.AllowsNamespace(namespace) || len(s.Principals) != 1 {
			k.Problems = append(k.Problems, fmt.Sprintf("%s: line %d: not one name limited to namespace %q; not trusted", path, s.Line, namespace))
			continue
		}
		e := Entry{Name: s.Principals[0], Key: s.Key, Fingerprint: sshsign.Fingerprint(s.Key), Line: s.Line}
		for _, w := range strings.Fields(s.Comment) {
			if v, ok := strings.CutPrefix(w, "since="); ok {
				if t, err := time.Parse(time.RFC3339, v); err == nil {
					e.Since = t.UTC()
				}
			}
		}
		k.Entries = append(k.Entries, e)
	}
	return k
}

// Find returns the entry for key.
func (k *Keys) Find(key ssh.PublicKey) (Entry, bool) {
	if k == nil || key == nil {
		return Entry{}, false
	}
	want := key.Marshal()
	for _, e := range k.Entries {
		if bytes.Equal(e.Key.Marshal(), want) {
			return e, true
		}
	}
	return Entry{}, false
}

// AllowedSigners is the ring as sshsign verifies against it.
func (k *Keys) AllowedSigners(namespace string) *sshsign.AllowedSigners {
	out := &sshsign.AllowedSigners{}
	for _, e := range k.Entries {
		out.Signers = append(out.Signers, sshsign.AllowedSigner{Principals: []string{e.Name}, Namespaces: []string{namespace}, Key: e.Key, Line: e.Line})
	}
	return out
}

// Lookup says whether key is trusted, and under which name since when.
func (r *Ring) Lookup(key ssh.PublicKey) (Entry, bool, error) {
	k, err := r.Load()
	if err != nil {
		return Entry{}, false, err
	}
	e, ok := k.Find(key)
	return e, ok, nil
}

// List returns the trusted keys, in the file's order.
func (r *Ring) List() ([]Entry, error) {
	k, err := r.Load()
	if err != nil {
		return nil, err
	}
	return k.Entries, nil
}

// KnownAsError: the key is trusted already, under another name.
type KnownAsError struct {
	Entry Entry
	Ring  string
}

func (e *KnownAsError) Error() string {
	return fmt.Sprintf("trust store: key %s is trusted already as %s (%s); remove it first to rename it", e.Entry.Fingerprint, e.Entry.Name, e.Ring)
}

// Trust adds key under name, trusted from now. A key trusted already
// under the same name is left as it is (its first date kept) and its entry
// returned; under another name it is a *KnownAsError.
func (r *Ring) Trust(name string, key ssh.PublicKey, now time.Time) (Entry, error) {
	if !sshsign.ValidPrincipal(name) {
		return Entry{}, fmt.Errorf("trust store: name %q: one word, no spaces, commas, quotes, '#' or wildcards", name)
	}
	if key == nil {
		return Entry{}, fmt.Errorf("trust store: no key")
	}
	if _, isCert := key.(*ssh.Certificate); isCert {
		return Entry{}, fmt.Errorf("trust store: certificates are not supported; trust the key itself")
	}
	var out Entry
	err := r.update(func(data []byte, k *Keys) ([]byte, error) {
		if e, ok := k.Find(key); ok {
			if e.Name != name {
				return nil, &KnownAsError{Entry: e, Ring: r.what}
			}
			out = e
			return nil, nil
		}
		since := now.UTC().Truncate(time.Second)
		line := sshsign.Line(name, r.namespace, key, "since="+since.Format(time.RFC3339))
		if len(data) == 0 {
			data = []byte(r.header())
		} else if data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
		data = append(data, line+"\n"...)
		out = Entry{Name: name, Key: key, Fingerprint: sshsign.Fingerprint(key), Since: since}
		return data, nil
	})
	if err != nil {
		return Entry{}, err
	}
	if out.Line == 0 {
		// the line number of a new entry, as a later Load gives it
		if e, ok, err := r.Lookup(key); err == nil && ok {
			out.Line = e.Line
		}
	}
	return out, nil
}

// Distrust removes key; it reports whether the key was there.
func (r *Ring) Distrust(key ssh.PublicKey) (bool, error) {
	found := false
	err := r.update(func(data []byte, k *Keys) ([]byte, error) {
		e, ok := k.Find(key)
		if !ok {
			return nil, nil
		}
		found = true
		lines := strings.SplitAfter(string(data), "\n")
		lines = append(lines[:e.Line-1], lines[e.Line:]...)
		return []byte(strings.Join(lines, "")), nil
	})
	return found, err
}

func (r *Ring) header() string {
	return fmt.Sprintf("# Trusted %s (tp). An allowed_signers file (ssh-keygen -Y verify -f);\n# written by tp, one key a line, for namespace %q only.\n", r.what, r.namespace)
}

// update runs change over the ring's bytes under the store's lock and
// writes what it returns (nil: nothing to write), atomically.
func (r *Ring) update(change func(data []byte, k *Keys) ([]byte, error)) error {
	unlock, err := r.s.lock(filepath.Dir(r.path))
	if err != nil {
		return err
	}
	defer unlock()
	data, err := r.s.readFile(r.path)
	if err != nil {
		return err
	}
	next, err := change(data, parseKeys(data, r.namespace, r.path))
	if err != nil || next == nil {
		return err
	}
	if err := durable.WriteFile(r.path, next, 0o600); err != nil {
		return fmt.Errorf("trust store: %w", err)
	}
	return nil
}
