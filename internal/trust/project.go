package trust

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/internal/durable"
)

// A project's state on this machine, beside its principals ring, under
// projects/<project-id>/:
//
//	head     the newest principal change this machine accepted ("sha256:…"),
//	         so a history that no longer contains it is refused (rollback)
//	applied  the principal-side records this machine applied, one a line
//	         ("<record id> <act key> <sha256 of the file>"), so one that
//	         disappears from the log is reported (tamper evidence)
//	signed   the principal-side records a person signed on this machine, in
//	         the ledger's form, so one deleted before any registrar applied
//	         it is reported here too (tamper evidence)
//	name     the project's name as the acts folder gives it, for messages

// ProjectFiles are the names a project's state may have.
var projectFiles = map[string]int64{"head": 4 << 10, "applied": MaxLedger, "signed": MaxLedger, "name": 4 << 10}

// MaxLedger bounds the applied ledger of one project (some 100,000
// settlements).
const MaxLedger = 16 << 20

// ReadProject reads one file of a project's state; missing is nil, nil.
func (s *Store) ReadProject(projectID, name string) ([]byte, error) {
	path, limit, err := s.projectPath(projectID, name)
	if err != nil {
		return nil, err
	}
	return s.readLimited(path, limit)
}

// UpdateProject rewrites one file of a project's state under the store's
// lock: change gets the current bytes (nil when missing) and returns the
// new ones, or nil to leave the file as it is.
func (s *Store) UpdateProject(projectID, name string, change func(old []byte) ([]byte, error)) error {
	path, limit, err := s.projectPath(projectID, name)
	if err != nil {
		return err
	}
	unlock, err := s.lock(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer unlock()
	old, err := s.readLimited(path, limit)
	if err != nil {
		return err
	}
	next, err := change(old)
	if err != nil || next == nil {
		return err
	}
	if int64(len(next)) > limit {
		return fmt.Errorf("trust store: %s would exceed %d bytes; not written", path, limit)
	}
	if err := durable.WriteFile(path, next, 0o600); err != nil {
		return fmt.Errorf("trust store: %w", err)
	}
	return nil
}

// ProjectsNamed lists the project ids whose name file says name.
func (s *Store) ProjectsNamed(name string) ([]string, error) {
	dir := filepath.Join(s.dir, "projects")
	entries, err := readDirNoFollow(s, dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range entries {
		if !ValidProjectID(id) {
			continue
		}
		b, err := s.ReadProject(id, "name")
		if err == nil && strings.TrimSuffix(string(b), "\n") == name {
			out = append(out, id)
		}
	}
	return out, nil
}

func (s *Store) projectPath(projectID, name string) (string, int64, error) {
	if !ValidProjectID(projectID) {
		return "", 0, fmt.Errorf("trust store: project id %q: lower-case letters, digits and '-', 8 to 64 characters", projectID)
	}
	limit, ok := projectFiles[name]
	if !ok {
		return "", 0, fmt.Errorf("trust store: no project file %q", name)
	}
	return filepath.Join(s.dir, "projects", projectID, name), limit, nil
}
