package recordlog

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

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
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
	Project string
	Records []acts.Record     // valid records of this project, sorted by id
	Raw     map[string][]byte // each record's file as read, by id (only with Log.KeepRaw)
	// Acked holds the records the registrar may take as already applied
	// to the document (or delivered): what acked/ names, except that with
	// a trust store a principal-side record counts only when this
	// machine's ledger holds it (or the principal's first change adopted
	// it). acked/ is in the acts folder, which every agent and every clone
	// writes; a forged entry there must not stop a settlement (D19).
	Acked map[string]bool
	// AckFiles are the ids acked/ names, as the folder says: what other
	// machines' registrars (or anyone) acknowledged.
	AckFiles map[string]bool
	// Ledger is this machine's applied ledger for the project (empty
	// without a trust store or a project identity).
	Ledger map[string]LedgerEntry
	// Unbacked are principal-side records acked/ names as applied that
	// this machine's registrar never applied (no ledger line), while it
	// has applied others of the project: a forged acknowledgement, or
	// another machine's. Sync applies them; verify reports them (D19).
	Unbacked []Vanished
	Problems []LogProblem // files skipped, sorted by path
	// Principals are the project's principals (D19). When the project has
	// any, every principal-side record in Records verified (SignedBy set);
	// the others are in Rejected, sorted by path, and never applied.
	Principals *Principals
	Rejected   []Rejected
	// Vanished are principal-side records this machine applied (its
	// ledger in the trust store) or that the log acknowledges (acked/),
	// that are no longer in the log: tampering, reported; sync changes
	// nothing for their keys until the person decides (D19).
	Vanished []Vanished
	// Withheld are principal-side records this machine applied (its
	// ledger, or acked/) that are now in Rejected: their key was removed
	// as compromised, or the principal history they rest on is rolled
	// back or forked. Sync leaves their acts as they are (no vanish claim
	// for a line such a record struck) until a principal decides again.
	Withheld []Rejected
}

// Vanished is an applied record that is gone from the log.
type Vanished struct {
	Path string `json:"path"`
	ID   string `json:"id"`
	Key  string `json:"key,omitempty"` // "" when only acked/ names it
	Why  string `json:"why"`
}

func (v Vanished) String() string { return v.Path + ": " + v.ID + ": " + v.Why }

// Sanitized is v made safe for a terminal (D11).
func (v Vanished) Sanitized() Vanished {
	return Vanished{Path: sanitize.Line(v.Path), ID: sanitize.Line(v.ID), Key: sanitize.Line(v.Key), Why: sanitize.Line(v.Why)}
}

// Frozen are the keys sync leaves alone: an applied record of theirs
// vanished.
func (ld *Loaded) Frozen() map[string]bool {
	out := map[string]bool{}
	for _, v := range ld.Vanished {
		if v.Key != "" {
			out[v.Key] = true
		}
	}
	return out
}

// Unauthenticated reports a project without principals judged without a
// trust store (the spec's fixtures): its settlements are applied unsigned.
// With a trust store such a project applies none (Principals.Blocked).
func (ld *Loaded) Unauthenticated() bool {
	return !ld.Principals.Has() && ld.Principals.Refusal() == ""
}

// Load reads every record and acknowledgement of one project. A missing
// log is an empty one. Files that are truncated, not JSON, not valid
// records, records of another project, or named for another id are
// reported in Problems and skipped. Every record is checked against its
// schema; with a CacheDir, bytes that already passed this exact schema set
// are recognised by digest instead of validated again (the result is the
// same; only the time differs).
func (l *Log) Load(project string) (*Loaded, error) {
	out := &Loaded{Project: project, Raw: map[string][]byte{}, Acked: map[string]bool{}, AckFiles: map[string]bool{}}
	dir := l.RecordsDir(project)
	if err := l.checkInside(dir); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("record log: %w", err)
	}
	pr, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, err
	}
	out.Principals = pr
	acked, ackProbs, err := l.loadAcked(project)
	if err != nil {
		return nil, err
	}
	out.AckFiles = acked
	ledger, err := l.ledger(pr.ProjectID)
	if err != nil {
		return nil, err
	}
	out.Ledger = ledger
	signed, err := l.signedLedger(pr.ProjectID)
	if err != nil {
		return nil, err
	}
	check := pr.Has() || pr.Refusal() != ""
	vc := &verifyContext{pr: pr, acked: acked, ledger: ledger, trusted: l.Trust != nil}
	cache := l.openCache(dir)
	// Records are decoded straight into the slice Load returns (compacted
	// in place afterwards): a large log is held once, not twice.
	type result struct {
		raw     []byte
		prob    *LogProblem
		digest  digest
		ok      bool
		rej     *Rejected
		changed bool // its bytes differ from those this machine applied
	}
	recs := make([]acts.Record, len(entries))
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
				if res.ok && check && acts.PrincipalSide(recs[i]) {
					recs[i].SignedBy, res.rej = vc.verify(filepath.Join(dir, entries[i].Name()), recs[i], res.raw)
				}
				if res.ok && acts.PrincipalSide(recs[i]) && (len(ledger) > 0 || len(signed) > 0) {
					e, ok := ledger[recs[i].ID]
					if !ok {
						e, ok = signed[recs[i].ID]
					}
					if ok && e.Digest != fileDigest(res.raw) {
						res.changed = true
					}
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
	changedIDs := map[string]bool{}
	for i := range results {
		if results[i].changed {
			changedIDs[recs[i].ID] = true
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
	out.Problems = append(out.Problems, ackProbs...)
	sort.Slice(out.Records, func(i, j int) bool { return out.Records[i].ID < out.Records[j].ID })
	sort.Slice(out.Problems, func(i, j int) bool { return out.Problems[i].Path < out.Problems[j].Path })
	sort.Slice(out.Rejected, func(i, j int) bool { return out.Rejected[i].Path < out.Rejected[j].Path })
	out.Acked = l.appliedSet(out)
	if l.Trust != nil {
		out.Vanished = l.vanished(out, ledger, signed, changedIDs)
		out.Unbacked = l.unbacked(out)
	}
	for _, rj := range out.Rejected {
		// Withheld means "this machine applied it": with a trust store only
		// its ledger says so; acked/ is anyone's word.
		_, mine := ledger[rj.ID]
		if !mine && l.Trust == nil {
			mine = acked[rj.ID]
		}
		if mine && rj.Key != "" {
			out.Withheld = append(out.Withheld, rj)
		}
	}
	return out, nil
}

// appliedSet is Loaded.Acked: what the registrar takes as already applied
// or delivered. Without a trust store (the spec's fixtures) it is acked/
// as it is. With one, a principal-side record counts only when this
// machine's ledger holds it or the principal's first change adopted it:
// both are outside what an agent or a remote writes (the ledger is in the
// trust store; an adoption is signed by the principal). Records of the
// other side (an agent's notes and relations) keep acked/: hiding one of
// them from delivery moves no principal's authority, and their writers
// could delete them from the log anyway.
func (l *Log) appliedSet(ld *Loaded) map[string]bool {
	if l.Trust == nil {
		return ld.AckFiles
	}
	out := make(map[string]bool, len(ld.AckFiles))
	for _, r := range ld.Records {
		if !acts.PrincipalSide(r) {
			if ld.AckFiles[r.ID] {
				out[r.ID] = true
			}
			continue
		}
		if _, ok := ld.Ledger[r.ID]; ok || (r.SignedBy != nil && r.SignedBy.Adopted) {
			out[r.ID] = true
		}
	}
	return out
}

// unbacked lists the trusted principal-side records acked/ names that
// this machine's registrar never applied, on a machine whose registrar
// has applied records of the project (its ledger is not empty): there an
// acknowledgement it did not write is a forged one or another machine's.
// On a machine that only settles (the principal's laptop) every
// acknowledgement is another machine's, and none is reported.
func (l *Log) unbacked(ld *Loaded) []Vanished {
	if len(ld.Ledger) == 0 {
		return nil
	}
	var out []Vanished
	for _, r := range ld.Records {
		if !ld.AckFiles[r.ID] || ld.Acked[r.ID] || !acts.PrincipalSide(r) {
			continue
		}
		out = append(out, Vanished{Path: filepath.Join(l.AckedDir(ld.Project), EncodeName(r.ID)), ID: r.ID, Key: r.Key, Why: UnbackedWhy})
	}
	return out
}

// UnbackedWhy is the rule an unbacked acknowledgement breaks.
const UnbackedWhy = "acked/ says this principal-side record was applied, but this machine's registrar never applied it (its ledger in the trust store has no line for it): a forged acknowledgement, or another machine's; tp acts sync applies it here (D19)"

// maxRecordFile bounds what Load reads of one file; records are small.
const MaxRecordFile = 1 << 20

func (l *Log) readRecordFile(project, dir string, e fs.DirEntry, cache *validCache, buf *[]byte) (acts.Record, []byte, digest, *LogProblem) {
	path := filepath.Join(dir, e.Name())
	prob := func(format string, a ...any) (acts.Record, []byte, digest, *LogProblem) {
		return acts.Record{}, nil, digest{}, &LogProblem{Path: path, Msg: fmt.Sprintf(format, a...)}
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
	if len(raw) > MaxRecordFile {
		return prob("larger than any record (limit %d bytes); skipped", MaxRecordFile)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return prob("empty file (a truncated write?); skipped")
	}
	if l.KeepRaw {
		raw = bytes.Clone(raw) // buf is reused for the next file
	}
	d := digestOf(raw)
	var r acts.Record
	cached := false
	if cache.has(d) {
		// These exact bytes passed the strict read and the schemas before:
		// only decode them. (Not with encoding/json into the struct: it
		// matches member names case-insensitively, so "OUTCOME" could
		// override "outcome" where the validated reading saw only one.)
		if v, err := ojson.ParseStrict(raw); err == nil && v.Kind() == ojson.Object {
			r, cached = acts.RecordFromValue(v), true
		}
	}
	if !cached {
		_, vr, _, err := acts.ValidateRaw(raw)
		if err != nil {
			var re *acts.RecordError
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
	if err := l.checkInside(dir); err != nil {
		return nil, nil, err
	}
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
		b, err := ReadLimited(path, MaxAckFile)
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

// Verifier checks principal-side records of one project exactly as Load
// checks each (the project's principals in the trust store, this machine's
// ledger for retired and compromised keys), with what it needs read once:
// a record Load would put in Rejected comes back as a Rejected. It is for
// readers that meet records a file at a time (tp acts watch) and must not
// pass on a settlement that does not count. A Verifier holds the
// principals as they were when it was made: make a new one for files that
// arrive later.
type Verifier struct {
	vc    *verifyContext
	check bool // false: a project judged without a trust store and without principals (the spec's fixtures), as Load
}

// Verifier reads what checking project's principal-side records needs.
func (l *Log) Verifier(project string) (*Verifier, error) {
	pr, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, err
	}
	if !pr.Has() && pr.Refusal() == "" {
		return &Verifier{}, nil
	}
	acked, _, err := l.loadAcked(project)
	if err != nil {
		return nil, err
	}
	ledger, err := l.ledger(pr.ProjectID)
	if err != nil {
		return nil, err
	}
	return &Verifier{vc: &verifyContext{pr: pr, acked: acked, ledger: ledger, trusted: l.Trust != nil}, check: true}, nil
}

// Verify checks one principal-side record, read from path.
func (v *Verifier) Verify(path string, r acts.Record, raw []byte) (*acts.SignedBy, *Rejected) {
	if !v.check {
		return nil, nil
	}
	return v.vc.verify(path, r, raw)
}

// verifyContext is what a principal-side record is checked against.
type verifyContext struct {
	pr      *Principals
	acked   map[string]bool
	ledger  map[string]LedgerEntry
	trusted bool // judged with a trust store
}

// verify checks one principal-side record: nothing applies while the
// project's principals are refused here; else its signature must be a
// current principal's over the record bound to the project's identity.
// A key removed as retired still counts for the records this machine had
// applied before (its ledger; without a trust store, acked/); a key
// removed as compromised counts for nothing.
func (vc *verifyContext) verify(path string, r acts.Record, raw []byte) (*acts.SignedBy, *Rejected) {
	pr := vc.pr
	rej := func(why string) *Rejected {
		return &Rejected{Path: path, ID: r.ID, Type: r.Type, Key: r.Key, Why: why}
	}
	if why := pr.Refusal(); why != "" {
		return nil, rej(why)
	}
	if a, ok := pr.Adopted[r.ID]; ok && r.Sig == "" && a.Digest == fileDigest(raw) {
		by := a.By
		return &by, nil
	}
	allowed := &sshsign.AllowedSigners{}
	for _, p := range pr.Chain {
		allowed.Signers = append(allowed.Signers, sshsign.AllowedSigner{Principals: []string{p.Name}, Key: p.Key})
	}
	applied := vc.acked[r.ID]
	if vc.trusted {
		e, ok := vc.ledger[r.ID]
		applied = ok && e.Digest == fileDigest(raw)
	}
	for _, rm := range pr.Removed {
		if rm.Reason == Retired && applied {
			allowed.Signers = append(allowed.Signers, sshsign.AllowedSigner{Principals: []string{rm.Name}, Key: rm.Key})
		}
	}
	by, err := acts.VerifyRecord(allowed, pr.ProjectID, raw)
	if err != nil {
		if sig := recordSig(raw); sig != "" {
			if k, kerr := sshsign.SignerOf(sig); kerr == nil {
				if rm, ok := pr.RemovedAs(k); ok {
					switch rm.Reason {
					case Compromised:
						return nil, rej(fmt.Sprintf("signed by %s %s, removed as compromised in principal change %s: nothing that key signed is trusted; a principal settles the act again", rm.Name, rm.Fingerprint(), rm.ChangeID))
					default:
						return nil, rej(fmt.Sprintf("signed by %s %s, retired in principal change %s before this machine applied it", rm.Name, rm.Fingerprint(), rm.ChangeID))
					}
				}
			}
		}
		return nil, rej(err.Error())
	}
	return by, nil
}

func recordSig(raw []byte) string {
	_, sig, _ := acts.SignedMessage(raw)
	return sig
}

// vanished lists the applied records gone from the log: in this machine's
// ledger, or acknowledged in acked/, but neither applied nor rejected now.
func (l *Log) vanished(ld *Loaded, ledger, signed map[string]LedgerEntry, changed map[string]bool) []Vanished {
	present := map[string]bool{}
	for _, r := range ld.Records {
		present[r.ID] = true
	}
	for _, r := range ld.Rejected {
		present[r.ID] = true
	}
	var out []Vanished
	for id, e := range ledger {
		switch {
		case changed[id]:
			out = append(out, Vanished{Path: l.RecordPath(ld.Project, id), ID: id, Key: e.Key, Why: "this machine applied this principal-side record, and its file has changed since (D19 tamper evidence: nothing is done for act " + e.Key + " until a person decides)"})
		case !present[id]:
			out = append(out, Vanished{Path: l.RecordPath(ld.Project, id), ID: id, Key: e.Key, Why: "this machine applied this principal-side record, and it is gone from the log (D19 tamper evidence: nothing is done for act " + e.Key + " until a person decides)"})
		}
	}
	// Signed here and not applied here: deleted before any registrar of
	// this machine saw it (a registrar elsewhere may never have either).
	for id, e := range signed {
		if _, applied := ledger[id]; applied {
			continue
		}
		switch {
		case changed[id]:
			out = append(out, Vanished{Path: l.RecordPath(ld.Project, id), ID: id, Key: e.Key, Why: "a principal signed this record on this machine, and its file has changed since (D19 tamper evidence: nothing is done for act " + e.Key + " until a person decides)"})
		case !present[id]:
			out = append(out, Vanished{Path: l.RecordPath(ld.Project, id), ID: id, Key: e.Key, Why: "a principal signed this record on this machine, and it is gone from the log (D19 tamper evidence: nothing is done for act " + e.Key + " until a person decides)"})
		}
	}
	for id := range ld.AckFiles {
		_, signedHere := signed[id]
		if _, mine := ledger[id]; !mine && !signedHere && !present[id] {
			out = append(out, Vanished{Path: l.RecordPath(ld.Project, id), ID: id, Why: "acked/ says this record was applied, and it is gone from the log (D19 tamper evidence)"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
