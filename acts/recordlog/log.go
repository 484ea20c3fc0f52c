package recordlog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/trust"
)

// The record log is the transport between the registrar and the principal
// side (D9): one JSON file per record under
// <acts-dir>/<project>/records/, named by a filesystem-safe encoding of the
// record's id, and the registrar's acknowledgements beside it under
// <acts-dir>/<project>/acked/. Files are written to a temporary name, synced,
// then linked into place, which is atomic and fails if the name exists: two
// processes writing the same record cannot both win, and a reader never sees
// half a record. The folder may be a git repository or a synced folder.

// Log is a record log rooted at an acts directory.
type Log struct {
	Dir string
	// CacheDir, when set, holds digests of record files that already passed
	// the schemas (see Load). DefaultCacheDir gives the usual place.
	CacheDir string
	// KeepRaw makes Load keep each record's file bytes in Loaded.Raw (for
	// tools that show or forward records with their unknown fields).
	KeepRaw bool
	// Trust is this person's trust store (D19): which first principals
	// they trust per project id, the newest principal change this machine
	// accepted, the principal-side records it applied. Every front end
	// sets it (tp acts, the inbox, tp mcp). Without it (nil) the log is
	// judged as the spec's fixtures are: a self-signed first principal is
	// taken as it is, and a project without one applies unsigned
	// settlements — for the fixture runner and unit tests of the format,
	// never for a registrar.
	Trust *trust.Store
}

// OpenLog returns the log rooted at dir. Nothing is created until a record
// is written.
func OpenLog(dir string) *Log { return &Log{Dir: dir} }

// DefaultActsDir is $TP_ACTS, else the XDG data dir tp/acts
// ($XDG_DATA_HOME, else ~/.local/share).
func DefaultActsDir(getenv func(string) string) (string, error) {
	if d := getenv("TP_ACTS"); d != "" {
		return d, nil
	}
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tp", "acts"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("no acts dir: set TP_ACTS or use --acts-dir (%v)", err)
		}
	}
	return filepath.Join(home, ".local", "share", "tp", "acts"), nil
}

// DefaultCacheDir is $XDG_CACHE_HOME/tp/acts, else ~/.cache/tp/acts; ""
// when neither is known (no cache).
func DefaultCacheDir(getenv func(string) string) string {
	if d := getenv("XDG_CACHE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tp", "acts")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".cache", "tp", "acts")
	}
	return ""
}

// EncodeName turns a record id or project name into a file name that is safe
// on every common filesystem, including case-insensitive ones: lowercase
// ASCII letters, digits, '-' and '_' stay; an uppercase letter becomes '^'
// and its lowercase; every other byte (and a leading '.') becomes '~' and two
// lowercase hex digits. Names that would be too long keep a readable prefix
// and end in '~~' and a SHA-256 digest of the whole id.
func EncodeName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_', c == '.' && i > 0:
			b.WriteByte(c)
		case c >= 'A' && c <= 'Z':
			b.WriteByte('^')
			b.WriteByte(c + 'a' - 'A')
		default:
			fmt.Fprintf(&b, "~%02x", c)
		}
	}
	n := b.String()
	if len(n) > maxNameLen {
		sum := sha256.Sum256([]byte(s))
		n = n[:maxNameLen-66] + "~~" + hex.EncodeToString(sum[:])
	}
	return n
}

const maxNameLen = 200 // leaves room for ".json" and temp prefixes under 255

// DecodeName reverses EncodeName; ok is false for a hashed or foreign name.
func DecodeName(n string) (string, bool) {
	if strings.Contains(n, "~~") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(n); i++ {
		c := n[i]
		switch {
		case c == '^' && i+1 < len(n) && n[i+1] >= 'a' && n[i+1] <= 'z':
			b.WriteByte(n[i+1] - 'a' + 'A')
			i++
		case c == '~' && i+2 < len(n):
			v, err := hex.DecodeString(n[i+1 : i+3])
			if err != nil {
				return "", false
			}
			b.WriteByte(v[0])
			i += 2
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			b.WriteByte(c)
		default:
			return "", false
		}
	}
	s := b.String()
	if EncodeName(s) != n {
		return "", false
	}
	return s, true
}

// ProjectDir is the folder of one project's log.
func (l *Log) ProjectDir(project string) string { return filepath.Join(l.Dir, EncodeName(project)) }

// RecordsDir holds one project's records.
func (l *Log) RecordsDir(project string) string {
	return filepath.Join(l.ProjectDir(project), "records")
}

// AckedDir holds one project's acknowledgements.
func (l *Log) AckedDir(project string) string { return filepath.Join(l.ProjectDir(project), "acked") }

// RecordPath is where the record with this id lives.
func (l *Log) RecordPath(project, id string) string {
	return filepath.Join(l.RecordsDir(project), EncodeName(id)+".json")
}

// WriteOutcome says what Write did.
type WriteOutcome int

const (
	Written   WriteOutcome = iota // the record is new and now durable in the log
	Duplicate                     // the log already held this record: nothing written
)

func (o WriteOutcome) String() string {
	if o == Duplicate {
		return "duplicate"
	}
	return "written"
}

// LogConflictError is a write of a record whose id the log already holds
// with different content (D8): refused, nothing written.
type LogConflictError struct {
	ID   string
	Path string
}

func (e *LogConflictError) Error() string {
	return fmt.Sprintf("%s: conflicting record: the log already holds a different record with id %q", e.Path, e.ID)
}

func (e *LogConflictError) Unwrap() error { return &acts.ConflictError{ID: e.ID} }

// Write validates a record and adds it to its project's log. Writing a
// record the log already holds is a Duplicate, not an error; a different
// record under the same id is a *LogConflictError. The record is stored as
// canonical JSON (D1), unknown fields kept in place.
func (l *Log) Write(raw []byte) (WriteOutcome, error) {
	return l.write(raw, nil)
}

// write is Write; with a batch the caller commits it (one folder sync for
// many records).
func (l *Log) write(raw []byte, b *durable.Batch) (WriteOutcome, error) {
	v, r, _, err := acts.ValidateRaw(raw)
	if err != nil {
		return 0, err
	}
	id, project := r.ID, r.Project
	if err := acts.CheckProjectName(project); err != nil {
		return 0, fmt.Errorf("record log: record %q: %w; not written", sanitize.Line(id), err)
	}
	data := ojson.Canonical(v)
	if len(data) > MaxRecordFile {
		// A reader skips it (Load): writing it would make the act vanish.
		return 0, fmt.Errorf("record log: record %q is %d bytes, more than the %d any reader takes; not written", sanitize.Line(id), len(data), MaxRecordFile)
	}
	dir := l.RecordsDir(project)
	path := l.RecordPath(project, id)
	if err := l.mkdirInside(dir); err != nil {
		return 0, fmt.Errorf("record log: %w", err)
	}
	err = durable.CreateExclusive(path, data, 0o644, b)
	if err == nil {
		return Written, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return 0, fmt.Errorf("record log: writing %s: %w", path, err)
	}
	return l.existing(path, id, data)
}

// WriteAll writes records in order, as WriteRecord does, and stops at the
// first failure. The records are staged under temporary names, flushed
// together (internal/durable.Staged: one syncfs for a large batch), and
// only then linked into place, so a record file never appears short or
// empty after a crash, and a batch of thousands costs one flush, not one
// fsync per record. When WriteAll returns, every record it reports written
// is durable.
func (l *Log) WriteAll(rs []acts.Record) ([]WriteOutcome, error) {
	type item struct {
		id, path string
		data     []byte
	}
	items := make([]item, 0, len(rs))
	var ferr error
	for _, r := range rs {
		// Validated once, as built, and encoded once.
		v, err := acts.EncodeRecordValue(r)
		if err != nil {
			ferr = err
			break
		}
		id, project := v.Get("id").Text(), v.Get("project").Text()
		if err := acts.CheckProjectName(project); err != nil {
			ferr = fmt.Errorf("record log: record %q: %w; not written", sanitize.Line(id), err)
			break
		}
		items = append(items, item{id: id, path: l.RecordPath(project, id), data: ojson.Canonical(v)})
	}
	st := durable.NewStaged(len(items))
	made := map[string]bool{}
	staged := 0
	for _, it := range items {
		dir := filepath.Dir(it.path)
		if !made[dir] {
			if err := l.mkdirInside(dir); err != nil {
				ferr = fmt.Errorf("record log: %w", err)
				break
			}
			made[dir] = true
		}
		if err := st.Add(it.path, it.data, 0o644); err != nil {
			ferr = fmt.Errorf("record log: writing %s: %w", it.path, err)
			break
		}
		staged++
	}
	out := make([]WriteOutcome, 0, staged)
	perr := st.Publish(func(i int, err error) error {
		if err == nil {
			out = append(out, Written)
			return nil
		}
		it := items[i]
		if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("record log: writing %s: %w", it.path, err)
		}
		o, err := l.existing(it.path, it.id, it.data)
		if err != nil {
			return err
		}
		out = append(out, o)
		return nil
	})
	if perr != nil {
		ferr = perr
	}
	return out, ferr
}

// existing judges a record whose file is already in the log: the same
// content is a Duplicate, other content a *LogConflictError.
func (l *Log) existing(path, id string, data []byte) (WriteOutcome, error) {
	old, rerr := ReadLimited(path, MaxRecordFile)
	if rerr != nil {
		return 0, fmt.Errorf("record log: reading %s: %w", path, rerr)
	}
	same, oerr := sameContent(old, data)
	if oerr != nil {
		return 0, fmt.Errorf("record log: %s holds an unreadable file where record %q belongs (%v); move it away to write the record", path, id, oerr)
	}
	if !same {
		return 0, &LogConflictError{ID: id, Path: path}
	}
	return Duplicate, nil
}

// WriteRecord is Write for a Record value.
func (l *Log) WriteRecord(r acts.Record) (WriteOutcome, error) {
	b, err := acts.EncodeRecord(r)
	if err != nil {
		return 0, err
	}
	return l.Write(b)
}

// tmpPrefix starts the writers' temporary files, which readers skip.
const tmpPrefix = durable.TempPrefix

// sameContent compares two records as JSON values: member order, spacing
// and number spelling do not matter.
func sameContent(a, b []byte) (bool, error) {
	na, err := normalJSON(a)
	if err != nil {
		return false, err
	}
	nb, err := normalJSON(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(na, nb), nil
}

func normalJSON(b []byte) ([]byte, error) {
	v, err := ojson.ParseStrict(b)
	if err != nil {
		return nil, err
	}
	var x any
	if err := json.Unmarshal(ojson.Compact(v), &x); err != nil {
		return nil, err
	}
	return json.Marshal(x) // maps marshal with sorted keys
}

// Ack records that the registrar applied these records to the document. Call
// it only after the document write is durable (§4): an ack says "this
// settlement is in the document", and a lost ack only means it is applied
// again, which changes nothing — so the ack files are not synced one by one;
// the folder is synced once at the end.
func (l *Log) Ack(project string, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	dir := l.AckedDir(project)
	if err := l.mkdirInside(dir); err != nil {
		return fmt.Errorf("record log: %w", err)
	}
	batch := durable.NewBatch(len(ids))
	for _, id := range ids {
		path := filepath.Join(dir, EncodeName(id))
		err := durable.CreateExclusive(path, []byte(id+"\n"), 0o644, batch)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("record log: acknowledging %q: %w", id, err)
		}
	}
	batch.Dir(dir)
	if err := batch.Commit(); err != nil {
		return fmt.Errorf("record log: %w", err)
	}
	return nil
}
