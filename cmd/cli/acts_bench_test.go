package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/cputest"
)

// benchSyncSetup writes a state document of `lines` owner task lines, all
// stamped, and a record log of `records` records: a raised per line, 1% of
// the acts settled and not yet acknowledged (their lines get struck), and
// history that does not change the state (notes, agent claims, derived_from
// relations) up to the total. Records are written straight to their files;
// the benchmark measures sync, not the setup.
func benchSyncSetup(b *testing.B, lines, records int) (doc string, env map[string]string) {
	return benchSyncSetupIn(b, b.TempDir(), lines, records)
}

func benchSyncSetupIn(b testing.TB, dir string, lines, records int) (doc string, env map[string]string) {
	l := recordlog.OpenLog(filepath.Join(dir, "acts"))
	if err := os.MkdirAll(l.RecordsDir("bench"), 0o755); err != nil {
		b.Fatal(err)
	}
	put := func(r acts.Record) {
		raw, err := acts.EncodeRecord(r)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(l.RecordPath("bench", r.ID), raw, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env0 := acts.Record{PH: "0.3", Ext: "acts/0.3", Project: "bench", TS: "2026-11-02T09:00:00Z"}
	var sb strings.Builder
	sb.WriteString("# Bench\n\nProse about the project.\n\n## Tasks\n\n")
	keys := make([]string, lines)
	n := 0
	for i := 0; i < lines; i++ {
		text := fmt.Sprintf("Task number %d: renew the licence for office %d", i, i%97)
		k := acts.DeriveKey("bench", text)
		keys[i] = k
		fmt.Fprintf(&sb, "- [ ] [owner] %s (waiting on owner: %s)\n", text, k)
		r := env0
		r.ID, r.Type, r.Origin, r.By, r.Key = acts.RaisedID(k), acts.TypeRaised, "requester", "registrar:bench", k
		r.Terms, r.TermsRev = &acts.Terms{Text: text}, 1
		put(r)
		n++
		if i%100 == 0 && n < records {
			s := env0
			s.ID, s.Type, s.Origin, s.By, s.Key = "s-"+k, acts.TypeSettled, "principal", "ps:bench", k
			s.Outcome, s.TermsRev, s.Authority = "done", 1, &acts.Authority{Kind: "principal", Decider: "p:owner"}
			put(s)
			n++
		}
	}
	sb.WriteString("\n## Notes\n\nMore prose.\n")
	for i := 0; n < records; i++ {
		k := keys[i%lines]
		r := env0
		r.Key = k
		switch (i / lines) % 3 {
		case 0:
			r.ID, r.Type, r.Origin, r.By, r.About = fmt.Sprintf("n-%d-%s", i, k), acts.TypeNote, "principal", "ps:bench", &acts.About{Quote: "q"}
		case 1:
			r.ID, r.Type, r.Origin, r.By, r.Outcome, r.Evidence = fmt.Sprintf("c-%d-%s", i, k), acts.TypeClaimed, "agent", "agent:bench", "done", &acts.Evidence{Basis: "said so"}
		case 2:
			r.ID, r.Type, r.Origin, r.By, r.Relation, r.Target = fmt.Sprintf("l-%d-%s", i, k), acts.TypeRelated, "requester", "agent:bench", "derived_from", keys[(i+1)%lines]
		}
		put(r)
		n++
	}
	doc = filepath.Join(dir, "STATE.md")
	if err := os.WriteFile(doc, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return doc, map[string]string{"TP_ACTS": l.Dir, "XDG_CACHE_HOME": filepath.Join(dir, "cache"), "TP_TRUST_DIR": filepath.Join(dir, "trust"), "TP_ACTOR": "bench", "TP_MACHINE": "bench"}
}

func benchSync(b *testing.B, doc string, env map[string]string) {
	var errb strings.Builder
	bio := &IO{In: strings.NewReader(""), Out: io.Discard, Err: &errb, Env: func(k string) string { return env[k] }}
	if code := run([]string{"acts", "sync", doc, "--project", "bench"}, bio); code != exitOK {
		b.Fatalf("sync exited %d: %s", code, errb.String())
	}
}

// BenchmarkActsSync is `tp acts sync` end to end: load and validate the
// log, lifecycle per key, read, run, send, write, acknowledge.
//   - first: the first run over the setup (strikes 1% of the lines, writes
//     the document, acknowledges), validation cache empty;
//   - steady: a run over a document and log already in step (the usual
//     case: nothing to send or change), validation cache warm.
func BenchmarkActsSync(b *testing.B) {
	for _, sz := range []struct{ lines, records int }{{10000, 50000}, {10000, 10000}, {100000, 100000}} {
		name := fmt.Sprintf("lines=%d/records=%d", sz.lines, sz.records)
		b.Run(name+"/first", func(b *testing.B) {
			var cpu cputest.Clock
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				doc, env := benchSyncSetup(b, sz.lines, sz.records)
				b.StartTimer()
				cpu.Start()
				benchSync(b, doc, env)
				cpu.Stop()
			}
			cpu.Report(b)
		})
		b.Run(name+"/steady", func(b *testing.B) {
			doc, env := benchSyncSetup(b, sz.lines, sz.records)
			benchSync(b, doc, env)
			before, _ := os.ReadFile(doc)
			b.ResetTimer()
			var cpu cputest.Clock
			for i := 0; i < b.N; i++ {
				cpu.Start()
				benchSync(b, doc, env)
				cpu.Stop()
			}
			cpu.Report(b)
			if after, _ := os.ReadFile(doc); string(after) != string(before) {
				b.Fatal("a steady run changed the document (I3)")
			}
		})
	}
}

// TestWriteSyncBenchFixture writes the benchmark's document and log to
// $TP_BENCH_OUT (lines and records from $TP_BENCH_LINES, $TP_BENCH_RECORDS)
// so the real binary can be timed with /usr/bin/time; skipped otherwise.
func TestWriteSyncBenchFixture(t *testing.T) {
	t.Parallel()
	out := os.Getenv("TP_BENCH_OUT")
	if out == "" {
		t.Skip("set TP_BENCH_OUT to write the sync benchmark fixture")
	}
	lines, records := 10000, 50000
	fmt.Sscan(os.Getenv("TP_BENCH_LINES"), &lines)
	fmt.Sscan(os.Getenv("TP_BENCH_RECORDS"), &records)
	doc, env := benchSyncSetupIn(t, out, lines, records)
	t.Logf("document %s, TP_ACTS=%s", doc, env["TP_ACTS"])
}
