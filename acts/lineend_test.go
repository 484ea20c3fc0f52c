package acts

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A bare CR ends a line, as in CommonMark and on a screen (issue 11).
func TestBareCRIsALineEnd(t *testing.T) {
	t.Parallel()
	d, err := Parse([]byte("## Tasks\n- [ ] [owner] One\r- [ ] [owner] Two\r\n- [ ] [agent] Three\r"), enProfile(t))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range d.Tasks() {
		got = append(got, l.TaskText)
	}
	if strings.Join(got, "|") != "One|Two|Three" {
		t.Fatalf("tasks = %q", got)
	}
	var ends []string
	for _, l := range d.Lines {
		ends = append(ends, l.End)
	}
	if strings.Join(ends, ",") != "\n,\r,\r\n,\r" {
		t.Fatalf("line ends = %q", ends)
	}
}

// A strike of a line that follows a bare CR deletes that line only, never
// the line before it that shared its "line" for a LF-only reader.
func TestStrikeAfterBareCRKeepsThePreviousLine(t *testing.T) {
	t.Parallel()
	k := DeriveKey("demo", "Two")
	doc := "## Tasks\n\n- [ ] [owner] One\r- [ ] [owner] Two (waiting on owner: " + k + ")\n"
	acts, _, err := statesOf([]Record{raisedRecord(k, "Two"), settledRecord("s-"+k, k)})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(RunInput{Document: []byte(doc), Profile: enProfile(t), Project: "demo", Acts: acts, Acked: map[string]bool{}, Now: "2026-10-27T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Struck != 1 {
		t.Fatalf("struck %d lines", out.Struck)
	}
	// "One" is a new principal line: it is stamped, and it is still there.
	if !bytes.Contains(out.Document, []byte("- [ ] [owner] One")) || bytes.Contains(out.Document, []byte("Two")) {
		t.Fatalf("document after the strike:\n%q", out.Document)
	}
}

// CRLF documents stay CRLF; a CR-only document stays CR-only.
func TestNewLinesFollowTheDocumentsLineEnd(t *testing.T) {
	t.Parallel()
	k := DeriveKey("demo", "Renew the domain")
	reopened := Record{PH: "0.3", Ext: "acts/0.3", ID: "o-" + k, Type: TypeReopened, Origin: "principal", By: "ps:a", Key: k, Project: "demo",
		TS: "2026-10-03T00:00:00Z", Supersedes: []string{"s-" + k}, RestoreText: "Renew the domain"}
	acts, _, err := statesOf([]Record{raisedRecord(k, "Renew the domain"), settledRecord("s-"+k, k), reopened})
	if err != nil {
		t.Fatal(err)
	}
	for _, eol := range []string{"\r\n", "\r", "\n"} {
		doc := strings.ReplaceAll("# Project\n\n## Tasks\n\n- [ ] [agent] Water the seedlings\n", "\n", eol)
		out, err := Run(RunInput{Document: []byte(doc), Profile: enProfile(t), Project: "demo", Acts: acts, Acked: map[string]bool{}, Now: "2026-10-27T00:00:00Z"})
		if err != nil {
			t.Fatal(err)
		}
		if out.Added != 1 {
			t.Fatalf("%q: added %d", eol, out.Added)
		}
		other := strings.ReplaceAll(strings.ReplaceAll("\r\n|\r|\n", eol, ""), "||", "|")
		rest := strings.ReplaceAll(string(out.Document), eol, "")
		for _, o := range strings.Split(other, "|") {
			if o != "" && strings.Contains(rest, o) {
				t.Fatalf("%q document got another line end:\n%q", eol, out.Document)
			}
		}
	}
}

// FuzzParseLineEnds: any mix of LF, CRLF and bare CR reads back to its own
// bytes; no line's text holds a CR or LF; only the last line may lack an
// end; and a registrar run keeps every line end of the lines it keeps.
func FuzzParseLineEnds(f *testing.F) {
	for _, s := range []string{
		"## Tasks\n- [ ] [owner] One\r- [ ] [owner] Two\n",
		"## Tasks\r\n- [ ] [owner] a\r\n\r\r\n- [ ] [agent] b\r",
		"## Tasks\r- [ ] [owner] a\r\r",
		"\r\n\r\r\n\n\r",
		"## Tasks\n- [ ] [owner] a\r\r\n",
	} {
		f.Add([]byte(s))
	}
	en := enProfile(f)
	f.Fuzz(func(t *testing.T, doc []byte) {
		d, err := Parse(doc, en)
		if err != nil {
			var nu *NotUTF8Error
			if !errors.As(err, &nu) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !bytes.Equal(d.Bytes(), doc) {
			t.Fatalf("round trip lost bytes")
		}
		for i, l := range d.Lines {
			if strings.ContainsAny(l.Text, "\r\n") {
				t.Fatalf("line %d text holds a line end: %q", l.Num, l.Text)
			}
			switch l.End {
			case "\n", "\r\n", "\r":
			case "":
				if i != len(d.Lines)-1 {
					t.Fatalf("line %d has no end but is not last", l.Num)
				}
			default:
				t.Fatalf("line %d end %q", l.Num, l.End)
			}
		}
		out, err := Run(RunInput{Document: doc, Profile: en, Project: "demo", Acts: map[string]*ActState{}, Acked: map[string]bool{}, Now: "2026-10-27T00:00:00Z"})
		if err != nil {
			t.Fatal(err)
		}
		// Stamping only appends a marker: the line ends, in order, are the
		// same (a placeholder or re-added line may add one at the end).
		nd, err := Parse(out.Document, en)
		if err != nil {
			t.Fatal(err)
		}
		if len(nd.Lines) < len(d.Lines) {
			t.Fatalf("a run with no acts deleted lines")
		}
		for i := range d.Lines {
			if d.Lines[i].End != "" && nd.Lines[i].End != d.Lines[i].End {
				t.Fatalf("line %d end %q became %q", i+1, d.Lines[i].End, nd.Lines[i].End)
			}
		}
	})
}
