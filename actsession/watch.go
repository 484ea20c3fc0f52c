package actsession

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fsnotify/fsnotify"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/durable"
)

// Watching the log: the operating system says when a record file appears
// (fsnotify: inotify, kqueue, ReadDirectoryChangesW), so a watcher costs
// nothing while nothing happens — no polling. Records are linked into place
// whole (D9), so a file that appears is a complete record.

// WatchTypes are the record types a principal wants to hear about by
// default: a new act, an act whose terms changed (what they are asked is
// not what they heard of first, D19-terms), a claim that one is done, a
// need withdrawn.
var WatchTypes = []string{acts.TypeRaised, acts.TypeAmended, acts.TypeClaimed, acts.TypeWithdrawn}

// WatchRequest says what to watch.
type WatchRequest struct {
	Project string          // "" for every project, including ones created later
	Types   map[string]bool // record types to report
	// Ready is called once the watches are in place: records written
	// after it are reported.
	Ready func()
	// Emit receives each new record, with its file's bytes, in the order
	// the files appeared; files that appear together (a project folder
	// moved in, a pull) come by time, then raise before what answers it.
	// An error stops the watch.
	Emit func(r acts.Record, raw []byte) error
	// Problem receives files that appeared but are not valid records.
	Problem func(recordlog.LogProblem)
}

// Watch reports records written to the log from now on until ctx ends.
func Watch(ctx context.Context, l *recordlog.Log, req WatchRequest) error {
	if err := os.MkdirAll(l.Dir, 0o755); err != nil {
		return fmt.Errorf("record log: %w", err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watching %s: %w", l.Dir, err)
	}
	defer w.Close()
	x := &watch{l: l, w: w, req: req, seen: map[string]bool{}}
	if err := w.Add(l.Dir); err != nil {
		return fmt.Errorf("watching %s: %w", l.Dir, err)
	}
	entries, err := os.ReadDir(l.Dir)
	if err != nil {
		return fmt.Errorf("record log: %w", err)
	}
	for _, e := range entries {
		if err := x.project(filepath.Join(l.Dir, e.Name()), false); err != nil {
			return err
		}
	}
	if req.Ready != nil {
		req.Ready()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were dropped: look at every watched folder again.
				if err := x.rescan(); err != nil {
					return err
				}
				continue
			}
			return fmt.Errorf("watching %s: %w", l.Dir, err)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Rename) && !ev.Has(fsnotify.Write) {
				continue
			}
			if err := x.event(ev.Name); err != nil {
				return err
			}
		}
	}
}

type watch struct {
	l    *recordlog.Log
	w    *fsnotify.Watcher
	req  WatchRequest
	seen map[string]bool // record files already there or reported
	dirs []string        // records folders watched
}

// project starts watching a project folder and its records folder; with
// emit, the records already in it are new (the folder just appeared, say
// by a git pull) and are reported.
func (x *watch) project(dir string, emit bool) error {
	name := filepath.Base(dir)
	if strings.HasPrefix(name, ".") {
		return nil
	}
	p, ok := recordlog.DecodeName(name)
	if !ok || (x.req.Project != "" && p != x.req.Project) {
		return nil
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return nil // a link is not followed (D9)
	}
	if err := x.w.Add(dir); err != nil {
		return fmt.Errorf("watching %s: %w", dir, err)
	}
	return x.records(filepath.Join(dir, "records"), emit)
}

func (x *watch) records(dir string, emit bool) error {
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return nil // a link is not followed (D9)
	}
	for _, d := range x.dirs {
		if d == dir {
			return x.scan(dir, emit)
		}
	}
	if err := x.w.Add(dir); err != nil {
		return fmt.Errorf("watching %s: %w", dir, err)
	}
	x.dirs = append(x.dirs, dir)
	return x.scan(dir, emit)
}

func (x *watch) scan(dir string, emit bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record log: %w", err)
	}
	// Files found together (a folder that appeared, a pull, an overflow)
	// are reported in the order they were written as far as records tell
	// it — time, then a need before what answers it — not in file-name
	// order, where a claim ("c:…") would come before its raise ("r:…").
	var found []watched
	vs := &verifiers{} // the files found together are checked against one reading of the principals
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !emit {
			x.seen[path] = true
			continue
		}
		if f, ok := x.read(path, vs); ok {
			found = append(found, f)
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i].r, found[j].r
		if a.TS != b.TS {
			return a.TS < b.TS
		}
		if ra, rb := typeRank(a.Type), typeRank(b.Type); ra != rb {
			return ra < rb
		}
		return a.ID < b.ID
	})
	for _, f := range found {
		if err := x.req.Emit(f.r, f.raw); err != nil {
			return err
		}
	}
	return nil
}

// watched is a record file read whole, to be reported.
type watched struct {
	r   acts.Record
	raw []byte
}

func typeRank(t string) int {
	for i, x := range acts.RecordTypes {
		if x == t {
			return i
		}
	}
	return len(acts.RecordTypes)
}

func (x *watch) rescan() error {
	for _, d := range x.dirs {
		if err := x.scan(d, true); err != nil {
			return err
		}
	}
	return nil
}

func (x *watch) event(path string) error {
	parent := filepath.Dir(path)
	switch {
	case parent == x.l.Dir:
		return x.project(path, true)
	case filepath.Base(path) == "records" && filepath.Dir(parent) == x.l.Dir:
		if p, ok := recordlog.DecodeName(filepath.Base(parent)); ok && (x.req.Project == "" || p == x.req.Project) {
			return x.records(path, true)
		}
		return nil
	case filepath.Base(parent) == "records":
		return x.file(path)
	}
	return nil
}

// file reports one record file the first time it is seen whole.
func (x *watch) file(path string) error {
	f, ok := x.read(path, &verifiers{})
	if !ok {
		return nil
	}
	return x.req.Emit(f.r, f.raw)
}

// verifiers reads a project's principals once for the files found
// together, and again for files that arrive later (a principal change
// between them counts).
type verifiers struct {
	by map[string]*recordlog.Verifier
}

func (vs *verifiers) of(l *recordlog.Log, project string) (*recordlog.Verifier, error) {
	if v, ok := vs.by[project]; ok {
		return v, nil
	}
	v, err := l.Verifier(project)
	if err != nil {
		return nil, err
	}
	if vs.by == nil {
		vs.by = map[string]*recordlog.Verifier{}
	}
	vs.by[project] = v
	return v, nil
}

// read reads a record file the first time it is seen whole; ok says it is
// one of the types asked for. Problems are reported here, once.
func (x *watch) read(path string, vs *verifiers) (_ watched, ok bool) {
	name := filepath.Base(path)
	if x.seen[path] || durable.IsTemp(name) || !strings.HasSuffix(name, ".json") {
		return watched{}, false
	}
	project, ok := recordlog.DecodeName(filepath.Base(filepath.Dir(filepath.Dir(path))))
	if !ok {
		return watched{}, false
	}
	prob := func(msg string) (watched, bool) {
		x.seen[path] = true
		if x.req.Problem != nil {
			x.req.Problem(recordlog.LogProblem{Path: path, Msg: msg})
		}
		return watched{}, false
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return watched{}, false // gone again
	}
	if !fi.Mode().IsRegular() {
		return prob("not a record file; skipped")
	}
	if fi.Size() > recordlog.MaxRecordFile {
		return prob(fmt.Sprintf("larger than any record (limit %d bytes); skipped", recordlog.MaxRecordFile))
	}
	raw, err := recordlog.ReadLimited(path, recordlog.MaxRecordFile)
	if err != nil {
		return prob(fmt.Sprintf("unreadable: %v; skipped", err))
	}
	r, err := acts.DecodeRecord(raw)
	if err != nil {
		return prob(fmt.Sprintf("invalid record: %v; skipped", err))
	}
	if r.Project != project || recordlog.EncodeName(r.ID)+".json" != name {
		return prob(fmt.Sprintf("holds record %q of project %q, which does not belong here; skipped", r.ID, r.Project))
	}
	x.seen[path] = true
	if !x.req.Types[r.Type] {
		return watched{}, false
	}
	if acts.PrincipalSide(r) {
		// A settlement, reopening or principal's note counts only when it
		// is the principal's (D19): anyone who writes the acts folder can
		// write the file, and a watch hands records to the person's own
		// commands (D19-watch).
		v, err := vs.of(x.l, project)
		if err != nil {
			return prob(fmt.Sprintf("its principals cannot be read: %v; not reported", err))
		}
		by, rej := v.Verify(path, r, raw)
		if rej != nil {
			return prob(fmt.Sprintf("%s %s is not the principal's: %s; not reported", r.Type, r.ID, rej.Why))
		}
		r.SignedBy = by
	}
	return watched{r, raw}, true
}
