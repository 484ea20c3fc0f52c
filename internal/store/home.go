// Package home is the passport store on disk: the record that stays home
// (TaskPack 0.1 §3.1, §4.3; D14, D15).
//
// The store is a directory compatible with the reference implementation's
// (task-passport 0.3.0, store.js): one <id>.json per passport holding its
// 2origin/0.1 state object in D1 canonical bytes, a lock file <id>.json.lock
// created exclusively for every save and holding {"pid":…,"created_at":…}
// (stale after 30 s when that pid is gone), temp file + fsync + rename, and
// expected_version conflict detection. A passport's luggage lives in
// <id>.files/. A store written by task-passport 0.3.0 can be listed and
// opened here, and a passport saved here opens there: the save sets version,
// created_at and updated_at exactly as the reference does.
//
// Unknown fields always survive a read → write: the state is an ojson.Value.
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tp-dev/tp/internal/filestamp"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/model"
)

// Store is a passport directory.
type Store struct {
	dir string

	// LockTimeout is how long a save waits for another writer's lock
	// before failing with "store is busy"; RetryDelay is the poll interval;
	// StaleAfter is the age after which a lock whose pid is gone may be
	// retired. The defaults are the reference's (5 s, 25 ms, 30 s).
	LockTimeout time.Duration
	RetryDelay  time.Duration
	StaleAfter  time.Duration

	// Now is the clock; tests replace it.
	Now func() time.Time

	// Test seams, per store so tests that set them run in parallel:
	// beforeWrite runs between the version check and the write (widening
	// the window a missing lock would let another writer into); write,
	// nil for durable's own writes, is set to simulate a write that fails
	// before the rename lands; mint is MintID, replaced to force collisions.
	beforeWrite func()
	write       func(path string, data []byte, perm fs.FileMode) error
	mint        func() string

	landed landedCache                // LandedFrom's memory of the files it read
	sent   filestamp.Memo[[]SentPack] // Sent's memory of the records it read
}

// Open returns the store in dir. The directory need not exist yet: it is
// created by the first save, as the reference does; listing a missing store
// gives no passports.
func Open(dir string) (*Store, error) {
	if strings.TrimSpace(dir) == "" {
		return nil, errors.New("no passport store folder: set --store, TP_STORE or TASK_PASSPORT_STORE")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("passport store %s: %w", dir, err)
	}
	if info, err := os.Stat(abs); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("passport store %s is a file, not a folder", abs)
	}
	return &Store{
		dir:         abs,
		LockTimeout: 5 * time.Second,
		RetryDelay:  25 * time.Millisecond,
		StaleAfter:  30 * time.Second,
		Now:         time.Now,
		mint:        MintID,
		sent:        filestamp.Memo[[]SentPack]{Keep: sentKept},
	}, nil
}

// DefaultDir is the store location of D15: $TP_STORE, else
// $TASK_PASSPORT_STORE (the reference's variable), else the XDG data
// directory's tp/passports. It returns "" only when none can be found.
func DefaultDir(env func(string) string) string {
	if env == nil {
		env = os.Getenv
	}
	for _, k := range []string{"TP_STORE", "TASK_PASSPORT_STORE"} {
		if v := env(k); v != "" {
			return v
		}
	}
	if d := env("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tp", "passports")
	}
	if h := env("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "tp", "passports")
	}
	if d := env("LOCALAPPDATA"); d != "" {
		return filepath.Join(d, "tp", "passports")
	}
	return ""
}

// Dir is the store's absolute directory.
func (s *Store) Dir() string { return s.dir }

var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// ValidID checks a passport id the way the reference store does (at most 120
// characters of A–Z a–z 0–9 _ -), which also keeps every store path inside
// the store.
func ValidID(id string) error {
	if id == "" {
		return errors.New("passport id is required")
	}
	if len(id) > 120 || !idPattern().MatchString(id) {
		return fmt.Errorf("passport id %q contains unsupported characters (allowed: A-Z a-z 0-9 _ -, at most 120)", id)
	}
	return nil
}

// Path is the file holding passport id.
func (s *Store) Path(id string) string { return filepath.Join(s.dir, id+".json") }

// FilesDir is the folder holding passport id's luggage: <store>/<id>.files.
func (s *Store) FilesDir(id string) string { return filepath.Join(s.dir, id+".files") }

// ErrNotFound says the store holds no passport with that id.
type ErrNotFound struct {
	ID    string
	Store string
}

func (e *ErrNotFound) Error() string {
	return fmt.Sprintf("passport %s not found in store %s", e.ID, e.Store)
}

// Is lets errors.Is(err, fs.ErrNotExist) match.
func (e *ErrNotFound) Is(target error) bool { return target == fs.ErrNotExist }

// Stored is a passport as read from the store.
type Stored struct {
	V       *ojson.Value // the state object, unknown fields kept
	Version int64        // its version as the save protocol counts it
	Path    string
	Quirks  ojson.Quirks // what the lenient read overlooked (BOM, bad UTF-8, duplicate keys)
}

// Passport is the model view of the stored state.
func (st *Stored) Passport() model.Passport { return model.Passport{V: st.V} }

// Get reads passport id. A missing passport is *ErrNotFound; a file that
// is not a passport state is an error naming the file.
func (s *Store) Get(id string) (*Stored, error) {
	id = strings.TrimSpace(id)
	if err := ValidID(id); err != nil {
		return nil, err
	}
	st, err := readState(s.Path(id), id)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, &ErrNotFound{ID: id, Store: s.dir}
	}
	return st, nil
}

// readState reads a state file; nil, nil when it does not exist. Like the
// reference it tolerates a BOM (Windows shells write one) and insists on an
// object whose id matches the file name.
func readState(path, id string) (*Stored, error) {
	data, err := readRegular(path, MaxStateBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v, q, err := ojson.Parse(data)
	if err != nil {
		// The message can quote a byte of the file: keep it terminal-safe (D11).
		return nil, errors.New(sanitize.Line(path + ": " + err.Error()))
	}
	if v.Kind() != ojson.Object {
		return nil, fmt.Errorf("%s: not a passport state (the file holds a JSON %s, not an object)", path, v.Kind())
	}
	if got := v.Get("id"); got.Text() != id || got.Kind() != ojson.String {
		return nil, fmt.Errorf("%s: passport id mismatch (the file is named %s but holds id %s)", path, id, sanitize.Line(string(ojson.Compact(orNull(got)))))
	}
	ver, err := versionOf(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Stored{V: v, Version: ver, Path: path, Quirks: q}, nil
}

func orNull(v *ojson.Value) *ojson.Value {
	if v == nil {
		return ojson.NewNull()
	}
	return v
}

// versionOf reads "version" as the reference does, Number(version || 0):
// absent, null, false, 0 and "" are 0; a numeric string counts as its
// number. Anything that is not then a whole, non-negative number is an
// error rather than a guess, since the save protocol compares it exactly.
func versionOf(v *ojson.Value) (int64, error) {
	x := v.Get("version")
	var f float64
	switch x.Kind() {
	case ojson.Null:
		return 0, nil
	case ojson.Bool:
		if b, _ := x.Bool(); b {
			return 1, nil
		}
		return 0, nil
	case ojson.Number:
		f, _ = x.Number()
	case ojson.String:
		s := strings.TrimSpace(x.Text())
		if s == "" {
			return 0, nil
		}
		n, err := parseJSNumber(s)
		if err != nil {
			return 0, fmt.Errorf("version %q is not a number", x.Text())
		}
		f = n
	default:
		return 0, fmt.Errorf("version is a JSON %s, not a number", x.Kind())
	}
	if f != f || f < 0 || f > 1<<53-1 || f != float64(int64(f)) {
		return 0, fmt.Errorf("version %s is not a whole non-negative number", ojson.FormatNumber(f))
	}
	return int64(f), nil
}

// Entry is one passport in a listing.
type Entry struct {
	ID            string `json:"id"`
	Title         string `json:"title"`
	Version       int64  `json:"version"`
	UpdatedAt     string `json:"updated_at"`
	RootID        string `json:"root_id"`
	OpenAsks      int    `json:"open_asks"`
	PendingChecks int    `json:"pending_checks"`
	FailedChecks  int    `json:"failed_checks"` // marked failed here (issue 17: counted wherever checks are)

	V *ojson.Value `json:"-"` // the whole state
}

// Skipped is a file in the store that looked like a passport and could not
// be read; a listing reports it and carries on.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// List returns every passport in the store, most recently updated first
// (as the reference sorts: updated_at descending; ties by id). Files that
// are not named <id>.json are ignored, as the reference ignores them;
// unreadable <id>.json files are reported in the second result and never
// fail the listing. A store folder that does not exist lists as empty.
func (s *Store) List() ([]Entry, []Skipped, error) {
	des, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("passport store %s: %w", s.dir, err)
	}
	var out []Entry
	var skipped []Skipped
	for _, de := range des {
		name := de.Name()
		id, ok := passportFile(de)
		if !ok {
			continue
		}
		st, err := readState(filepath.Join(s.dir, name), id)
		if err != nil {
			reason := strings.TrimPrefix(trimPath(err.Error(), s.dir), name+": ")
			skipped = append(skipped, Skipped{File: name, Reason: reason})
			continue
		}
		if st == nil { // removed while we listed
			continue
		}
		out = append(out, EntryOf(st.V, st.Version))
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].UpdatedAt != out[j].UpdatedAt {
			return out[i].UpdatedAt > out[j].UpdatedAt
		}
		return out[i].ID < out[j].ID
	})
	return out, skipped, nil
}

// trimPath drops the store folder from a message that already names the file.
func trimPath(msg, dir string) string {
	return strings.ReplaceAll(msg, dir+string(filepath.Separator), "")
}

// EntryOf summarises a state for a listing.
func EntryOf(v *ojson.Value, version int64) Entry {
	p := model.Passport{V: v}
	e := Entry{
		ID:        p.ID(),
		Title:     p.Title(),
		Version:   version,
		UpdatedAt: v.Get("updated_at").Text(),
		V:         v,
	}
	// A passport made with `tp new` has no lineage: it is its own root.
	e.RootID = model.LineageOf(v.Get("lineage")).RootID
	if e.RootID == "" {
		e.RootID = e.ID
	}
	for _, a := range Asks(v) {
		if AskStatus(a) == model.AskOpen {
			e.OpenAsks++
		}
	}
	for _, c := range Checks(v) {
		switch CheckStatus(c) {
		case model.CheckPending:
			e.PendingChecks++
		case model.CheckFailed:
			e.FailedChecks++
		}
	}
	return e
}

// IDs lists the ids of the <id>.json files in the store without reading
// any of them, most recently modified first (ties by id): what the home
// screen can show at once while List reads every file. A file listed here
// may still be one List skips as unreadable.
func (s *Store) IDs() ([]string, error) {
	des, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("passport store %s: %w", s.dir, err)
	}
	type idTime struct {
		id string
		t  int64
	}
	var out []idTime
	for _, de := range des {
		id, ok := passportFile(de)
		if !ok {
			continue
		}
		var t int64
		if fi, err := de.Info(); err == nil {
			t = fi.ModTime().UnixNano()
		}
		out = append(out, idTime{id, t})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].t != out[j].t {
			return out[i].t > out[j].t
		}
		return out[i].id < out[j].id
	})
	ids := make([]string, len(out))
	for i, e := range out {
		ids[i] = e.id
	}
	return ids, nil
}

// passportFile is the id of the passport a store folder entry holds: a
// regular file named <id>.json with a valid id (D15), the one rule List,
// IDs and LandedFrom read the folder by.
func passportFile(de fs.DirEntry) (string, bool) {
	if !de.Type().IsRegular() {
		return "", false
	}
	return passportName(de.Name())
}

// passportName is the id a passport file of this name holds, if it is one.
func passportName(name string) (string, bool) {
	if !strings.HasSuffix(name, ".json") {
		return "", false
	}
	id := strings.TrimSuffix(name, ".json")
	if !idPattern().MatchString(id) || len(id) > 120 {
		return "", false
	}
	return id, true
}
