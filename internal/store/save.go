package store

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/owner"
	"github.com/tp-dev/tp/internal/sanitize"
)

// ConflictError is a save whose expected_version is not the stored version:
// someone else saved the passport since it was read.
type ConflictError struct {
	ID       string
	Expected int64
	Found    int64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("conflict: passport %s changed since it was read: expected version %d, found %d (read it again and redo the change)",
		e.ID, e.Expected, e.Found)
}

// BusyError is a save that could not get the lock within LockTimeout.
type BusyError struct {
	Lock string
	// Rule is when this lock is retired, as retireStale judged it last
	// ("… retired once its file time is 30s away from now (it is 4s)").
	Rule string
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("passport store is busy: %s is held by another writer", e.Lock)
}

// Timestamp formats t as the reference stamps passports: RFC 3339 UTC,
// whole seconds ("2026-08-16T03:11:04Z").
func Timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// Save writes state v as the next version of its passport, provided the
// stored version is still expectedVersion (0 for a passport not yet in the
// store). It returns the saved state and leaves v unchanged; the saved
// state shares v's members below the top level, so neither is to be
// changed below it after (copy what you change).
//
// Like the reference's save: the lock <id>.json.lock is held for the whole
// read-compare-write; the saved object is v with id, version (stored + 1),
// created_at (the stored one, else v's, else now) and updated_at (now) set
// in place — keys v lacks are added last in that order; and the file is
// replaced atomically (temp file, fsync, rename, fsync of the folder), so a
// failed or interrupted save leaves the previous version whole.
func (s *Store) Save(v *ojson.Value, expectedVersion int64) (*ojson.Value, error) {
	if v.Kind() != ojson.Object {
		return nil, errors.New("passport state must be a JSON object")
	}
	if expectedVersion < 0 || expectedVersion > 1<<53-1 {
		return nil, fmt.Errorf("expected_version must be a non-negative integer, not %d", expectedVersion)
	}
	idv, ok := v.Get("id").Str()
	if !ok {
		return nil, errors.New("passport state has no string id")
	}
	id := strings.TrimSpace(idv)
	if err := ValidID(id); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("passport store %s: %w", s.dir, err)
	}
	path := s.Path(id)
	lock := path + ".lock"
	if err := s.acquire(lock); err != nil {
		return nil, err
	}
	defer os.Remove(lock)

	existing, err := readState(path, id)
	if err != nil {
		return nil, err
	}
	var current int64
	if existing != nil {
		current = existing.Version
	}
	if current != expectedVersion {
		return nil, &ConflictError{ID: id, Expected: expectedVersion, Found: current}
	}

	if s.beforeWrite != nil {
		s.beforeWrite()
	}
	now := Timestamp(s.now())
	// Only the top level changes: the saved state shares the rest with v
	// (a deep copy of a passport of 110,000 facts was 40 MB, issue 20).
	saved := v.Shallow()
	saved.Set("id", ojson.NewString(id))
	saved.Set("version", ojson.NewInt(current+1))
	created := ojson.NewString(now)
	if existing != nil && truthy(existing.V.Get("created_at")) {
		created = existing.V.Get("created_at").Clone()
	} else if truthy(v.Get("created_at")) {
		created = v.Get("created_at").Clone()
	}
	saved.Set("created_at", created)
	saved.Set("updated_at", ojson.NewString(now))

	if err := s.writeState(path, saved); err != nil {
		return nil, err
	}
	return saved, nil
}

// writeState writes v canonically (D1) to path, atomically; without a test's
// write seam it is encoded straight into the file, not into a buffer the
// size of the passport first (issue 20).
func (s *Store) writeState(path string, v *ojson.Value) error {
	if s.write != nil {
		return s.write(path, ojson.Canonical(v), 0o600)
	}
	return durable.Write(path, 0o600, func(w *bufio.Writer) error {
		if err := ojson.WriteCanonical(w, v); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	})
}

// Update reads passport id, lets fn change it, and saves it with the version
// read as expected_version: a concurrent change in between is a
// *ConflictError, never a lost update.
func (s *Store) Update(id string, fn func(v *ojson.Value) error) (*ojson.Value, error) {
	st, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	v := st.V.Clone()
	if err := fn(v); err != nil {
		return nil, err
	}
	return s.Save(v, st.Version)
}

// Apply is Update that, on a conflict, reads the passport again and
// re-applies fn, a few times. Use it only when fn states an intent that is
// right on whatever version it meets ("a1 is answered with X", "c1
// passed"); a change computed from what a person saw (a merge preview)
// must use Update and show the conflict.
func (s *Store) Apply(id string, fn func(v *ojson.Value) error) (*ojson.Value, error) {
	for attempt := 1; ; attempt++ {
		v, err := s.Update(id, fn)
		var ce *ConflictError
		if errors.As(err, &ce) && attempt < applyAttempts {
			continue
		}
		return v, err
	}
}

const applyAttempts = 10

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// truthy is JavaScript's truthiness for a JSON value (absent is undefined).
func truthy(v *ojson.Value) bool {
	switch v.Kind() {
	case ojson.Null:
		return false
	case ojson.Bool:
		b, _ := v.Bool()
		return b
	case ojson.Number:
		f, _ := v.Number()
		return f != 0 && f == f
	case ojson.String:
		return v.Text() != ""
	}
	return true
}

// writeAtomic replaces path with data durably (internal/durable): on any
// failure path is untouched and no temporary file is left.
func (s *Store) writeAtomic(path string, data []byte) error {
	if s.write == nil {
		return durable.WriteFile(path, data, 0o600)
	}
	return s.write(path, data, 0o600)
}

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// lockBody is what a lock file holds, as the reference writes it.
type lockBody struct {
	PID       int    `json:"pid"`
	CreatedAt string `json:"created_at"`
	Host      string `json:"host,omitempty"`
}

// Lock takes the store-wide lock named name (<store>/<name>.lock), with the
// same protocol as a passport's lock: created exclusively, holding the pid,
// retired when stale, waited for up to LockTimeout. It serialises work that
// spans passports, such as landing one pack (so two landings of the same
// file cannot both miss each other). The returned func releases it.
func (s *Store) Lock(name string) (func(), error) {
	if err := ValidID(name); err != nil {
		return nil, fmt.Errorf("lock name: %w", err)
	}
	// A store folder made only to hold the lock goes again with it, so work
	// that fails leaves no trace.
	_, statErr := os.Stat(s.dir)
	created := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("passport store %s: %w", s.dir, err)
	}
	lock := filepath.Join(s.dir, name+".lock")
	err := s.acquire(lock)
	for tries := 0; errors.Is(err, fs.ErrNotExist) && tries < 3; tries++ {
		// Another holder made the folder for its lock and removed it again.
		os.MkdirAll(s.dir, 0o700)
		err = s.acquire(lock)
	}
	if err != nil {
		if created {
			os.Remove(s.dir)
		}
		return nil, err
	}
	return func() {
		os.Remove(lock)
		if created {
			os.Remove(s.dir) // only if still empty
		}
	}, nil
}

// acquire takes the lock file exclusively, retiring a stale one, and waits
// up to LockTimeout for a live one.
func (s *Store) acquire(lock string) error {
	started := time.Now()
	for {
		err := createLock(lock, s.now())
		if err == nil {
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("lock %s: %w", lock, err)
		}
		retired, rule := s.judgeStale(lock)
		if retired {
			continue
		}
		if time.Since(started) >= s.LockTimeout {
			return &BusyError{Lock: lock, Rule: rule}
		}
		time.Sleep(s.RetryDelay)
	}
}

func createLock(lock string, now time.Time) error {
	// "host" is tp's addition to the reference's lock body: it lets a
	// lock whose pid is gone from this host be retired at once.
	host, _ := json.Marshal(owner.Host())
	body := fmt.Sprintf(`{"pid":%d,"created_at":"%s","host":%s}`, os.Getpid(), now.UTC().Format("2006-01-02T15:04:05.000Z"), host)
	// The lock appears with its body or not at all: written to a
	// temporary file (named with its owner, so a killed writer's is swept)
	// and linked into place, which fails when the lock exists. An exclusive
	// create followed by a write left an empty lock when killed in between,
	// one nobody could prove dead for 30 s (issue 11).
	tmp := filepath.Join(filepath.Dir(lock), fmt.Sprintf(".tmp-%s-%s", owner.Tag(), randHex(8)))
	if err := os.WriteFile(tmp, []byte(body), 0o600); err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, lock); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return err
		}
		// No hard links here (some synced or network folders): the
		// exclusive create, as the reference does.
		f, ferr := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if ferr != nil {
			return ferr
		}
		if _, werr := f.WriteString(body); werr != nil {
			f.Close()
			os.Remove(lock)
			return werr
		}
		if cerr := f.Close(); cerr != nil {
			os.Remove(lock)
			return cerr
		}
	}
	return nil
}

// retireStale removes lock when its owner is provably gone (judgeStale).
func (s *Store) retireStale(lock string) bool {
	retired, _ := s.judgeStale(lock)
	return retired
}

// judgeStale removes lock when its owner is provably gone, and says which
// rule it applied:
//
//   - a lock naming this host: at once when its pid no longer runs here (a
//     tp killed with -9 must not hold up the next run); never while it runs;
//   - a lock naming another host: by its age alone, once its file time is
//     StaleAfter away from now — a pid from elsewhere says nothing about
//     the processes here, so a live process here with the same number
//     keeps nothing;
//   - a lock naming no host (the reference's) whose pid runs here: never;
//     otherwise, and an unreadable lock: by its age.
//
// The age is the distance between the file time and now (by the real
// clock: file times are real even when a test fixes Now), in either
// direction: a lock whose mtime is in the future (a clock set wrong, or a
// file made to look fresh for ever) is as old as it is far ahead. It
// renames the lock aside first so two retirers cannot both win and delete
// a fresh lock. It reports whether the caller should try again at once.
func (s *Store) judgeStale(lock string) (bool, string) {
	info, err := os.Stat(lock)
	if errors.Is(err, fs.ErrNotExist) {
		return true, ""
	}
	if err != nil {
		return false, "it cannot be read (" + err.Error() + ")"
	}
	age := time.Since(info.ModTime())
	if age < 0 {
		age = -age
	}
	old := age >= s.StaleAfter
	byAge := fmt.Sprintf("retired once its file time is %s away from now (it is %s)", s.StaleAfter, age.Round(time.Second))
	rule := byAge
	gone := false
	if data, err := readRegular(lock, maxLockBytes); err == nil {
		// A partial or unreadable lock has no live owner to prove; it may
		// go once old.
		if v, _, err := ojson.Parse(data); err == nil {
			pid, ok := v.Get("pid").Int()
			host, _ := v.Get("host").Str()
			here := host == "" || host == owner.Host()
			if here && ok && pid > 0 && owner.PIDAlive(int(pid)) {
				return false, fmt.Sprintf("its process %d runs on this machine; it is never retired while it runs", pid)
			}
			if host != "" && host != owner.Host() {
				rule = fmt.Sprintf("it names another machine (%s); %s", sanitize.Line(host), byAge)
			}
			gone = ok && pid > 0 && host != "" && host == owner.Host()
		}
	} else if errors.Is(err, fs.ErrNotExist) {
		return true, ""
	}
	if !old && !gone {
		return false, rule
	}
	retired := fmt.Sprintf("%s.stale-%d-%s", lock, os.Getpid(), randHex(4))
	if err := os.Rename(lock, retired); err != nil {
		return errors.Is(err, fs.ErrNotExist), rule
	}
	os.Remove(retired)
	return true, rule
}

// parseJSNumber reads a numeric string as JavaScript's Number() would for
// the forms a version can plausibly take.
func parseJSNumber(s string) (float64, error) {
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		n, err := strconv.ParseUint(s[2:], 16, 64)
		return float64(n), err
	}
	lower := strings.ToLower(s)
	if strings.Contains(lower, "inf") || strings.Contains(lower, "nan") || strings.Contains(s, "_") {
		return 0, errors.New("not a number")
	}
	return strconv.ParseFloat(s, 64)
}

// SweepLocks retires, best effort, every lock file in the store whose owner
// is provably gone (see retireStale): a tp killed with -9 during a save or
// a landing leaves its lock, and nothing else would ever try that lock
// again. It returns the names of the locks that remain (held by live
// processes, or not provably dead yet).
func (s *Store) SweepLocks() []string {
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	var held []string
	for _, d := range des {
		name := d.Name()
		if !strings.HasSuffix(name, ".lock") || d.IsDir() {
			continue
		}
		path := filepath.Join(s.dir, name)
		if !s.retireStale(path) {
			held = append(held, name)
		} else if _, err := os.Lstat(path); err == nil {
			held = append(held, name) // retired, then taken again at once
		}
	}
	return held
}
