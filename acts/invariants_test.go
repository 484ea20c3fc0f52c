package acts

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// bigDoc builds a large, real-looking state document and, beside it, the
// document the registrar must write: every line outside what §5.5 allows
// to change is expected byte for byte (I4). eol is the line end; mixed
// documents use both.
type bigDoc struct {
	in, want []string // lines without ends
	ends     []string
	wantEnds []string
	log      []Record
	newKeys  []string // keys the run must raise, in document order
	struck   []string // settlement ids the run must apply
}

func (b *bigDoc) add(in, want string, end string) {
	b.in = append(b.in, in)
	b.ends = append(b.ends, end)
	if want != "\x00" { // "\x00": the line must be deleted
		b.want = append(b.want, want)
		b.wantEnds = append(b.wantEnds, end)
	}
}

func raisedRecord(key, text string) Record {
	return Record{PH: "0.3", Ext: "acts/0.3", ID: RaisedID(key), Type: TypeRaised, Origin: "requester", By: "registrar:demo",
		Key: key, Project: "demo", TS: "2026-10-01T00:00:00Z", Terms: &Terms{Text: text}, TermsRev: 1}
}

func settledRecord(id, key string) Record {
	return Record{PH: "0.3", Ext: "acts/0.3", ID: id, Type: TypeSettled, Origin: "principal", By: "ps:assistant",
		Key: key, Project: "demo", TS: "2026-10-02T00:00:00Z", Outcome: "done", Authority: &Authority{Kind: "principal", Decider: "p:owner"}, TermsRev: 1}
}

func makeBigDoc(p Profile, n int, eol func(i int) string, rng *rand.Rand) *bigDoc {
	b := &bigDoc{}
	i := 0
	next := func() string { i++; return eol(i) }
	prose := []string{
		"# Project state   ", "", "Updated by the build agent.\t", "> Quote with - [ ] [owner] inside", "```sh", "## Tasks (in code, but a level-2 heading all the same)", "```",
		"| col | - [ ] [owner] x |", "|-----|-----|", "* bullet with trailing spaces   ", "  - [ ] [owner] indented outside", "- [ ] [owner] Outside the section",
		"Ünïcödé prose — “quotes” 中文\u3000全形空白", "",
	}
	for _, l := range prose[:3] {
		b.add(l, l, next())
	}
	b.add(p.Heading+" ", p.Heading+" ", next())
	b.add("", "", next())
	label := func(c string) string { return p.LabelOpen + p.LabelOf(c) + p.LabelClose + p.LabelSeparator }
	for j := 0; j < n; j++ {
		text := fmt.Sprintf("Task %d: renew licence %d for the office \u00b7 %x", j, j*7, rng.Int63())
		key := DeriveKey("demo", text)
		switch j % 10 {
		case 0, 1, 2, 3: // keyed, open: unchanged
			l := "- [ ] " + label(ClassPrincipal) + text + p.RenderMarker(key)
			if j%4 == 1 {
				l += "  " // trailing spaces stay: the line is not stamped
			}
			b.add(l, l, next())
			b.log = append(b.log, raisedRecord(key, text))
		case 4: // new: stamped (trailing whitespace removed first)
			l := "- [ ] " + label(ClassPrincipal) + text + " \t"
			b.add(l, "- [ ] "+label(ClassPrincipal)+text+p.RenderMarker(key), next())
			b.newKeys = append(b.newKeys, key)
		case 5: // settled and not yet applied: struck
			b.add("- [ ] "+label(ClassPrincipal)+text+p.RenderMarker(key), "\x00", next())
			id := fmt.Sprintf("s-%d", j)
			b.log = append(b.log, raisedRecord(key, text), settledRecord(id, key))
			b.struck = append(b.struck, id)
		case 6: // agent, undecided, prose, sub-lists: never touched
			for _, l := range []string{"- [ ] " + label(ClassAgent) + text, "- [ ] " + label(ClassUndecided) + text + "?", "  continuation of the line above\t", "", "Some prose about " + text} {
				b.add(l, l, next())
			}
		case 7: // malformed lines are reported, never rewritten
			for _, l := range []string{"- [x] " + label(ClassPrincipal) + text, "- [ ] [nobody] " + text, "- [ ]"} {
				b.add(l, l, next())
			}
		case 8: // grouped items
			gh := "### " + p.LabelOpen + p.Labels.Principal + p.LabelClose
			b.add(gh, gh, next())
			b.add("- [ ] "+text, "- [ ] "+text+p.RenderMarker(key), next())
			b.newKeys = append(b.newKeys, key)
			gh = "#### " + p.LabelOpen + p.Labels.Agent + p.LabelClose + "  "
			b.add(gh, gh, next())
		case 9: // a keyed line settled earlier and acknowledged: left alone
			l := "- [ ] " + label(ClassPrincipal) + text + p.RenderMarker(key)
			b.add(l, l, next())
			b.log = append(b.log, raisedRecord(key, text))
		}
	}
	b.add("", "", next())
	for _, l := range prose[3:] {
		b.add(l, l, next())
	}
	b.ends[len(b.ends)-1] = ""
	b.wantEnds[len(b.wantEnds)-1] = ""
	return b
}

func join(lines, ends []string) []byte {
	var buf bytes.Buffer
	for i := range lines {
		buf.WriteString(lines[i])
		buf.WriteString(ends[i])
	}
	return buf.Bytes()
}

// I4 on large documents, LF, CRLF and mixed: the registrar changes only
// the lines §5.5 tells it to stamp or strike; every other byte stays.
func TestLinesOutsideTheProtocolArePreserved(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		p    Profile
		eol  func(int) string
	}{
		{"en LF", enProfile(t), func(int) string { return "\n" }},
		{"en CRLF", enProfile(t), func(int) string { return "\r\n" }},
		{"zh-hant CRLF", zhProfile(t), func(int) string { return "\r\n" }},
		{"en mixed", enProfile(t), func(i int) string {
			if i%3 == 0 {
				return "\r\n"
			}
			return "\n"
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := makeBigDoc(c.p, 3000, c.eol, rand.New(rand.NewSource(7)))
			in := join(b.in, b.ends)
			acts, _, err := statesOf(b.log)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Run(RunInput{Document: in, Profile: c.p, Project: "demo", Acts: acts, Acked: map[string]bool{}, Now: "2026-10-27T00:00:00Z"})
			if err != nil {
				t.Fatal(err)
			}
			want := join(b.want, b.wantEnds)
			if !bytes.Equal(out.Document, want) {
				gl, wl := strings.Split(string(out.Document), "\n"), strings.Split(string(want), "\n")
				for i := range wl {
					if i >= len(gl) || gl[i] != wl[i] {
						t.Fatalf("line %d differs:\n got %q\nwant %q", i+1, at(gl, i), wl[i])
					}
				}
				t.Fatalf("documents differ in length: %d vs %d lines", len(gl), len(wl))
			}
			var raisedIDs []string
			for _, k := range b.newKeys {
				raisedIDs = append(raisedIDs, RaisedID(k))
			}
			if got := sentIDs(out.Send); strings.Join(got, " ") != strings.Join(raisedIDs, " ") {
				t.Fatalf("sent %d records, want %d raised in document order", len(got), len(raisedIDs))
			}
			if strings.Join(sortedCopy(out.Applied), " ") != strings.Join(sortedCopy(b.struck), " ") {
				t.Fatalf("applied %d settlements, want %d", len(out.Applied), len(b.struck))
			}
			if out.Struck != len(b.struck) || out.Stamped != len(b.newKeys) {
				t.Fatalf("struck %d stamped %d", out.Struck, out.Stamped)
			}
			// I3 over the same large document.
			acts2, _, err := statesOf(append(b.log, out.Send...))
			if err != nil {
				t.Fatal(err)
			}
			acked := map[string]bool{}
			for _, id := range out.Applied {
				acked[id] = true
			}
			again, err := Run(RunInput{Document: out.Document, Profile: c.p, Project: "demo", Acts: acts2, Acked: acked, Now: "2026-10-28T00:00:00Z"})
			if err != nil || again.Changed || len(again.Send) > 0 || len(again.Applied) > 0 {
				t.Fatalf("I3: %v changed %v sent %d applied %d", err, again.Changed, len(again.Send), len(again.Applied))
			}
		})
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "<none>"
}

func sortedCopy(s []string) []string {
	m := map[string]bool{}
	for _, x := range s {
		m[x] = true
	}
	return sortedKeys(m)
}

// FuzzRegistrar: over any document and a log with open, amended, settled,
// reopened and withdrawn acts, a run followed by a second run over its
// result (records sent, settlements acknowledged) changes nothing the
// second time (I3), and the lines before the tasks section are kept byte
// for byte (I4).
func FuzzRegistrar(f *testing.F) {
	texts := []string{"Renew the domain", "Collect the shed key", "Sign the lease", "繳交社區花園租金", "Pay"}
	keys := make([]string, len(texts))
	for i, t := range texts {
		keys[i] = DeriveKey("demo", t)
	}
	for _, s := range []string{
		"## Tasks\n- [ ] [owner] Renew the domain\n",
		"# x\n## Tasks\n- [ ] [owner] Collect the shed key (waiting on owner: " + keys[1] + ")\n- [ ] [owner] Pay\n- [ ] [owner] Pay\n",
		"## Tasks\r\n### [owner]\r\n- [ ] Sign the lease\r\n- (none)\r\n",
		"## 待辦\n- [ ] 〔Owner〕繳交社區花園租金\n",
		"intro\n",
		"## Tasks\n- [x] [owner] Renew the domain (waiting on owner: " + keys[0] + ")\n## Next\n",
		"## Tasks\n- [ ] [owner] Renew the domain (waiting on owner: " + keys[2] + ")\n- [ ] [owner] Sign the lease\n",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(1))
	}
	en, zh := enProfile(f), zhProfile(f)
	f.Fuzz(func(t *testing.T, doc []byte, mode uint8) {
		p := en
		if mode&1 == 1 {
			p = zh
		}
		var log []Record
		for i, k := range keys {
			r := raisedRecord(k, texts[i])
			switch (i + int(mode>>1)) % 5 {
			case 0:
				log = append(log, r)
			case 1:
				log = append(log, r, settledRecord("s-"+k, k))
			case 2:
				log = append(log, r, settledRecord("s-"+k, k), Record{PH: "0.3", Ext: "acts/0.3", ID: "o-" + k, Type: TypeReopened, Origin: "principal", By: "ps:a", Key: k, Project: "demo", TS: "2026-10-03T00:00:00Z", Supersedes: []string{"s-" + k}, RestoreText: texts[i]})
			case 3:
				log = append(log, r, Record{PH: "0.3", Ext: "acts/0.3", ID: "w:" + k, Type: TypeWithdrawn, Origin: "requester", By: "agent:a", Key: k, Project: "demo", TS: "2026-10-03T00:00:00Z", Reason: "not_needed", Supersedes: []string{r.ID}})
			case 4:
				a := Record{PH: "0.3", Ext: "acts/0.3", ID: "a:" + k + ":2", Type: TypeAmended, Origin: "requester", By: "registrar:demo", Key: k, Project: "demo", TS: "2026-10-03T00:00:00Z", Terms: &Terms{Text: texts[i] + " soon"}, TermsRev: 2, Supersedes: []string{r.ID}}
				log = append(log, r, a)
			}
		}
		run := func(doc []byte, log []Record, acked map[string]bool) (RunOutput, error) {
			acts, _, err := statesOf(log)
			if err != nil {
				t.Fatal(err)
			}
			return Run(RunInput{Document: doc, Profile: p, Project: "demo", Acts: acts, Acked: acked, Now: "2026-10-27T00:00:00Z"})
		}
		out, err := run(doc, log, map[string]bool{})
		if err != nil {
			return // not UTF-8
		}
		d, _ := Parse(doc, p)
		if d.HasSection && d.Heading > 0 {
			prefix := d.Bytes()
			n := 0
			for i := 0; i < d.Heading; i++ {
				n += len(d.Lines[i].Text) + len(d.Lines[i].End)
			}
			if d.BOM {
				n += 3
			}
			if !bytes.HasPrefix(out.Document, prefix[:n]) {
				t.Fatalf("I4: the lines before the tasks section changed")
			}
		}
		if d.HasSection && d.End < len(d.Lines) {
			var suffix []byte
			for _, l := range d.Lines[d.End:] {
				suffix = append(append(suffix, l.Text...), l.End...)
			}
			if !bytes.HasSuffix(out.Document, suffix) {
				t.Fatalf("I4: the lines after the tasks section changed")
			}
		}
		// The registrar writes markers only on principal lines it stamps or
		// re-adds: any keyed line of the result that is not an input line
		// is a principal task.
		inLines := map[string]bool{}
		for _, l := range d.Lines {
			inLines[l.Text] = true
		}
		od, err := Parse(out.Document, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range od.Lines {
			if l.Key != "" && !inLines[l.Text] && (l.Kind != KindTask || l.Class != ClassPrincipal) {
				t.Fatalf("a marker was written on line %d, which is not a principal task: %q", l.Num, l.Text)
			}
		}
		acked := map[string]bool{}
		for _, id := range out.Applied {
			acked[id] = true
		}
		again, err := run(out.Document, append(log, out.Send...), acked)
		if err != nil {
			t.Fatal(err)
		}
		if again.Changed || len(again.Send) > 0 || len(again.Applied) > 0 {
			t.Fatalf("I3: second run changed %v, sent %v, applied %v\nfirst:\n%q\nsecond:\n%q", again.Changed, sentIDs(again.Send), again.Applied, out.Document, again.Document)
		}
	})
}
