package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/internal/ojson"
)

// writeBigPassport writes a stored passport of n facts (110,000 make about
// 10 MB) into a new store folder and returns the store and the id.
func writeBigPassport(tb testing.TB, dir string, n int) (storeDir, id string) {
	tb.Helper()
	id = "TP-BIGG-0001"
	storeDir = filepath.Join(dir, "store")
	if err := os.MkdirAll(storeDir, 0o755); err != nil {
		tb.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString(`{"spec":"2origin/0.1","kind":"task.origin","id":"` + id + `","title":"A big passport","goal":"Stay fast",` +
		`"version":3,"machine_id":"","harness":"bench","scope":"","created_at":"2026-09-01T07:30:00Z","updated_at":"2026-09-03T13:58:41Z",` +
		`"current_state":"Many facts.","facts":[`)
	scopes := []string{"universal", "org", "machine", "project"}
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"claim":"Fact %d of the shed","scope":"%s","verified":%t}`, i, scopes[i%4], i%2 == 0)
	}
	sb.WriteString(`],"decisions":[],"actions":[],"artifacts":[],"verification":"","next_steps":["Keep going"],"learnings":[]}`)
	if err := os.WriteFile(filepath.Join(storeDir, id+".json"), []byte(sb.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return storeDir, id
}

// BenchmarkOpenJSONBigPassport is `tp open ID --json` of a 110,000-fact
// passport (issue 20: linear, ≤ 1 s and ≤ 100 MB).
func BenchmarkOpenJSONBigPassport(b *testing.B) {
	storeDir, id := writeBigPassport(b, b.TempDir(), 110_000)
	env := map[string]string{"TP_STORE": storeDir, "TP_MACHINE": "bench", "HOME": b.TempDir()}
	bio := &IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, Env: func(k string) string { return env[k] }}
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"open", id, "--json"}, bio); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// openDoc gives what encoding/json gave for openJSON, so tp open --json
// prints the same bytes as before it stopped marshalling the document.
func TestOpenDocIsEncodingJSONsDocument(t *testing.T) {
	t.Parallel()
	state, err := ojson.ParseStrict([]byte(`{"id":"TP-1","facts":[{"claim":"a"}],"x":{"1":2,"b":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	b := briefing.Of(state, 3)
	for name, o := range map[string]openJSON{
		"zero":          {},
		"full":          {PassportID: "TP-1", StateVersion: 3, State: state, CompiledContext: "# md\n<&>", HandoffPrompt: "p", Data: "d", Briefing: b},
		"state omitted": {PassportID: "TP-1", StateVersion: 3, StateOmitted: "left out", CompiledContext: "c", Briefing: b},
	} {
		want, err := ojson.MarshalCanonical(o)
		if err != nil {
			t.Fatal(err)
		}
		if got := ojson.Canonical(openDoc(o)); string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// bigEnv is a store holding the big passport, and the IO that runs tp on it.
func bigEnv(b testing.TB, n int) (bio *IO, id, dir string) {
	dir = b.TempDir()
	storeDir, id := writeBigPassport(b, dir, n)
	env := map[string]string{"TP_STORE": storeDir, "TP_MACHINE": "bench", "TP_ACTOR": "bench", "HOME": b.TempDir()}
	return &IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, Env: func(k string) string { return env[k] }}, id, dir
}

// BenchmarkPackBigPassport is `tp pack ID --out F` of the 110,000-fact
// passport (issue 20: ≤ 1 s and ≤ 100 MB, like open --json).
func BenchmarkPackBigPassport(b *testing.B) {
	bio, id, dir := bigEnv(b, 110_000)
	out := filepath.Join(dir, "big.taskpack")
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"pack", id, "--out", out, "--force", "--sign=false", "--plain"}, bio); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkLandBigPassport is `tp land F --plain` of the pack of the
// 110,000-fact passport, into a fresh store each time.
func BenchmarkLandBigPassport(b *testing.B) {
	bio, id, dir := bigEnv(b, 110_000)
	out := filepath.Join(dir, "big.taskpack")
	if code := run([]string{"pack", id, "--out", out, "--sign=false", "--plain"}, bio); code != 0 {
		b.Fatalf("pack: exit %d", code)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		store := filepath.Join(dir, fmt.Sprintf("land%d", i))
		if code := run([]string{"--store", store, "land", out, "--plain"}, bio); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// Every job on a big passport is linear in its facts (issue 20): ten times
// the facts make at most eleven times the allocations (counted, not timed).
// It catches a step that copies or rebuilds something growing per fact; a
// search that allocates nothing (land's sender steps were one) it cannot
// see: the CPU profile of BenchmarkLandBigPassport does. And each job
// allocates at most its budget of bytes per fact, which a copy of the fact
// list made whole (a deep Clone is a handful of allocations, but about 380
// bytes a fact) breaks: each budget is what the job allocated at 10,000
// facts when written, plus 300 bytes.
//
// Not parallel: AllocsPerRun counts the whole process's allocations, and
// the parallel tests only start when the serial ones are done.
func TestBigPassportLinear(t *testing.T) {
	type job struct {
		name   string
		args   func(id, out, store string) []string
		budget float64 // bytes allocated per fact, at most
	}
	jobs := []job{
		{"pack", func(id, out, _ string) []string {
			return []string{"pack", id, "--out", out, "--force", "--sign=false", "--plain"}
		}, 1250},
		{"land", func(_, out, store string) []string { return []string{"--store", store, "land", out, "--plain"} }, 1250},
		{"open --json", func(id, _, _ string) []string { return []string{"open", id, "--json"} }, 1300},
		{"show", func(id, _, _ string) []string { return []string{"show", id, "--plain"} }, 860},
		{"conformance", func(_, out, _ string) []string { return []string{"conformance", out, "--plain"} }, 950},
	}
	type cost struct{ allocs, bytes float64 }
	measure := func(n int) []cost {
		bio, id, dir := bigEnv(t, n)
		out := filepath.Join(dir, "big.taskpack")
		costs := make([]cost, len(jobs))
		for j, jb := range jobs {
			i := 0
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			costs[j].allocs = testing.AllocsPerRun(1, func() {
				i++
				args := jb.args(id, out, filepath.Join(dir, fmt.Sprintf("land-%d-%d", j, i)))
				if code := run(args, bio); code != 0 {
					t.Fatalf("%s: exit %d", jb.name, code)
				}
			})
			runtime.ReadMemStats(&after)
			costs[j].bytes = float64(after.TotalAlloc-before.TotalAlloc) / float64(i)
		}
		return costs
	}
	c1, c10 := measure(1_000), measure(10_000)
	for j, jb := range jobs {
		t.Logf("%s: allocations %.0f → %.0f, bytes a fact %.0f → %.0f", jb.name, c1[j].allocs, c10[j].allocs, c1[j].bytes/1_000, c10[j].bytes/10_000)
		if c10[j].allocs > 11*c1[j].allocs {
			t.Errorf("%s: %.0f allocations for 1,000 facts, %.0f for 10,000: more than linear", jb.name, c1[j].allocs, c10[j].allocs)
		}
		if jb.budget > 0 && c10[j].bytes/10_000 > jb.budget {
			t.Errorf("%s: %.0f bytes allocated a fact, over its budget of %.0f: is the fact list copied again?", jb.name, c10[j].bytes/10_000, jb.budget)
		}
	}
}
