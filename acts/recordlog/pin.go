package recordlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tp-dev/tp/acts"
	"golang.org/x/crypto/ssh"
)

// This machine's trust in a project (D19), in the person's trust store
// (internal/trust), keyed by the project's identity, never by a path:
//
//   - the roots: the first principal keys the person trusts for the
//     project id (tp acts principal trust, tp acts init --principal, or
//     their own first settlement at this terminal, said aloud);
//   - the head: the newest principal change this machine accepted, so a
//     history that no longer holds it is refused (rollback);
//   - the ledger: the principal-side records this machine applied, so one
//     that disappears from the log is reported, never read as "not
//     settled after all" (tamper evidence).
//
// The acts folder, which agents and remotes write, holds none of these.

func (l *Log) rootTrusted(projectID string, key ssh.PublicKey) (bool, error) {
	r, err := l.Trust.Principals(projectID)
	if err != nil {
		return false, err
	}
	_, ok, err := r.Lookup(key)
	return ok, err
}

// TrustRoot trusts key as the first principal of the project with the
// chain's identity: the person's explicit decision (tp acts principal
// trust, init --principal, resolve) or their own first settlement here.
// It forgets the head this machine had accepted for that id, so the
// history as it is now is accepted from its start.
func (l *Log) TrustRoot(project, projectID, name string, key ssh.PublicKey, now time.Time) error {
	if l.Trust == nil {
		return fmt.Errorf("no trust store: this command needs one (TP_TRUST_DIR or a home folder)")
	}
	r, err := l.Trust.Principals(projectID)
	if err != nil {
		return err
	}
	if _, err := r.Trust(name, key, now); err != nil {
		return err
	}
	return l.Trust.UpdateProject(projectID, "name", func(old []byte) ([]byte, error) {
		if string(old) == project+"\n" {
			return nil, nil
		}
		return []byte(project + "\n"), nil
	})
}

func (l *Log) trustHead(projectID string) (string, error) {
	b, err := l.Trust.ReadProject(projectID, "head")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

func (l *Log) setTrustHead(projectID, project, head string) error {
	if err := l.Trust.UpdateProject(projectID, "head", func([]byte) ([]byte, error) { return []byte(head + "\n"), nil }); err != nil {
		return err
	}
	return l.Trust.UpdateProject(projectID, "name", func(old []byte) ([]byte, error) {
		if string(old) == project+"\n" {
			return nil, nil
		}
		return []byte(project + "\n"), nil
	})
}

// AcceptHistory makes this machine accept the project's principal history
// as it is now (the person's decision after a rollback was reported): the
// head is set to the newest change of the chain the log follows.
func (l *Log) AcceptHistory(project, projectID, head string) error {
	if l.Trust == nil {
		return fmt.Errorf("no trust store")
	}
	return l.setTrustHead(projectID, project, head)
}

// LedgerEntry is a principal-side record this machine applied.
type LedgerEntry struct {
	ID, Key, Digest string
}

// ledger reads the project's applied ledger, by record id.
func (l *Log) ledger(projectID string) (map[string]LedgerEntry, error) {
	return l.readLedger(projectID, "applied")
}

// signedLedger reads the principal-side records signed on this machine.
func (l *Log) signedLedger(projectID string) (map[string]LedgerEntry, error) {
	return l.readLedger(projectID, "signed")
}

func (l *Log) readLedger(projectID, file string) (map[string]LedgerEntry, error) {
	out := map[string]LedgerEntry{}
	if l.Trust == nil || projectID == "" {
		return out, nil
	}
	b, err := l.Trust.ReadProject(projectID, file)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 {
			out[DecodeLedger(f[0])] = LedgerEntry{ID: DecodeLedger(f[0]), Key: DecodeLedger(f[1]), Digest: f[2]}
		}
	}
	return out, nil
}

// NoteApplied adds principal-side records this machine applied to its
// ledger (after they are acknowledged).
func (l *Log) NoteApplied(projectID string, es []LedgerEntry) error {
	return l.noteLedger(projectID, "applied", es)
}

// NoteSigned adds the principal-side records just signed and written on
// this machine to its signed ledger (D19): one that is then deleted from
// the log before any registrar applied it — which the applied ledger of
// no machine would notice — is reported here. Records without a
// signature, of a project without an identity, or whose file is gone are
// left out.
func (l *Log) NoteSigned(project string, rs []acts.Record) error {
	if l.Trust == nil {
		return nil
	}
	var es []LedgerEntry
	for _, r := range rs {
		if !acts.PrincipalSide(r) || r.Sig == "" || r.Project != project {
			continue
		}
		raw, err := ReadLimited(l.RecordPath(project, r.ID), MaxRecordFile)
		if err != nil {
			continue
		}
		es = append(es, LedgerEntry{ID: r.ID, Key: r.Key, Digest: fileDigest(raw)})
	}
	if len(es) == 0 {
		return nil
	}
	pr, err := l.LoadPrincipals(project)
	if err != nil || pr.ProjectID == "" {
		return err
	}
	return l.noteLedger(pr.ProjectID, "signed", es)
}

// ForgetSigned takes records off the signed ledger: the inbox's undo
// removed them on purpose, before anyone could have seen them (D20).
func (l *Log) ForgetSigned(project string, ids []string) error {
	if l.Trust == nil || len(ids) == 0 {
		return nil
	}
	pr, err := l.LoadPrincipals(project)
	if err != nil || pr.ProjectID == "" {
		return err
	}
	_, err = l.dropLedger(pr.ProjectID, "signed", ids)
	return err
}

func (l *Log) dropLedger(projectID, file string, ids []string) (bool, error) {
	drop := map[string]bool{}
	for _, id := range ids {
		drop[id] = true
	}
	found := false
	err := l.Trust.UpdateProject(projectID, file, func(old []byte) ([]byte, error) {
		var keep []string
		for _, line := range strings.SplitAfter(string(old), "\n") {
			if f := strings.Fields(line); len(f) == 3 && drop[DecodeLedger(f[0])] {
				found = true
				continue
			}
			keep = append(keep, line)
		}
		if !found {
			return nil, nil
		}
		return []byte(strings.Join(keep, "")), nil
	})
	return found, err
}

func (l *Log) noteLedger(projectID, file string, es []LedgerEntry) error {
	if l.Trust == nil || projectID == "" || len(es) == 0 {
		return nil
	}
	return l.Trust.UpdateProject(projectID, file, func(old []byte) ([]byte, error) {
		have := map[string]bool{}
		for _, line := range strings.Split(string(old), "\n") {
			if f := strings.Fields(line); len(f) == 3 {
				have[DecodeLedger(f[0])] = true
			}
		}
		var add []string
		for _, e := range es {
			if !have[e.ID] {
				have[e.ID] = true
				add = append(add, EncodeLedger(e.ID)+" "+EncodeLedger(e.Key)+" "+e.Digest+"\n")
			}
		}
		if len(add) == 0 {
			return nil, nil
		}
		sort.Strings(add)
		return append(old, strings.Join(add, "")...), nil
	})
}

// EncodeLedger makes an id one word for the ledger (ids and keys hold no
// spaces in practice; any that do are escaped).
func EncodeLedger(s string) string {
	return strings.NewReplacer("%", "%25", " ", "%20", "\n", "%0A", "\t", "%09", "\r", "%0D").Replace(s)
}

// DecodeLedger reverses EncodeLedger.
func DecodeLedger(s string) string {
	return strings.NewReplacer("%20", " ", "%0A", "\n", "%09", "\t", "%0D", "\r", "%25", "%").Replace(s)
}

// NoteAppliedRecords adds the principal-side records a sync applied and
// delivered (now acknowledged) to this machine's ledger.
func (l *Log) NoteAppliedRecords(ld *Loaded, applied []string, delivered []acts.Record) error {
	if l.Trust == nil || ld.Principals == nil || ld.Principals.ProjectID == "" {
		return nil
	}
	want := map[string]bool{}
	for _, id := range applied {
		want[id] = true
	}
	for _, r := range delivered {
		want[r.ID] = true
	}
	var es []LedgerEntry
	for _, r := range ld.Records {
		if !want[r.ID] || !acts.PrincipalSide(r) || r.SignedBy == nil {
			continue
		}
		raw, err := ReadLimited(l.RecordPath(ld.Project, r.ID), MaxRecordFile)
		if err != nil {
			continue // gone already: the next load reports it
		}
		es = append(es, LedgerEntry{ID: r.ID, Key: r.Key, Digest: fileDigest(raw)})
	}
	return l.NoteApplied(ld.Principals.ProjectID, es)
}

// Forget is the person's decision about a vanished record (D19): this
// machine stops remembering it as applied (its ledger line and its acked/
// entry go), so sync treats its act by the log as it now is. It reports
// whether there was anything to forget.
func (l *Log) Forget(project, projectID, id string) (bool, error) {
	found := false
	if l.Trust != nil && projectID != "" {
		for _, file := range []string{"applied", "signed"} {
			f, err := l.dropLedger(projectID, file, []string{id})
			if err != nil {
				return false, err
			}
			found = found || f
		}
	}
	err := os.Remove(filepath.Join(l.AckedDir(project), EncodeName(id)))
	switch {
	case err == nil:
		found = true
	case !errors.Is(err, fs.ErrNotExist):
		return found, fmt.Errorf("record log: %w", err)
	}
	return found, nil
}
