package acts

import (
	"bytes"
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

	"github.com/tp-dev/tp/internal/ojson"
)

// Reading the record log (D9): every record file of a project, checked
// against its schema, and for a project with principals, every
// principal-side record's signature (D19).

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
	// Principals are the project's principals (D19). When the project has
	// any, every principal-side record in Records verified (SignedBy set);
	// the others are in Rejected, sorted by path, and never applied.
	Principals *Principals
	Rejected   []Rejected
}

// Unauthenticated reports a project without principals: its settlements
// are applied unsigned (with a warning on every sync).
func (ld *Loaded) Unauthenticated() bool { return !ld.Principals.Has() }

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
	pr, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, err
	}
	out.Principals = pr
	cache := l.openCache(dir)
	// Records are decoded straight into the slice Load returns (compacted
	// in place afterwards): a large log is held once, not twice.
	type result struct {
		raw    []byte
		prob   *LogProblem
		digest digest
		ok     bool
		rej    *Rejected
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
				if res.ok && pr.Has() && PrincipalSide(recs[i]) {
					recs[i].SignedBy, res.rej = verifyLoaded(pr, filepath.Join(dir, entries[i].Name()), recs[i], res.raw)
				}
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
		case res.ok && res.rej != nil:
			out.Rejected = append(out.Rejected, *res.rej)
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
	if _, err := out.CheckPin(l, l.PinDir); err != nil {
		return nil, err
	}
	sort.Slice(out.Rejected, func(i, j int) bool { return out.Rejected[i].Path < out.Rejected[j].Path })
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
		if v, err := ojson.ParseStrict(raw); err == nil && v.Kind() == ojson.Object {
			r, cached = recordFromValue(v), true
		}
	}
	if !cached {
		_, vr, _, err := validateRaw(raw)
		if err != nil {
			var re *RecordError
			if errors.As(err, &re) && re.Schema == "" {
				return prob("not a complete JSON record (truncated?): %v; skipped", err)
			}
			return prob("invalid record: %v; skipped", err)
		}
		r = vr
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

// verifyLoaded checks one principal-side record of a project with
// principals: its signature must verify against allowed_signers, and
// allowed_signers must agree with the signed principal changes.
func verifyLoaded(pr *Principals, path string, r Record, raw []byte) (*SignedBy, *Rejected) {
	rej := func(why string) *Rejected {
		return &Rejected{Path: path, ID: r.ID, Type: r.Type, Key: r.Key, Why: why}
	}
	if pr.Mismatch != "" {
		return nil, rej("the project's principals cannot be trusted: " + pr.Mismatch)
	}
	if a, ok := pr.Adopted[r.ID]; ok && r.Sig == "" && a.Digest == fileDigest(raw) {
		by := a.By
		return &by, nil
	}
	by, err := VerifyRecord(pr.Allowed, raw)
	if err != nil {
		return nil, rej(err.Error())
	}
	return by, nil
}
