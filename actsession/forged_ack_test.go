package actsession

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
)

// Issue 15's open finding (D19): an acked/ entry an agent wrote for a
// settlement the registrar has not applied. Sync strikes the line all the
// same (its ledger decides), and a line put back after this machine struck
// it is still never struck again (D16). CheckDocument tells the two apart.
func TestAttackForgedAck(t *testing.T) {
	t.Parallel()
	p := newTrustedProject(t)
	st := p.act(t, "shed key")
	s := p.settle(t, st, p.alice, "s")
	dir := p.l.AckedDir("garden")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, recordlog.EncodeName(s.ID)), []byte(s.ID+"\n"), 0o644))

	prof := p.req.Profile
	ld, err := p.l.Load("garden")
	must(t, err)
	doc, _ := os.ReadFile(p.doc)
	fs, err := CheckDocument(ld, "STATE.md", doc, prof)
	must(t, err)
	if len(fs) != 1 || fs[0].Kind != FindingDocument || fs[0].Key != st.Key || !strings.Contains(fs[0].Text, "acked/ says "+s.ID+" was applied to the document, but this machine's registrar never applied it") {
		t.Fatalf("CheckDocument before sync = %+v", fs)
	}

	rep := p.sync(t)
	if len(rep.Applied) != 1 || rep.Applied[0].ID != s.ID || rep.Struck != 1 {
		t.Fatalf("the forged acknowledgement stopped the settlement: %+v", rep)
	}
	for _, w := range rep.Warnings {
		if w.Key == st.Key {
			t.Errorf("warning for the settled act: %v", w)
		}
	}
	struck, _ := os.ReadFile(p.doc)
	if strings.Contains(string(struck), "shed key") {
		t.Fatalf("line not struck:\n%s", struck)
	}

	// D16: the line put back after this machine struck it stays, warned.
	must(t, os.WriteFile(p.doc, []byte(string(struck)+"- [ ] [owner] Collect the shed key\n"), 0o644))
	rep = p.sync(t)
	if rep.Struck != 0 || len(rep.Applied) != 0 {
		t.Fatalf("a line re-declared after its act was struck was struck again: %+v", rep)
	}
	warned := false
	for _, w := range rep.Warnings {
		warned = warned || (w.Key == st.Key && strings.Contains(w.Message, "already settled"))
	}
	if !warned {
		t.Errorf("no warning for the re-declared line: %+v", rep.Warnings)
	}
	ld, err = p.l.Load("garden")
	must(t, err)
	doc, _ = os.ReadFile(p.doc)
	fs, err = CheckDocument(ld, "STATE.md", doc, prof)
	must(t, err)
	if len(fs) != 1 || !strings.Contains(fs[0].Text, "was struck here by this machine's registrar") || !strings.HasPrefix(fs[0].Text, "STATE.md:") {
		t.Fatalf("CheckDocument after the line was put back = %+v", fs)
	}
}

// CheckDocument's table: which lines of a document are findings.
func TestCheckDocument(t *testing.T) {
	t.Parallel()
	prof, err := acts.ProfileByName("en", nil)
	must(t, err)
	for _, tc := range []struct {
		name   string
		ledger bool
		ack    bool
		line   string
		want   string // "" for no finding
	}{
		{name: "pending settlement", line: "- [ ] [owner] Collect the shed key (waiting on owner: KEY)"},
		{name: "applied here, line back", ledger: true, line: "- [ ] [owner] Collect the shed key (waiting on owner: KEY)", want: "was struck here by this machine's registrar"},
		{name: "only acked/ says so", ack: true, line: "- [ ] [owner] Collect the shed key (waiting on owner: KEY)", want: "acked/ says"},
		{name: "applied here, ticked line kept", ledger: true, line: "- [x] [owner] Collect the shed key (waiting on owner: KEY)", want: "was struck here"},
		{name: "applied here, line gone", ledger: true, line: "- [ ] [owner] Oil the gate"},
		{name: "key only in the text", ledger: true, line: "- [ ] [owner] see KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newTrustedProject(t)
			st := p.act(t, "shed key")
			s := p.settle(t, st, p.alice, "s")
			ld, err := p.l.Load("garden")
			must(t, err)
			if tc.ledger {
				ld.Ledger = map[string]recordlog.LedgerEntry{s.ID: {ID: s.ID, Key: st.Key}}
				ld.Acked[s.ID] = true
			}
			if tc.ack {
				ld.AckFiles[s.ID] = true
			}
			doc := "## Tasks\n\n" + strings.ReplaceAll(tc.line, "KEY", st.Key) + "\n"
			fs, err := CheckDocument(ld, "S.md", []byte(doc), prof)
			must(t, err)
			switch {
			case tc.want == "" && len(fs) != 0:
				t.Fatalf("findings %+v", fs)
			case tc.want != "" && (len(fs) != 1 || !strings.Contains(fs[0].Text, tc.want) || !strings.HasPrefix(fs[0].Text, "S.md:3: ")):
				t.Fatalf("findings %+v, want one with %q", fs, tc.want)
			}
		})
	}
}
