package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/owner"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func fixedClock(ts string) func() time.Time {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		panic(err)
	}
	return func() time.Time { return t }
}

func parse(t *testing.T, s string) *ojson.Value {
	t.Helper()
	v, err := ojson.ParseStrict([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The reference's core.js create writes exactly these keys in this order;
// the key order is part of D1's byte-for-byte promise.
var referenceKeys = []string{"spec", "kind", "id", "title", "goal", "version", "machine_id", "harness",
	"scope", "created_at", "updated_at", "current_state", "facts", "decisions", "actions", "artifacts",
	"verification", "next_steps", "learnings"}

func TestCreate(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Now = fixedClock("2026-08-16T03:11:04Z")
	v, err := s.Create("  Ship it ", " Get the build green ", CreateOptions{NextStep: "run the tests"})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	if !regexp.MustCompile(`^TP-[` + IDAlphabet + `]{4}-[` + IDAlphabet + `]{4}$`).MatchString(id) {
		t.Fatalf("id %q is not TP-XXXX-XXXX over the D14 alphabet", id)
	}
	if got := v.Obj().Keys(); strings.Join(got, ",") != strings.Join(referenceKeys, ",") {
		t.Errorf("keys %v, want the reference's %v", got, referenceKeys)
	}
	data, err := os.ReadFile(s.Path(id))
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(ojson.Canonical(v)) {
		t.Errorf("stored bytes are not the canonical form of the returned state:\n%s", data)
	}
	for k, want := range map[string]string{"title": "Ship it", "goal": "Get the build green", "spec": "2origin/0.1",
		"kind": "task.origin", "harness": Harness, "created_at": "2026-08-16T03:11:04Z",
		"updated_at": "2026-08-16T03:11:04Z", "current_state": DefaultCurrentState} {
		if got := v.Get(k).Text(); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if n, _ := v.Get("version").Int(); n != 1 {
		t.Errorf("version = %v, want 1", n)
	}
	if got := v.Get("next_steps").Items(); len(got) != 1 || got[0].Text() != "run the tests" {
		t.Errorf("next_steps = %s", ojson.Compact(v.Get("next_steps")))
	}
	for _, bad := range [][2]string{{"", "goal"}, {"title", "  "}} {
		if _, err := s.Create(bad[0], bad[1], CreateOptions{}); err == nil {
			t.Errorf("Create(%q, %q) succeeded; title and goal are required", bad[0], bad[1])
		}
	}
}

func TestNewIDAvoidsTakenIDs(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	writeFile(t, s.Path("TP-2222-2222"), `{"id":"TP-2222-2222","version":1}`)
	if err := os.MkdirAll(s.FilesDir("TP-3333-3333"), 0o700); err != nil {
		t.Fatal(err)
	}
	seq := []string{"TP-2222-2222", "TP-3333-3333", "TP-4444-4444"}
	s.mint = func() string { id := seq[0]; seq = seq[1:]; return id }
	id, err := s.NewID()
	if err != nil || id != "TP-4444-4444" {
		t.Fatalf("NewID = %q, %v; want the first id used by neither a passport nor a files folder", id, err)
	}
}

func TestMintIDAlphabet(t *testing.T) {
	t.Parallel()
	seen := map[byte]bool{}
	for i := 0; i < 2000; i++ {
		id := MintID()
		if len(id) != 12 || id[:3] != "TP-" || id[7] != '-' {
			t.Fatalf("bad shape %q", id)
		}
		for _, c := range []byte(id[3:7] + id[8:]) {
			if !strings.ContainsRune(IDAlphabet, rune(c)) {
				t.Fatalf("%q uses %q, outside the D14 alphabet", id, c)
			}
			seen[c] = true
		}
	}
	if len(seen) != len(IDAlphabet) {
		t.Errorf("2000 ids used %d of %d letters", len(seen), len(IDAlphabet))
	}
}

func TestSaveLikeTheReference(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Now = fixedClock("2026-01-02T03:04:05Z")
	// A state lacking id-adjacent keys: the reference's object spread keeps
	// existing keys in place and appends id, version, created_at, updated_at.
	in := parse(t, `{"title":"t","zeta":{"unknown":[1,2]},"id":"  TP-AAAA-BBBB  ","10":"x"}`)
	before := string(ojson.Canonical(in))
	saved, err := s.Save(in, 0)
	if err != nil {
		t.Fatal(err)
	}
	if string(ojson.Canonical(in)) != before {
		t.Error("Save changed its argument")
	}
	want := `{"10":"x","title":"t","zeta":{"unknown":[1,2]},"id":"TP-AAAA-BBBB","version":1,"created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z"}`
	if got := string(ojson.Compact(saved)); got != want {
		t.Errorf("saved\n%s\nwant\n%s", got, want)
	}

	// Second save: created_at is the stored one even if the caller changed it.
	s.Now = fixedClock("2026-01-03T00:00:00Z")
	next := saved.Clone()
	next.Set("created_at", ojson.NewString("1999-01-01T00:00:00Z"))
	saved2, err := s.Save(next, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := saved2.Get("created_at").Text(); got != "2026-01-02T03:04:05Z" {
		t.Errorf("created_at = %q, want the stored one", got)
	}
	if n, _ := saved2.Get("version").Int(); n != 2 {
		t.Errorf("version = %d, want 2", n)
	}
	if got := saved2.Get("updated_at").Text(); got != "2026-01-03T00:00:00Z" {
		t.Errorf("updated_at = %q", got)
	}
}

func TestSaveCreatedAt(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, state, want string }{
		{"kept from the state when new", `{"id":"X","created_at":"2020-01-01T00:00:00Z"}`, "2020-01-01T00:00:00Z"},
		{"empty string is falsy: now", `{"id":"X","created_at":""}`, "2026-05-05T05:05:05Z"},
		{"null is falsy: now", `{"id":"X","created_at":null}`, "2026-05-05T05:05:05Z"},
		{"absent: now, appended", `{"id":"X"}`, "2026-05-05T05:05:05Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			s.Now = fixedClock("2026-05-05T05:05:05Z")
			saved, err := s.Save(parse(t, tt.state), 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := saved.Get("created_at").Text(); got != tt.want {
				t.Errorf("created_at = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSaveConflict(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	v, err := s.Create("t", "g", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	if _, err := s.Save(v, 1); err != nil {
		t.Fatal(err)
	}
	// A save from a stale read (version 1) must fail, not overwrite version 2.
	_, err = s.Save(v, 1)
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("stale save: err = %v, want *ConflictError", err)
	}
	if ce.ID != id || ce.Expected != 1 || ce.Found != 2 {
		t.Errorf("conflict = %+v", ce)
	}
	msg := err.Error()
	for _, want := range []string{id, "expected version 1", "found 2"} {
		if !strings.Contains(msg, want) {
			t.Errorf("conflict message %q does not say %q", msg, want)
		}
	}
	// A "new" passport saved over an existing one is a conflict too.
	if _, err := s.Save(v, 0); !errors.As(err, &ce) || ce.Found != 2 || ce.Expected != 0 {
		t.Errorf("save with expected 0 over version 2: %v", err)
	}
	st, _ := s.Get(id)
	if st.Version != 2 {
		t.Errorf("stored version = %d after refused saves, want 2", st.Version)
	}
	if _, err := s.Save(v, -1); err == nil {
		t.Error("negative expected_version accepted")
	}
}

func TestVersionOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		state string
		want  int64
		err   bool
	}{
		{`{}`, 0, false},
		{`{"version":null}`, 0, false},
		{`{"version":3}`, 3, false},
		{`{"version":"4"}`, 4, false}, // Number("4")
		{`{"version":""}`, 0, false},
		{`{"version":false}`, 0, false},
		{`{"version":1.5}`, 0, true},
		{`{"version":-1}`, 0, true},
		{`{"version":"x"}`, 0, true},
		{`{"version":[1]}`, 0, true},
	}
	for _, tt := range tests {
		got, err := versionOf(parse(t, tt.state))
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("versionOf(%s) = %d, %v; want %d, error %v", tt.state, got, err, tt.want, tt.err)
		}
	}
}

func TestGet(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	_, err := s.Get("TP-NOPE-NOPE")
	var nf *ErrNotFound
	if !errors.As(err, &nf) || nf.ID != "TP-NOPE-NOPE" || !strings.Contains(err.Error(), "TP-NOPE-NOPE") {
		t.Fatalf("missing passport: %v", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("ErrNotFound does not match fs.ErrNotExist")
	}
	for _, bad := range []string{"../etc/passwd", "a/b", "", strings.Repeat("A", 121), "TP AAAA"} {
		if _, err := s.Get(bad); err == nil || errors.As(err, &nf) {
			t.Errorf("Get(%q) = %v, want an id error", bad, err)
		}
	}
	// BOM (Windows shells) is tolerated, as by the reference, and reported.
	writeFile(t, s.Path("BOM"), "\ufeff{\"id\":\"BOM\",\"version\":7,\"x\":1}")
	st, err := s.Get("BOM")
	if err != nil || st.Version != 7 || !st.Quirks.BOM {
		t.Errorf("BOM file: %+v, %v", st, err)
	}
	writeFile(t, s.Path("MISMATCH"), `{"id":"OTHER"}`)
	if _, err := s.Get("MISMATCH"); err == nil || !strings.Contains(err.Error(), "MISMATCH.json") || !strings.Contains(err.Error(), "mismatch") {
		t.Errorf("id mismatch: %v", err)
	}
}

func TestListSkipsStrayFiles(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	if e, sk, err := s.List(); err != nil || len(e) != 0 || len(sk) != 0 {
		t.Fatalf("missing store folder: %v %v %v", e, sk, err)
	}
	writeFile(t, s.Path("TP-OLD1-AAAA"), `{"id":"TP-OLD1-AAAA","title":"old","version":3,"updated_at":"2026-01-01T00:00:00Z"}`)
	writeFile(t, s.Path("TP-NEW1-AAAA"), `{"id":"TP-NEW1-AAAA","title":"new","version":1,"updated_at":"2026-03-01T00:00:00Z",
		"lineage":{"root_id":"TP-ROOT-0000","from_version":2,"chain":["TP-ROOT-0000@2"]},
		"asks":[{"id":"a1","status":"open"},{"id":"a2","status":"answered"},{"id":"a3"}],
		"landing_checks":[{"id":"c1"},{"id":"c2","status":"passed"},{"id":"c3","status":"pending"}]}`)
	writeFile(t, s.Path("TP-MID1-AAAA"), `{"id":"TP-MID1-AAAA","title":"mid","updated_at":"2026-02-01T00:00:00Z"}`)
	writeFile(t, s.Path("broken"), `{"id":"broken",`)
	writeFile(t, s.Path("array"), `[1,2]`)
	writeFile(t, s.Path("other"), `{"id":"someone-else"}`)
	writeFile(t, s.Path("badver"), `{"id":"badver","version":"x"}`)
	writeFile(t, filepath.Join(s.Dir(), "notes.txt"), `hello`)
	writeFile(t, filepath.Join(s.Dir(), "has space.json"), `garbage`)
	writeFile(t, filepath.Join(s.Dir(), "TP-OLD1-AAAA.json.lock"), `{"pid":1}`)
	writeFile(t, filepath.Join(s.Dir(), "TP-OLD1-AAAA.json.tmp-1-abcd"), `{`)
	writeFile(t, filepath.Join(s.Dir(), "dir.json", "x"), `x`)
	if err := os.Symlink(s.Path("TP-OLD1-AAAA"), s.Path("link")); err != nil {
		t.Fatal(err)
	}

	entries, skipped, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	if got := strings.Join(ids, " "); got != "TP-NEW1-AAAA TP-MID1-AAAA TP-OLD1-AAAA" {
		t.Errorf("listing order %q, want updated_at descending", got)
	}
	n := entries[0]
	if n.RootID != "TP-ROOT-0000" || n.OpenAsks != 2 || n.PendingChecks != 2 || n.Version != 1 || n.Title != "new" {
		t.Errorf("entry = %+v", n)
	}
	if entries[2].RootID != "TP-OLD1-AAAA" || entries[2].Version != 3 {
		t.Errorf("a passport without lineage is its own root: %+v", entries[2])
	}
	var files []string
	for _, sk := range skipped {
		files = append(files, sk.File)
		if sk.Reason == "" || strings.Contains(sk.Reason, s.Dir()+"/") {
			t.Errorf("skipped %s: reason %q should be short and present", sk.File, sk.Reason)
		}
	}
	sort.Strings(files)
	if got := strings.Join(files, " "); got != "array.json badver.json broken.json other.json" {
		t.Errorf("skipped %q", got)
	}
}

func TestUpdateKeepsUnknownFields(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	writeFile(t, s.Path("TP-KEEP-0000"), `{"spec":"2origin/0.1","id":"TP-KEEP-0000","version":4,"created_at":"2020-01-01T00:00:00Z","updated_at":"2020-01-01T00:00:00Z","future":{"b":1,"a":[true,null,1e+21]},"title":"x"}`)
	s.Now = fixedClock("2026-01-01T00:00:00Z")
	out, err := s.Update("TP-KEEP-0000", func(v *ojson.Value) error {
		v.Set("title", ojson.NewString("y"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"spec":"2origin/0.1","id":"TP-KEEP-0000","version":5,"created_at":"2020-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","future":{"b":1,"a":[true,null,1e+21]},"title":"y"}`
	if got := string(ojson.Compact(out)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// An error from fn saves nothing.
	boom := errors.New("boom")
	if _, err := s.Update("TP-KEEP-0000", func(v *ojson.Value) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
	if st, _ := s.Get("TP-KEEP-0000"); st.Version != 5 {
		t.Errorf("version %d after a failed update", st.Version)
	}
}

// increment adds one to the passport's "counter", retrying on conflicts:
// the test of the lock and of expected_version is that no increment is lost.
func increment(s *Store, id string) error {
	for {
		_, err := s.Apply(id, func(v *ojson.Value) error {
			n, _ := v.Get("counter").Int()
			v.Set("counter", ojson.NewInt(n+1))
			return nil
		})
		var ce *ConflictError
		if errors.As(err, &ce) {
			continue
		}
		return err
	}
}

func TestApplyRetriesConflicts(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	v, err := s.Create("t", "g", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	calls := 0
	out, err := s.Apply(id, func(v *ojson.Value) error {
		calls++
		if calls == 1 { // someone else saves between our read and our save
			st, _ := s.Get(id)
			if _, err := s.Save(st.V, st.Version); err != nil {
				t.Fatal(err)
			}
		}
		v.Set("mine", ojson.NewBool(true))
		return nil
	})
	if err != nil || calls != 2 {
		t.Fatalf("Apply: calls %d, err %v", calls, err)
	}
	if n, _ := out.Get("version").Int(); n != 3 {
		t.Errorf("version %d, want 3 (ours on top of theirs)", n)
	}
	// Update, by contrast, reports the conflict.
	calls = 0
	_, err = s.Update(id, func(v *ojson.Value) error {
		st, _ := s.Get(id)
		s.Save(st.V, st.Version)
		return nil
	})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Expected != 3 || ce.Found != 4 {
		t.Errorf("Update: %v", err)
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	v, err := s.Create("t", "g", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	s.beforeWrite = func() { time.Sleep(200 * time.Microsecond) }
	s.LockTimeout = time.Minute // polling waiters can starve on a loaded machine; that is not what this tests
	const workers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if err := increment(s, id); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	st, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := st.V.Get("counter").Int(); n != workers*each || st.Version != workers*each+1 {
		t.Errorf("counter %d version %d, want %d and %d: an update was lost", n, st.Version, workers*each, workers*each+1)
	}
	assertClean(t, s)
}

// assertClean checks that no lock or temp file is left behind.
func assertClean(t *testing.T, s *Store) {
	t.Helper()
	des, _ := os.ReadDir(s.Dir())
	for _, de := range des {
		if strings.Contains(de.Name(), ".lock") || strings.Contains(de.Name(), ".tmp-") {
			t.Errorf("left behind: %s", de.Name())
		}
	}
}

// TestHelperIncrement is not a test: the two-process test runs this binary
// twice with TP_HOME_HELPER set.
func TestHelperIncrement(t *testing.T) {
	t.Parallel()
	dir, id := os.Getenv("TP_HOME_HELPER_DIR"), os.Getenv("TP_HOME_HELPER_ID")
	if dir == "" {
		t.Skip("helper process only")
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.LockTimeout = time.Minute
	s.beforeWrite = func() { time.Sleep(200 * time.Microsecond) }
	for i := 0; i < 40; i++ {
		if err := increment(s, id); err != nil {
			t.Fatal(err)
		}
	}
}

func TestConcurrentProcesses(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("spawns processes")
	}
	s := newStore(t)
	v, err := s.Create("t", "g", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	var cmds []*exec.Cmd
	for i := 0; i < 3; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperIncrement$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TP_HOME_HELPER_DIR="+s.Dir(), "TP_HOME_HELPER_ID="+id)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper: %v", err)
		}
	}
	st, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := st.V.Get("counter").Int(); n != 120 || st.Version != 121 {
		t.Errorf("counter %d version %d, want 120 and 121: an update was lost between processes", n, st.Version)
	}
	assertClean(t, s)
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestStaleLock(t *testing.T) {
	t.Parallel()
	dead := deadPID(t)
	tests := []struct {
		name    string
		body    string
		age     time.Duration
		retired bool
	}{
		{"old lock of a dead pid is retired", fmt.Sprintf(`{"pid":%d,"created_at":"x"}`, dead), 31 * time.Second, true},
		{"old unreadable lock is retired", `{"pi`, 31 * time.Second, true},
		{"fresh lock of a dead pid stands", fmt.Sprintf(`{"pid":%d}`, dead), 5 * time.Second, false},
		{"old lock of a live pid stands", fmt.Sprintf(`{"pid":%d}`, os.Getpid()), time.Hour, false},
		// issue 11: a tp killed with -9 must not hold up the next run.
		{"fresh lock of a pid gone from this host is retired at once", fmt.Sprintf(`{"pid":%d,"created_at":"x","host":%q}`, dead, owner.Host()), 0, true},
		{"fresh lock of a dead pid from another host stands", fmt.Sprintf(`{"pid":%d,"host":"elsewhere.example"}`, dead), 0, false},
		{"fresh lock of a live pid on this host stands", fmt.Sprintf(`{"pid":%d,"host":%q}`, os.Getpid(), owner.Host()), 0, false},
		{"fresh lock naming this host but no pid stands", fmt.Sprintf(`{"host":%q}`, owner.Host()), 0, false},
		// issue 15: a lock from another host is judged by its age alone —
		// a pid there says nothing about the processes here, even when a
		// live process here has the same number; and a file time in the
		// future is as old as it is far ahead.
		{"old lock from another host whose pid runs here is retired", fmt.Sprintf(`{"pid":%d,"host":"elsewhere.example"}`, os.Getpid()), 31 * time.Second, true},
		{"fresh lock from another host whose pid runs here stands", fmt.Sprintf(`{"pid":%d,"host":"elsewhere.example"}`, os.Getpid()), 5 * time.Second, false},
		{"lock from another host dated far in the future is retired", fmt.Sprintf(`{"pid":1,"host":"elsewhere.example"}`), -time.Hour, true},
		{"unreadable lock dated far in the future is retired", `{"pi`, -time.Hour, true},
		{"lock of a dead pid dated a little in the future stands", fmt.Sprintf(`{"pid":%d}`, dead), -5 * time.Second, false},
		{"lock of a live pid here dated far in the future stands", fmt.Sprintf(`{"pid":%d,"host":%q}`, os.Getpid(), owner.Host()), -time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStore(t)
			s.LockTimeout = 150 * time.Millisecond
			v, err := s.Create("t", "g", CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			id := v.Get("id").Text()
			lock := s.Path(id) + ".lock"
			writeFile(t, lock, tt.body)
			old := time.Now().Add(-tt.age)
			if err := os.Chtimes(lock, old, old); err != nil {
				t.Fatal(err)
			}
			_, err = s.Save(v, 1)
			var busy *BusyError
			if tt.retired {
				if err != nil {
					t.Fatalf("save: %v", err)
				}
				assertClean(t, s)
				return
			}
			if !errors.As(err, &busy) || !strings.Contains(err.Error(), lock) {
				t.Fatalf("save = %v, want busy naming %s", err, lock)
			}
			if busy.Rule == "" {
				t.Errorf("the busy error does not say when this lock is retired")
			}
			if _, err := os.Stat(lock); err != nil {
				t.Errorf("a lock that stands was removed: %v", err)
			}
		})
	}
}

func TestLockFileFormat(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	s.Now = fixedClock("2026-01-02T03:04:05Z")
	lock := filepath.Join(t.TempDir(), "x.json.lock")
	if err := createLock(lock, s.now()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(lock)
	host, _ := json.Marshal(owner.Host())
	want := fmt.Sprintf(`{"pid":%d,"created_at":"2026-01-02T03:04:05.000Z","host":%s}`, os.Getpid(), host)
	if string(data) != want {
		t.Errorf("lock holds %s, want %s", data, want)
	}
	if err := createLock(lock, s.now()); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second exclusive create: %v", err)
	}
	if info, _ := os.Stat(lock); info.Mode().Perm() != 0o600 {
		t.Errorf("lock mode %v", info.Mode().Perm())
	}
}

func TestFailedWriteLeavesOldVersion(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	v, err := s.Create("t", "g", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	before, _ := os.ReadFile(s.Path(id))
	old := s.write
	s.write = func(string, []byte, fs.FileMode) error { return errors.New("disk pulled") }
	v.Set("title", ojson.NewString("changed"))
	if _, err := s.Save(v, 1); err == nil || !strings.Contains(err.Error(), "disk pulled") {
		t.Fatalf("save = %v", err)
	}
	after, _ := os.ReadFile(s.Path(id))
	if string(after) != string(before) {
		t.Error("a failed save changed the stored file")
	}
	assertClean(t, s)
	s.write = old
	if _, err := s.Save(v, 1); err != nil {
		t.Errorf("after a failed save the store is usable: %v", err)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TP_STORE": "/a", "TASK_PASSPORT_STORE": "/b", "HOME": "/h"}, "/a"},
		{map[string]string{"TASK_PASSPORT_STORE": "/b", "HOME": "/h"}, "/b"},
		{map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"}, "/x/tp/passports"},
		{map[string]string{"XDG_DATA_HOME": "relative", "HOME": "/h"}, "/h/.local/share/tp/passports"},
		{map[string]string{"HOME": "/h"}, "/h/.local/share/tp/passports"},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		if got := DefaultDir(func(k string) string { return tt.env[k] }); got != filepath.FromSlash(tt.want) {
			t.Errorf("DefaultDir(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

func TestOpen(t *testing.T) {
	t.Parallel()
	if _, err := Open(""); err == nil {
		t.Error("empty dir accepted")
	}
	f := filepath.Join(t.TempDir(), "file")
	writeFile(t, f, "x")
	if _, err := Open(f); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("Open(file) = %v", err)
	}
	s, err := Open("rel")
	if err != nil || !filepath.IsAbs(s.Dir()) {
		t.Errorf("Open(rel) = %v, %v", s, err)
	}
}

func TestIdentity(t *testing.T) {
	t.Parallel()
	gitName := "Git Name"
	Actor := func(flag string, env func(string) string) string {
		return actor(flag, env, func() string { return gitName })
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	if got := Machine(env(map[string]string{"TP_MACHINE": "box"})); got != "box" {
		t.Errorf("Machine = %q", got)
	}
	host, _ := os.Hostname()
	if got := Machine(env(nil)); got != host {
		t.Errorf("Machine without TP_MACHINE = %q, want hostname %q", got, host)
	}

	all := map[string]string{"TP_ACTOR": "tpactor", "USER": "unix"}
	if got := Actor("flag", env(all)); got != "flag" {
		t.Errorf("--actor first: %q", got)
	}
	if got := Actor("", env(all)); got != "tpactor" {
		t.Errorf("TP_ACTOR second: %q", got)
	}
	if got := Actor("", env(map[string]string{"USER": "unix"})); got != "Git Name" {
		t.Errorf("git user.name third: %q", got)
	}
	gitName = ""
	if got := Actor("", env(map[string]string{"USER": "unix"})); got != "unix" {
		t.Errorf("$USER last: %q", got)
	}
	if got := By("ann", "box"); got != "ann@box" {
		t.Errorf("By = %q", got)
	}
}

func TestReadErrorsAreTerminalSafe(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	writeFile(t, s.Path("ESC"), "{\"id\":\"x\\\x1b\"}")
	writeFile(t, s.Path("BIDI"), `{"id":"evil`+"\u202e"+`"}`)
	for _, id := range []string{"ESC", "BIDI"} {
		_, err := s.Get(id)
		if err == nil || strings.ContainsAny(err.Error(), "\x1b\u202e") {
			t.Errorf("Get(%s) error is not terminal-safe: %q", id, err)
		}
	}
}

func TestSavedFileMode(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	v, err := s.Create("t", "g", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(s.Path(v.Get("id").Text()))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("saved file mode %v, want 0600 like the reference (%v)", info.Mode().Perm(), err)
	}
}

// Store.Lock is exclusive; a store folder made only for the lock goes again.
func TestStoreLock(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "store")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.LockTimeout = 50 * time.Millisecond
	unlock, err := s.Lock("landing-0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Lock("landing-0123456789abcdef"); err == nil {
		t.Fatal("a second holder took a held lock")
	} else {
		var be *BusyError
		if !errors.As(err, &be) {
			t.Fatalf("want a BusyError, got %v", err)
		}
	}
	unlock()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the store folder made for the lock is still there (%v)", err)
	}
	if _, err := s.Lock("../escape"); err == nil {
		t.Error("a lock name with a path was accepted")
	}
}

// The busy error says the rule applied to the lock that stood (issue 15:
// the hint promised 30 s for a lock it would never retire).
func TestBusyErrorSaysTheRuleApplied(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		age        time.Duration
		want       string
	}{
		{"live here", fmt.Sprintf(`{"pid":%d,"host":%q}`, os.Getpid(), owner.Host()), 0, "runs on this machine; it is never retired while it runs"},
		{"another host", `{"pid":1,"host":"elsewhere.example"}`, 5 * time.Second, "names another machine (elsewhere.example); retired once its file time is 30s away from now (it is "},
		{"future", `{"pi`, -10 * time.Second, "retired once its file time is 30s away from now (it is 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			s.LockTimeout = 50 * time.Millisecond
			unlock, err := s.Lock("x")
			if err != nil {
				t.Fatal(err)
			}
			unlock()
			lock := filepath.Join(s.Dir(), "x.lock")
			writeFile(t, lock, tc.body)
			at := time.Now().Add(-tc.age)
			if err := os.Chtimes(lock, at, at); err != nil {
				t.Fatal(err)
			}
			_, err = s.Lock("x")
			var busy *BusyError
			if !errors.As(err, &busy) || !strings.Contains(busy.Rule, tc.want) {
				t.Fatalf("err = %v, rule %q; want it to contain %q", err, busy.Rule, tc.want)
			}
		})
	}
}
