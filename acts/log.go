package acts

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
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
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

func (e *LogConflictError) Unwrap() error { return &ConflictError{ID: e.ID} }

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
	v, m, _, err := validateRaw(raw)
	if err != nil {
		return 0, err
	}
	id, project := m["id"].(string), m["project"].(string)
	data := ojson.Canonical(v)
	dir := l.RecordsDir(project)
	path := l.RecordPath(project, id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("record log: %w", err)
	}
	err = durable.CreateExclusive(path, data, 0o644, b)
	if err == nil {
		return Written, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return 0, fmt.Errorf("record log: writing %s: %w", path, err)
	}
	old, rerr := os.ReadFile(path)
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

// WriteAll writes records in order, as WriteRecord does, and stops at the
// first failure. Each record file is synced before it is linked into place;
// the folders are synced once at the end, so a batch costs one directory
// sync, not one per record. When WriteAll returns, every record it reports
// written is durable.
func (l *Log) WriteAll(rs []Record) ([]WriteOutcome, error) {
	out := make([]WriteOutcome, 0, len(rs))
	var batch durable.Batch // each record fsynced before it is linked
	var ferr error
	for _, r := range rs {
		b, err := EncodeRecord(r)
		if err != nil {
			ferr = err
			break
		}
		o, err := l.write(b, &batch)
		if err != nil {
			ferr = err
			break
		}
		out = append(out, o)
	}
	if err := batch.Commit(); err != nil && ferr == nil {
		ferr = fmt.Errorf("record log: %w", err)
	}
	return out, ferr
}

// WriteRecord is Write for a Record value.
func (l *Log) WriteRecord(r Record) (WriteOutcome, error) {
	b, err := EncodeRecord(r)
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

// LogProblem is a file in the log that was not read as a record: reported,
// skipped, never fatal and never rewritten.
type LogProblem struct {
	Path string
	Msg  string
}

func (p LogProblem) String() string { return p.Path + ": " + p.Msg }

// Loaded is what Load read from one project's log.
type Loaded struct {
	Project  string
	Records  []Record          // valid records of this project, sorted by id
	Raw      map[string][]byte // each record's file as read, by id (only with Log.KeepRaw)
	Acked    map[string]bool   // ids the registrar acknowledged
	Problems []LogProblem      // files skipped, sorted by path
}

// Load reads every record and acknowledgement of one project. A missing
// log is an empty one. Files that are truncated, not JSON, not valid
// records, records of another project, or named for another id are
// reported in Problems and skipped. Every record is checked against its
// schema; with a CacheDir, bytes that already passed this exact schema set
// are recognised by digest instead of validated again (the result is the
// same; only the time differs).
func (l *Log) Load(project string) (*Loaded, error) {
	out := &Loaded{Project: project, Raw: map[string][]byte{}, Acked: map[string]bool{}}
	dir := l.RecordsDir(project)
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("record log: %w", err)
	}
	cache := l.openCache(dir)
	// Records are decoded straight into the slice Load returns (compacted
	// in place afterwards): a large log is held once, not twice.
	type result struct {
		raw    []byte
		prob   *LogProblem
		digest digest
		ok     bool
	}
	recs := make([]Record, len(entries))
	results := make([]result, len(entries))
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 4096)
			for {
				i := int(next.Add(1) - 1)
				if i >= len(entries) {
					return
				}
				if strings.HasPrefix(entries[i].Name(), tmpPrefix) {
					continue // a writer's temp file, in flight or left by a crash
				}
				res := &results[i]
				recs[i], res.raw, res.digest, res.prob = l.readRecordFile(project, dir, entries[i], cache, &buf)
				res.ok = res.prob == nil
			}
		}()
	}
	wg.Wait()
	fresh := false
	n := 0
	for i := range results {
		res := &results[i]
		switch {
		case res.prob != nil:
			out.Problems = append(out.Problems, *res.prob)
		case res.ok:
			recs[n] = recs[i]
			n++
			if l.KeepRaw {
				out.Raw[recs[i].ID] = res.raw
			}
			if !cache.has(res.digest) {
				fresh = true
			}
		}
	}
	clear(recs[n:])
	out.Records = recs[:n:n]
	if fresh {
		ds := make([]digest, 0, len(out.Records))
		for _, res := range results {
			if res.ok {
				ds = append(ds, res.digest)
			}
		}
		l.saveCache(dir, ds)
	}
	acked, probs, err := l.loadAcked(project)
	if err != nil {
		return nil, err
	}
	out.Acked = acked
	out.Problems = append(out.Problems, probs...)
	sort.Slice(out.Records, func(i, j int) bool { return out.Records[i].ID < out.Records[j].ID })
	sort.Slice(out.Problems, func(i, j int) bool { return out.Problems[i].Path < out.Problems[j].Path })
	return out, nil
}

// maxRecordFile bounds what Load reads of one file; records are small.
const maxRecordFile = 1 << 20

func (l *Log) readRecordFile(project, dir string, e fs.DirEntry, cache *validCache, buf *[]byte) (Record, []byte, digest, *LogProblem) {
	path := filepath.Join(dir, e.Name())
	prob := func(format string, a ...any) (Record, []byte, digest, *LogProblem) {
		return Record{}, nil, digest{}, &LogProblem{Path: path, Msg: fmt.Sprintf(format, a...)}
	}
	if !e.Type().IsRegular() {
		return prob("not a record file (a %s); skipped", kindOf(e))
	}
	if !strings.HasSuffix(e.Name(), ".json") {
		return prob("not a record file (no .json suffix); skipped")
	}
	raw, err := readSmall(path, *buf)
	if err != nil {
		return prob("unreadable: %v; skipped", err)
	}
	*buf = raw[:0]
	if len(raw) > maxRecordFile {
		return prob("larger than any record (limit %d bytes); skipped", maxRecordFile)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return prob("empty file (a truncated write?); skipped")
	}
	if l.KeepRaw {
		raw = bytes.Clone(raw) // buf is reused for the next file
	}
	d := digestOf(raw)
	var r Record
	cached := false
	if cache.has(d) {
		// These exact bytes passed the strict read and the schemas before:
		// only decode them. (Not with encoding/json into the struct: it
		// matches member names case-insensitively, so "OUTCOME" could
		// override "outcome" where the validated reading saw only one.)
		if v, err := ojson.ParseStrict(raw); err == nil {
			if m, ok := toAny(v).(map[string]any); ok {
				r, cached = recordFromDoc(m), true
			}
		}
	}
	if !cached {
		_, m, _, err := validateRaw(raw)
		if err != nil {
			var re *RecordError
			if errors.As(err, &re) && re.Schema == "" {
				return prob("not a complete JSON record (truncated?): %v; skipped", err)
			}
			return prob("invalid record: %v; skipped", err)
		}
		r = recordFromDoc(m)
	}
	if r.Project != project {
		return prob("record %q is for project %q, not %q; skipped", r.ID, r.Project, project)
	}
	if want := EncodeName(r.ID) + ".json"; want != e.Name() {
		return prob("holds record %q, which belongs in %s; skipped", r.ID, want)
	}
	return r, raw, d, nil
}

func kindOf(e fs.DirEntry) string {
	switch {
	case e.IsDir():
		return "directory"
	case e.Type()&fs.ModeSymlink != 0:
		return "symbolic link"
	default:
		return "special file"
	}
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
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

func (l *Log) loadAcked(project string) (map[string]bool, []LogProblem, error) {
	dir := l.AckedDir(project)
	acked := map[string]bool{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return acked, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("record log: %w", err)
	}
	var probs []LogProblem
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, tmpPrefix) {
			continue
		}
		path := filepath.Join(dir, n)
		if !e.Type().IsRegular() {
			probs = append(probs, LogProblem{path, fmt.Sprintf("not an acknowledgement (a %s); skipped", kindOf(e))})
			continue
		}
		if id, ok := DecodeName(n); ok {
			acked[id] = true
			continue
		}
		// Hashed names keep the id inside.
		b, err := os.ReadFile(path)
		id := strings.TrimSuffix(string(b), "\n")
		if err != nil || id == "" || EncodeName(id) != n {
			probs = append(probs, LogProblem{path, "not an acknowledgement written by tp; skipped"})
			continue
		}
		acked[id] = true
	}
	return acked, probs, nil
}

// Projects lists the projects that have a log folder, by decoded name;
// folders whose names tp did not write are reported.
func (l *Log) Projects() ([]string, []LogProblem, error) {
	entries, err := os.ReadDir(l.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("record log: %w", err)
	}
	var out []string
	var probs []LogProblem
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue // .git, .stfolder and the like
		}
		p, ok := DecodeName(e.Name())
		if !e.IsDir() || !ok {
			probs = append(probs, LogProblem{filepath.Join(l.Dir, e.Name()), "not a project folder written by tp; skipped"})
			continue
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out, probs, nil
}

// FindKey returns the projects whose logs hold records for key, so commands
// given only a key can find its act.
func (l *Log) FindKey(key string) ([]string, error) {
	projects, _, err := l.Projects()
	if err != nil {
		return nil, err
	}
	var found []string
	for _, p := range projects {
		ld, err := l.Load(p)
		if err != nil {
			return nil, err
		}
		for _, r := range ld.Records {
			if r.Key == key {
				found = append(found, p)
				break
			}
		}
	}
	return found, nil
}
