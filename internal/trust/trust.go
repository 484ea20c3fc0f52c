// Package trust is one person's trust roots on one machine (D19): the SSH
// keys they have decided to believe, as principals of acts projects and as
// senders of signed packs, kept outside every folder an agent, a git remote
// or a pack sender can write (the acts folder, the passport store, a
// landing's target).
//
// A store is a folder, $TP_TRUST_DIR, else $XDG_CONFIG_HOME/tp/trust, else
// ~/.config/tp/trust:
//
//	senders                      pack senders (namespace "taskpack")
//	projects/<project-id>/principals  a project's trusted principals (namespace "tp-acts")
//	projects/<project-id>/head   the newest principal change this machine accepted
//	.lock                        taken by every write
//
// The key files are in OpenSSH's allowed_signers format, one key a line,
// with the date the person trusted it in the line's comment
// ("alice namespaces="taskpack" ssh-ed25519 AAAA… since=2026-11-03T10:00:00Z"),
// so `ssh-keygen -Y verify -f <file>` reads them as it reads any
// allowed_signers file.
//
// Only explicit commands write the store (and a person's own first
// settlement at a terminal, said aloud): nothing in this package is called
// on a remote's or an agent's say. Writes are atomic (internal/durable) and
// serialised by a lock; reads are size-limited; no file or folder of the
// store is followed through a symbolic link, so a store whose parts were
// replaced by links is refused, not read.
package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/lockedfile"
)

// Namespaces of the SSHSIG signatures whose signers the store's files list.
const (
	// SenderNamespace is the namespace of signed packs' signatures.
	SenderNamespace = "taskpack"
	// PrincipalNamespace is the namespace of acts records' signatures (D19).
	PrincipalNamespace = "tp-acts"
)

// MaxFile bounds every file of the store that is read (the key files and
// the heads): what is larger is reported, not read.
const MaxFile = 1 << 20

// Dir is the store folder this process uses: $TP_TRUST_DIR, else
// $XDG_CONFIG_HOME/tp/trust, else $HOME/.config/tp/trust. Relative values
// are ignored (as the XDG specification says), so a store is never found
// relative to wherever a command happens to run.
func Dir(getenv func(string) string) (string, error) {
	if d := getenv("TP_TRUST_DIR"); d != "" {
		if !filepath.IsAbs(d) {
			return "", fmt.Errorf("trust store: TP_TRUST_DIR %q is not an absolute path", d)
		}
		return filepath.Clean(d), nil
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tp", "trust"), nil
	}
	if h := getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "tp", "trust"), nil
	}
	return "", errors.New("trust store: no home folder (set TP_TRUST_DIR or HOME)")
}

// Store is an open trust store. Opening creates nothing: the folder
// appears with the first trusted key.
type Store struct {
	dir string
}

// Open opens the store at dir (absolute). A store folder that is a
// symbolic link, or a file, is refused.
func Open(dir string) (*Store, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("trust store: %q is not an absolute path", dir)
	}
	s := &Store{dir: filepath.Clean(dir)}
	if err := s.checkDir(s.dir, false); err != nil {
		return nil, err
	}
	return s, nil
}

// OpenDefault opens the store Dir names.
func OpenDefault(getenv func(string) string) (*Store, error) {
	d, err := Dir(getenv)
	if err != nil {
		return nil, err
	}
	return Open(d)
}

// Path is the store's folder.
func (s *Store) Path() string { return s.dir }

// Senders is the ring of pack senders this person trusts.
func (s *Store) Senders() *Ring {
	return &Ring{s: s, path: filepath.Join(s.dir, "senders"), namespace: SenderNamespace, what: "pack senders"}
}

// validProjectID: what NewProjectID makes, and what a folder name can be
// on every file system.
var validProjectID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{7,63}$`) })

// ValidProjectID reports whether id can name a project in the store.
func ValidProjectID(id string) bool { return validProjectID().MatchString(id) }

// Principals is the ring of a project's principals this person trusts:
// the roots the project's principal chain must start from (D19). The
// project is named by its identity (a random id made at `tp acts init` or
// at the first principal change), never by a path or the project's name,
// so a folder reached another way, or a copy with the same name, shares
// no trust with it.
func (s *Store) Principals(projectID string) (*Ring, error) {
	if !ValidProjectID(projectID) {
		return nil, fmt.Errorf("trust store: project id %q: lower-case letters, digits and '-', 8 to 64 characters", projectID)
	}
	return &Ring{s: s, path: filepath.Join(s.dir, "projects", projectID, "principals"), namespace: PrincipalNamespace, what: "principals of project " + projectID}, nil
}

// lock takes the store's write lock (a file in the store, which no one
// else writes) and makes the folders down to dir, refusing links.
func (s *Store) lock(dir string) (unlock func(), err error) {
	if err := s.mkdirs(dir); err != nil {
		return nil, err
	}
	m := lockedfile.MutexAt(filepath.Join(s.dir, ".lock"))
	unlock, err = m.Lock()
	if err != nil {
		return nil, fmt.Errorf("trust store: locking %s: %w", s.dir, err)
	}
	return unlock, nil
}

// mkdirs makes the folders from the store down to dir (0700), checking
// that none of them is a link.
func (s *Store) mkdirs(dir string) error {
	rel, err := filepath.Rel(s.dir, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("trust store: %s is outside %s", dir, s.dir)
	}
	if err := s.checkDir(s.dir, true); err != nil {
		return err
	}
	p := s.dir
	if rel == "." {
		return nil
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		if err := s.checkDir(p, true); err != nil {
			return err
		}
	}
	return nil
}

// checkDir checks that p is a folder and no link; with create, a missing
// folder is made.
func (s *Store) checkDir(p string, create bool) error {
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		if err := os.MkdirAll(p, 0o700); err != nil {
			return fmt.Errorf("trust store: %w", err)
		}
		fi, err = os.Lstat(p)
		if err != nil {
			return fmt.Errorf("trust store: %w", err)
		}
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("trust store: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("trust store: %s is a symbolic link; the store is never read through one (make it a real folder)", p)
	}
	if !fi.IsDir() {
		return fmt.Errorf("trust store: %s is not a folder", p)
	}
	return nil
}

// readFile reads a file of the store: no link anywhere from the store
// down, a regular file, at most MaxFile bytes. A missing file is nil, nil.
func (s *Store) readFile(path string) ([]byte, error) { return s.readLimited(path, MaxFile) }

func (s *Store) readLimited(path string, limit int64) ([]byte, error) {
	rel, err := filepath.Rel(s.dir, filepath.Dir(path))
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("trust store: %s is outside %s", path, s.dir)
	}
	p := s.dir
	if err := s.checkDir(p, false); err != nil {
		return nil, err
	}
	if rel != "." {
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			p = filepath.Join(p, part)
			if err := s.checkDir(p, false); err != nil {
				return nil, err
			}
		}
	}
	data, err := readNoFollow(path, limit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, errTooLarge):
		return nil, fmt.Errorf("trust store: %s is larger than %d bytes; not read", path, limit)
	case err != nil:
		return nil, fmt.Errorf("trust store: %s: %w", path, err)
	}
	return data, nil
}

var errTooLarge = errors.New("too large")

// readDirNoFollow lists dir's entries (a missing dir is empty), refusing a
// link anywhere from the store down.
func readDirNoFollow(s *Store, dir string) ([]string, error) {
	rel, err := filepath.Rel(s.dir, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("trust store: %s is outside %s", dir, s.dir)
	}
	p := s.dir
	if err := s.checkDir(p, false); err != nil {
		return nil, err
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		p = filepath.Join(p, part)
		if err := s.checkDir(p, false); err != nil {
			return nil, err
		}
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust store: %w", err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}
