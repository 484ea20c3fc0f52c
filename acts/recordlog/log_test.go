package recordlog

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/cputest"
	"github.com/tp-dev/tp/internal/ojson"
)

func mustRaw(t testing.TB, r acts.Record) []byte {
	t.Helper()
	b, err := acts.EncodeRecord(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEncodeName(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"r:task-demo-c3d8af57d4": "r~3atask-demo-c3d8af57d4",
		"s-81f2":                 "s-81f2",
		"a:Key.1:2":              "a~3a^key.1~3a2",
		".hidden":                "~2ehidden",
		"..":                     "~2e.",
		"a/b\\c":                 "a~2fb~5cc",
		"任":                      "~e4~bb~bb",
		"x^y~z":                  "x~5ey~7ez",
	}
	for in, want := range cases {
		if got := EncodeName(in); got != want {
			t.Errorf("EncodeName(%q) = %q, want %q", in, got, want)
		}
		if back, ok := DecodeName(want); !ok || back != in {
			t.Errorf("DecodeName(%q) = %q, %v", want, back, ok)
		}
	}
	// Ids differing only in case get names differing in more than case
	// (case-insensitive filesystems).
	if strings.EqualFold(EncodeName("r:Abc"), EncodeName("r:abc")) {
		t.Error("case-only difference survives only as case")
	}
	long := strings.Repeat("é", 300)
	n := EncodeName(long)
	if len(n) > maxNameLen || !strings.Contains(n, "~~") {
		t.Errorf("long name not shortened: %d", len(n))
	}
	if _, ok := DecodeName(n); ok {
		t.Error("hashed name decoded")
	}
	for _, bad := range []string{"A", "~zz", "a~2", "x~41"} {
		if _, ok := DecodeName(bad); ok {
			t.Errorf("DecodeName(%q) accepted a name tp never writes", bad)
		}
	}
}

func FuzzEncodeName(f *testing.F) {
	for _, s := range []string{"r:task-demo-c3d8af57d4", ".", "..", "A~^", "任務", strings.Repeat("x", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := EncodeName(s)
		if n == "" && s != "" || n == "." || n == ".." || len(n) > maxNameLen {
			t.Fatalf("unsafe name %q for %q", n, s)
		}
		for i := 0; i < len(n); i++ {
			c := n[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-_.^~", c) >= 0) {
				t.Fatalf("byte %q in %q", c, n)
			}
		}
		if back, ok := DecodeName(n); ok && back != s {
			t.Fatalf("round trip %q -> %q -> %q", s, n, back)
		}
	})
}

func TestDefaultActsDir(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TP_ACTS": "/a", "XDG_DATA_HOME": "/x", "HOME": "/h"}, "/a"},
		{map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"}, "/x/tp/acts"},
		{map[string]string{"XDG_DATA_HOME": "relative", "HOME": "/h"}, "/h/.local/share/tp/acts"},
		{map[string]string{"HOME": "/h"}, "/h/.local/share/tp/acts"},
	} {
		got, err := DefaultActsDir(env(c.env))
		if err != nil || got != filepath.FromSlash(c.want) {
			t.Errorf("%v: %q %v", c.env, got, err)
		}
	}
}

func TestLogWriteDuplicateConflict(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	o, err := l.WriteRecord(raised)
	if err != nil || o != Written {
		t.Fatal(o, err)
	}
	path := l.RecordPath("garden", raised.ID)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := mustRaw(t, raised); string(b) != string(want) {
		t.Fatalf("stored bytes are not canonical:\n%s", b)
	}
	// Same record, spelled differently: a duplicate.
	compact := ojson.Compact(func() *ojson.Value { v, _ := ojson.ParseStrict(b); return v }())
	if o, err := l.Write(compact); err != nil || o != Duplicate {
		t.Fatalf("respelled duplicate: %v %v", o, err)
	}
	// Same id, other content: refused, file untouched.
	other := raised
	other.Terms = &acts.Terms{Text: "Something else"}
	_, err = l.WriteRecord(other)
	var ce *LogConflictError
	if !errors.As(err, &ce) || ce.ID != raised.ID {
		t.Fatalf("conflict not refused: %v", err)
	}
	var core *acts.ConflictError
	if !errors.As(err, &core) {
		t.Fatal("LogConflictError does not unwrap to ConflictError")
	}
	if b2, _ := os.ReadFile(path); string(b2) != string(b) {
		t.Fatal("conflicting write changed the stored record")
	}
	// Invalid records are refused before anything is written.
	bad := settled
	bad.Authority = nil
	if _, err := l.WriteRecord(bad); err == nil {
		t.Fatal("invalid record written")
	}
	if _, err := os.Stat(l.RecordPath("garden", bad.ID)); !os.IsNotExist(err) {
		t.Fatal("invalid record left a file")
	}
	ld, err := l.Load("garden")
	if err != nil || len(ld.Records) != 1 || len(ld.Problems) != 0 {
		t.Fatalf("load: %v %+v", err, ld)
	}
	leftovers, _ := filepath.Glob(filepath.Join(l.RecordsDir("garden"), tmpPrefix+"*"))
	if len(leftovers) != 0 {
		t.Fatalf("temp files left: %v", leftovers)
	}
}

func TestLogKeepsUnknownFields(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	l.KeepRaw = true
	raw := `{"ph":"0.3","ext":"acts/0.3","id":"n-1","type":"note","origin":"principal","by":"ps:x","key":"k","project":"p","ts":"2026-11-02T09:00:00Z","about":{"quote":"q"},"text":"Called them.","x-vendor":{"b":1,"a":2}}`
	if _, err := l.Write([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	ld, _ := l.Load("p")
	if got := string(ld.Raw["n-1"]); !strings.Contains(got, `"text": "Called them."`) || !strings.Contains(got, `"b": 1,`) {
		t.Fatalf("unknown fields lost:\n%s", got)
	}
}

func TestLogConcurrentWriters(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	var wg sync.WaitGroup
	outcomes := make([]WriteOutcome, 16)
	errs := make([]error, 16)
	for i := range outcomes {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			outcomes[i], errs[i] = l.WriteRecord(raised)
		}(i)
	}
	wg.Wait()
	written := 0
	for i := range outcomes {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if outcomes[i] == Written {
			written++
		}
	}
	if written != 1 {
		t.Fatalf("%d writers won, want exactly 1", written)
	}
	// Racing conflicting writers: exactly one wins, the others are refused.
	var wins, conflicts int
	var mu sync.Mutex
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := settled
			r.Outcome = []string{"done", "dropped"}[i%2]
			r.Note = fmt.Sprint(i)
			_, err := l.WriteRecord(r)
			mu.Lock()
			defer mu.Unlock()
			var ce *LogConflictError
			switch {
			case err == nil:
				wins++
			case errors.As(err, &ce):
				conflicts++
			default:
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if wins != 1 || conflicts != 15 {
		t.Fatalf("wins %d conflicts %d", wins, conflicts)
	}
	ld, _ := l.Load("garden")
	if len(ld.Problems) != 0 || len(ld.Records) != 2 {
		t.Fatalf("%+v", ld)
	}
}

// TestLogTwoProcesses runs writers in separate OS processes (this test
// binary re-executed) against one log.
func TestLogTwoProcesses(t *testing.T) {
	t.Parallel()
	if dir := os.Getenv("TP_ACTS_LOG_CHILD"); dir != "" {
		l := OpenLog(dir)
		for i := 0; i < 200; i++ {
			k := fmt.Sprintf("task-garden-%010d", i)
			r := raised
			r.Key, r.ID = k, "r:"+k
			if _, err := l.WriteRecord(r); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(3)
			}
		}
		os.Exit(0)
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for i := 0; i < 2; i++ {
		c := exec.Command(os.Args[0], "-test.run=^TestLogTwoProcesses$")
		c.Env = append(os.Environ(), "TP_ACTS_LOG_CHILD="+dir)
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("child: %v", err)
		}
	}
	ld, err := OpenLog(dir).Load("garden")
	if err != nil || len(ld.Records) != 200 || len(ld.Problems) != 0 {
		t.Fatalf("%v: %d records, problems %v", err, len(ld.Records), ld.Problems)
	}
}

func TestLogLoadReportsBadFilesAndSkipsThem(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	if _, err := l.WriteRecord(raised); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WriteRecord(settled); err != nil {
		t.Fatal(err)
	}
	dir := l.RecordsDir("garden")
	good := mustRaw(t, claim)
	other := note
	other.Project = "elsewhere"
	files := map[string][]byte{
		EncodeName(claim.ID) + ".json": good[:len(good)/2], // truncated
		"empty.json":                   {},
		"README.md":                    []byte("# notes\n"),
		"garbage.json":                 []byte("\x00\x01binary"),
		"invalid.json":                 []byte(`{"ph":"0.3"}`),
		EncodeName(other.ID) + ".json": mustRaw(t, other), // another project's record
		"misnamed.json":                mustRaw(t, note),  // a record under the wrong name
		".tmp-0123":                    []byte("half"),    // a writer's temp file: silently ignored
	}
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	before := snapshot(t, dir)
	ld, err := l.Load("garden")
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Records) != 2 {
		t.Fatalf("records: %+v", ld.Records)
	}
	wantMsgs := map[string]string{
		EncodeName(claim.ID) + ".json": "truncated",
		"empty.json":                   "empty file",
		"README.md":                    "no .json suffix",
		"garbage.json":                 "truncated",
		"invalid.json":                 "invalid record: schema record.json#/required",
		EncodeName(other.ID) + ".json": `is for project "elsewhere", not "garden"`,
		"misnamed.json":                "which belongs in n-1.json",
		"sub":                          "a directory",
	}
	if len(ld.Problems) != len(wantMsgs) {
		t.Errorf("problems: %v", ld.Problems)
	}
	for _, p := range ld.Problems {
		want, ok := wantMsgs[filepath.Base(p.Path)]
		if !ok || !strings.Contains(p.Msg, want) {
			t.Errorf("%s: %q, want %q", p.Path, p.Msg, want)
		}
	}
	if after := snapshot(t, dir); after != before {
		t.Fatal("Load changed the log")
	}
	// Writing where a truncated file sits is refused with a message naming it.
	if _, err := l.WriteRecord(claim); err == nil || !strings.Contains(err.Error(), "unreadable file") {
		t.Fatalf("write over truncated file: %v", err)
	}
}

func snapshot(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		data, _ := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %d %x\n", p, len(data), data)
		return nil
	})
	return b.String()
}

func TestLogAcks(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	long := "s-" + strings.Repeat("X", 300)
	if err := l.Ack("garden", "s-1", "o:Key:1", long); err != nil {
		t.Fatal(err)
	}
	if err := l.Ack("garden", "s-1"); err != nil { // acking twice is fine
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(l.AckedDir("garden"), "Foreign"), nil, 0o644)
	ld, err := l.Load("garden")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"s-1", "o:Key:1", long} {
		if !ld.Acked[id] {
			t.Errorf("%q not acked", id)
		}
	}
	if len(ld.Acked) != 3 || len(ld.Problems) != 1 {
		t.Fatalf("acked %v problems %v", ld.Acked, ld.Problems)
	}
}

func TestLogProjectsAndFindKey(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	a := raised
	b := raised
	b.Project = "Other Project"
	for _, r := range []acts.Record{a, b} {
		if _, err := l.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(l.Dir, "Bad"), 0o755)
	os.Mkdir(filepath.Join(l.Dir, ".git"), 0o755)
	ps, probs, err := l.Projects()
	if err != nil || strings.Join(ps, ",") != "Other Project,garden" || len(probs) != 1 {
		t.Fatalf("%v %v %v", ps, probs, err)
	}
	found, err := l.FindKey(lk)
	if err != nil || len(found) != 2 {
		t.Fatalf("%v %v", found, err)
	}
	if found, _ := l.FindKey("task-none"); len(found) != 0 {
		t.Fatal(found)
	}
}

// benchLog fills a fresh log with n records (raised, settled, note per
// act), written straight to their files: the benchmarks measure reading.
func benchLog(b *testing.B, n int) *Log {
	l := OpenLog(b.TempDir())
	dir := l.RecordsDir("garden")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := 0; i*3 < n; i++ {
		k := fmt.Sprintf("task-bench-%010d", i)
		for _, r := range []acts.Record{raised, settled, note} {
			r.Key = k
			r.ID = r.ID + "-" + k
			if r.Type == acts.TypeRaised {
				r.ID = "r:" + k
			}
			if err := os.WriteFile(l.RecordPath("garden", r.ID), mustRaw(b, r), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return l
}

func BenchmarkLogLoad50k(b *testing.B) {
	l := benchLog(b, 50000)
	b.ResetTimer()
	cpu := cputest.Start()
	for i := 0; i < b.N; i++ {
		ld, err := l.Load("garden")
		if err != nil || len(ld.Records) < 50000 {
			b.Fatal(err, len(ld.Records))
		}
	}
	cpu.Report(b)
}

func BenchmarkValidateRecord(b *testing.B) {
	raw := mustRaw(b, settled)
	for i := 0; i < b.N; i++ {
		if _, err := acts.ValidateRecord(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLogValidationCache(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	l.CacheDir = t.TempDir()
	for _, r := range []acts.Record{raised, settled, claim} {
		if _, err := l.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	first, err := l.Load("garden")
	if err != nil || len(first.Records) != 3 {
		t.Fatal(err, first)
	}
	c := l.openCache(l.RecordsDir("garden"))
	if c == nil || len(c.set) != 3 {
		t.Fatalf("cache not written: %+v", c)
	}
	second, _ := l.Load("garden")
	if !reflectEqualRecords(first.Records, second.Records) {
		t.Fatal("cached load differs")
	}
	// A file changed behind tp's back has another digest: validated again,
	// and refused when invalid, cache or not.
	path := l.RecordPath("garden", settled.ID)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(b), `"authority"`, `"authorty"`, 1)), 0o644)
	third, _ := l.Load("garden")
	if len(third.Records) != 2 || len(third.Problems) != 1 || !strings.Contains(third.Problems[0].Msg, "settled.json#/required") {
		t.Fatalf("tampered record: %+v", third)
	}
	// A cache written for another schema set is ignored.
	os.WriteFile(l.cachePath(l.RecordsDir("garden")), []byte("tp-acts-validated other\n"), 0o644)
	if l.openCache(l.RecordsDir("garden")) != nil {
		t.Fatal("foreign cache trusted")
	}
}

func reflectEqualRecords(a, b []acts.Record) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if acts.Fingerprint(a[i]) != acts.Fingerprint(b[i]) {
			return false
		}
	}
	return true
}

func BenchmarkLogLoad50kCached(b *testing.B) {
	l := benchLog(b, 50000)
	l.CacheDir = b.TempDir()
	if _, err := l.Load("garden"); err != nil { // fills the cache
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cputest.Start()
	for i := 0; i < b.N; i++ {
		ld, err := l.Load("garden")
		if err != nil || len(ld.Records) < 50000 {
			b.Fatal(err, len(ld.Records))
		}
	}
	cpu.Report(b)
}

// Member names are case-sensitive on every path: a cached read must see the
// record exactly as the validated read did.
func TestLogCaseSensitiveMembers(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	l.CacheDir = t.TempDir()
	raw := `{"ph":"0.3","ext":"acts/0.3","id":"s-1","type":"settled","origin":"principal","by":"ps:x","key":"k","project":"p","ts":"2026-11-02T09:00:00Z","outcome":"done","OUTCOME":"dropped","terms_rev":1,"authority":{"kind":"principal"}}`
	if _, err := l.Write([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // uncached, then cached
		ld, err := l.Load("p")
		if err != nil || len(ld.Records) != 1 || ld.Records[0].Outcome != "done" {
			t.Fatalf("pass %d: %v %+v", i, err, ld.Records)
		}
	}
}

func TestLogWriteAll(t *testing.T) {
	t.Parallel()
	l := OpenLog(t.TempDir())
	if _, err := l.WriteRecord(settled); err != nil {
		t.Fatal(err)
	}
	other := settled
	other.Outcome = "dropped"
	outs, err := l.WriteAll([]acts.Record{raised, settled, other, claim})
	var ce *LogConflictError
	if !errors.As(err, &ce) || ce.ID != settled.ID {
		t.Fatalf("err %v", err)
	}
	if len(outs) != 2 || outs[0] != Written || outs[1] != Duplicate {
		t.Fatalf("outcomes %v", outs)
	}
	ld, _ := l.Load("garden")
	if len(ld.Records) != 2 { // raised and the first settled; the claim after the conflict is not written
		t.Fatalf("%+v", ld.Records)
	}
	bad := claim
	bad.Evidence = nil
	if outs, err := l.WriteAll([]acts.Record{claim, bad}); err == nil || len(outs) != 1 {
		t.Fatalf("invalid record in a batch: %v %v", outs, err)
	}
}
