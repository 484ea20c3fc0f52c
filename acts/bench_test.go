package acts

import (
	"fmt"
	"strings"
	"testing"
)

// benchInput is a document of n task lines and a log of 5 records per line
// (n=10,000 → 50,000 records): most lines keyed and open with a history
// (raised, amended, a note, an agent claim, a relation), 5% new lines to
// raise, 2% pending settlements to strike, 2% edited lines to amend, and 1%
// of the acts vanished from the document (claims).
func benchInput(b *testing.B, n int) (RunInput, int) {
	p := enProfile(b)
	var doc strings.Builder
	doc.WriteString("# Project\n\nSome intro prose.\n\n## Tasks\n\n")
	var log []Record
	add := func(rs ...Record) { log = append(log, rs...) }
	for i := 0; i < n; i++ {
		text := fmt.Sprintf("Task number %d: renew the licence for office %d", i, i%97)
		k := DeriveKey("bench", text)
		r := raisedRecord(k, text)
		r.Project, r.By = "bench", "registrar:bench"
		switch {
		case i%100 < 5: // new line
			fmt.Fprintf(&doc, "- [ ] [owner] %s\n", text)
			continue
		case i%100 < 7: // pending settlement
			s := settledRecord(fmt.Sprintf("s-%d", i), k)
			s.Project = "bench"
			add(r, s)
		case i%100 < 9: // edited
			add(r)
			fmt.Fprintf(&doc, "- [ ] [owner] %s (edited)%s\n", text, p.RenderMarker(k))
			continue
		case i%100 < 10: // vanished
			add(r)
			continue
		default:
			add(r)
		}
		fmt.Fprintf(&doc, "- [ ] [owner] %s%s\n", text, p.RenderMarker(k))
	}
	// Fill the log up to 5 records per line with history that does not
	// change the state: amendments back and forth, notes, claims, relations.
	base := len(log)
	for i := 0; len(log) < 5*n; i++ {
		r := log[i%base]
		if r.Type != TypeRaised {
			continue
		}
		switch (i / base) % 3 {
		case 0:
			add(Record{PH: "0.3", Ext: "acts/0.3", ID: "n-" + r.Key, Type: TypeNote, Origin: "principal", By: "ps:a", Key: r.Key, Project: "bench", TS: "2026-10-03T00:00:00Z", About: &About{Quote: "x"}})
		case 1:
			add(Record{PH: "0.3", Ext: "acts/0.3", ID: "c-agent-" + r.Key, Type: TypeClaimed, Origin: "agent", By: "agent:a", Key: r.Key, Project: "bench", TS: "2026-10-03T00:00:00Z", Outcome: "done", Evidence: &Evidence{Basis: "said so"}})
		case 2:
			add(Record{PH: "0.3", Ext: "acts/0.3", ID: "rel-" + r.Key, Type: TypeRelated, Origin: "requester", By: "agent:a", Key: r.Key, Project: "bench", TS: "2026-10-03T00:00:00Z", Relation: "derived_from", Target: "x"})
		}
	}
	doc.WriteString("\n## Notes\n\nMore prose.\n")
	acts, _, err := statesOf(log)
	if err != nil {
		b.Fatal(err)
	}
	// Notes and relations were delivered by earlier runs.
	acked := map[string]bool{}
	for _, r := range log {
		if r.Type == TypeNote || r.Type == TypeRelated {
			acked[r.ID] = true
		}
	}
	return RunInput{Document: []byte(doc.String()), Profile: p, Project: "bench", Acts: acts, Acked: acked, Now: "2026-10-27T00:00:00Z"}, len(log)
}

func BenchmarkRun(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			in, records := benchInput(b, n)
			b.ReportMetric(float64(records), "records")
			b.SetBytes(int64(len(in.Document)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := Run(in)
				if err != nil || len(out.Send) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			in, _ := benchInput(b, n)
			b.SetBytes(int64(len(in.Document)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Parse(in.Document, in.Profile); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReconcileNoRewrite is step 5's worst case: 100 vanished keys
// whose texts resemble no line, so every key is compared with every line.
// Its cost is O(vanished keys × task lines).
func BenchmarkReconcileNoRewrite(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			p := enProfile(b)
			var doc strings.Builder
			doc.WriteString("## Tasks\n")
			acts := map[string]*ActState{}
			words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"}
			for i := 0; i < n; i++ {
				text := fmt.Sprintf("%s %s %d", words[i%10], words[(i/10)%10], i)
				k := DeriveKey("bench", text)
				fmt.Fprintf(&doc, "- [ ] [owner] %s%s\n", text, p.RenderMarker(k))
				acts[k] = &ActState{Key: k, Project: "bench", Status: StatusOpen, Need: NeedActive, TermsRev: 1, Text: text, NeedID: RaisedID(k)}
			}
			for i := 0; i < 100; i++ {
				text := fmt.Sprintf("Quizzical xylophone zymurgy %c%c", 'K'+i%10, 'P'+i/10)
				k := DeriveKey("bench", text)
				acts[k] = &ActState{Key: k, Project: "bench", Status: StatusOpen, Need: NeedActive, TermsRev: 1, Text: text, NeedID: RaisedID(k)}
			}
			in := RunInput{Document: []byte(doc.String()), Profile: p, Project: "bench", Acts: acts, Now: "2026-10-27T00:00:00Z"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := Run(in)
				if err != nil || len(out.Send) != 100 {
					b.Fatalf("%v: sent %d", err, len(out.Send))
				}
			}
		})
	}
}
