package actsession

import (
	"context"
	"fmt"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// raiseDoc is a state document of n lines, every third an owner line the
// registrar has never seen: a first sync raises and stamps about n/3 acts.
func raiseDoc(n int) []byte {
	var b strings.Builder
	b.WriteString("# Project\n\n## Tasks\n\n")
	for k := 4; k < n; k++ {
		switch k % 3 {
		case 0:
			fmt.Fprintf(&b, "- [ ] [owner] Pay invoice number %d for the shed repairs\n", k)
		case 1:
			fmt.Fprintf(&b, "- [ ] [agent] Draft note %d\n", k)
		default:
			fmt.Fprintf(&b, "Some context line %d\n", k)
		}
	}
	return []byte(b.String())
}

// BenchmarkSyncRaise is the issue-8 case: one sync of a 10,000-line
// document that raises 3,332 new acts (records written as one batch, the
// document written once); and ten times that, to show it scales linearly.
func BenchmarkSyncRaise(b *testing.B) {
	prof, err := acts.ProfileByName("en", nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10_000, 100_000} {
		doc := raiseDoc(n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			if n > 10_000 && testing.Short() {
				b.Skip("-short")
			}
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := b.TempDir()
				path := filepath.Join(dir, "STATE.md")
				if err := os.WriteFile(path, doc, 0o644); err != nil {
					b.Fatal(err)
				}
				l := recordlog.OpenLog(filepath.Join(dir, "acts"))
				b.StartTimer()
				rep, err := Sync(context.Background(), l, SyncRequest{Document: path, Project: "bench", Profile: prof})
				if err != nil || rep.Stamped == 0 {
					b.Fatalf("%v %+v", err, rep)
				}
			}
		})
	}
}

// wordsDoc is a state document of about 1.8 MB whose n owner lines each hold
// words of text (seeded by seed, so two seeds give lines that share words
// but are not the same lines).
func wordsDoc(n, words int, seed int) []byte {
	vocab := strings.Fields("renew the domain pay invoice shed repairs call registrar water plants feed cat walk dog order parts fix roof paint fence book flights file taxes clean gutters")
	if words < 0 { // -words CJK characters drawn from 20,000: no two lines alike
		vocab = nil
		for c := rune(0x4e00); c < 0x4e00+20_000; c++ {
			vocab = append(vocab, string(c))
		}
		words = -words
	}
	var b strings.Builder
	b.WriteString("# Project\n\n## Tasks\n\n")
	x := uint32(seed*7919 + 1)
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "- [ ] [owner] %d", seed*n+k)
		for w := 0; w < words; w++ {
			x = x*1664525 + 1013904223
			if len(vocab[0]) == 1 || len(vocab) < 1000 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[(x>>8)%uint32(len(vocab))])
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// BenchmarkSyncRewrittenBigDocument is issue 15's case: a 1.8 MB document
// whose every line was replaced after its acts were raised, so every act
// has vanished and is compared with every line for a rewrite (§4 step 5).
// Three shapes: 30 lines of 60 KB of words (the longest a task line may be
// is 64 KiB), 28 lines of 21,000 CJK characters none alike (each pair is
// searched for a common run), and 30,000 lines of 60 bytes.
func BenchmarkSyncRewrittenBigDocument(b *testing.B) {
	prof, err := acts.ProfileByName("en", nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, shape := range []struct{ lines, words int }{{30, 10_000}, {28, -21_000}, {30_000, 8}} {
		before, after := wordsDoc(shape.lines, shape.words, 1), wordsDoc(shape.lines, shape.words, 2)
		b.Run(fmt.Sprintf("lines=%d/words=%d/bytes=%d", shape.lines, shape.words, len(after)), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := b.TempDir()
				path := filepath.Join(dir, "STATE.md")
				if err := os.WriteFile(path, before, 0o644); err != nil {
					b.Fatal(err)
				}
				l := recordlog.OpenLog(filepath.Join(dir, "acts"))
				if _, err := Sync(context.Background(), l, SyncRequest{Document: path, Project: "bench", Profile: prof}); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(path, after, 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				rep, err := Sync(context.Background(), l, SyncRequest{Document: path, Project: "bench", Profile: prof})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(rep.Sent)), "sent")
				b.ReportMetric(float64(len(rep.Warnings)), "warnings")
			}
		})
	}
}
