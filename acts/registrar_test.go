package acts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sim is a registrar with a record log, run the way `tp acts sync` runs it:
// send, then write, then acknowledge.
type sim struct {
	t       *testing.T
	p       Profile
	project string
	doc     []byte
	log     []Record
	acked   map[string]bool
	secret  []byte
	n       int
}

func newSim(t *testing.T, p Profile, doc string) *sim {
	return &sim{t: t, p: p, project: "demo", doc: []byte(doc), acked: map[string]bool{}}
}

func (s *sim) input() RunInput {
	s.t.Helper()
	acts, _, err := statesOf(s.log)
	if err != nil {
		s.t.Fatal(err)
	}
	byID := map[string]Record{}
	for _, r := range s.log {
		byID[r.ID] = r
	}
	s.n++
	return RunInput{Document: s.doc, Profile: s.p, Project: s.project, Acts: acts, Acked: s.acked, Records: byID,
		Now: fmt.Sprintf("2026-10-27T02:%02d:00Z", s.n), Secret: s.secret}
}

// run runs the registrar, commits its result, and checks I3: a second run
// over the result sends nothing and changes nothing.
func (s *sim) run() RunOutput {
	s.t.Helper()
	out, err := Run(s.input())
	if err != nil {
		s.t.Fatal(err)
	}
	if out.Changed != !bytes.Equal(out.Document, s.doc) {
		s.t.Fatalf("Changed = %v, but the bytes say otherwise", out.Changed)
	}
	s.commit(out)
	again, err := Run(s.input())
	if err != nil {
		s.t.Fatal(err)
	}
	if len(again.Send) > 0 || again.Changed || len(again.Applied) > 0 || len(again.Deliver) > 0 {
		s.t.Fatalf("I3: second run sent %s, changed %v, applied %v\n%s", recordIDs(again.Send), again.Changed, again.Applied, again.Document)
	}
	return out
}

func (s *sim) commit(out RunOutput) {
	for _, r := range out.Send {
		raw, err := json.Marshal(r)
		if err != nil {
			s.t.Fatal(err)
		}
		if typ, err := ValidateRecord(raw); err != nil || typ != r.Type {
			s.t.Fatalf("record %s does not validate: %v", r.ID, err)
		}
		if r.TS == "" || r.By == "" || r.Project != s.project || r.PH != "0.3" || r.Ext != "acts/0.3" {
			s.t.Fatalf("record %s lacks envelope fields: %+v", r.ID, r)
		}
	}
	s.log = append(s.log, out.Send...)
	s.doc = out.Document
	for _, id := range out.Applied {
		s.acked[id] = true
	}
	for _, r := range out.Deliver {
		s.acked[r.ID] = true
	}
}

func (s *sim) state(key string) *ActState {
	s.t.Helper()
	acts, _, err := statesOf(s.log)
	if err != nil {
		s.t.Fatal(err)
	}
	return acts[key]
}

func (s *sim) principal(typ, key string) Record {
	s.n++
	return Record{PH: "0.3", Ext: "acts/0.3", ID: fmt.Sprintf("%s-%d", typ[:1], s.n), Type: typ, Origin: "principal", By: "ps:assistant",
		Key: key, Project: s.project, TS: fmt.Sprintf("2026-10-28T08:%02d:00Z", s.n)}
}

func (s *sim) settle(key, outcome string) string {
	r := s.principal(TypeSettled, key)
	r.Outcome, r.Authority, r.TermsRev = outcome, &Authority{Kind: "principal", Decider: "p:owner"}, 1
	if st := s.state(key); st != nil && st.SettlementID != "" {
		r.Supersedes = []string{st.SettlementID}
	}
	s.log = append(s.log, r)
	return r.ID
}

func (s *sim) reopen(key, restore string) string {
	r := s.principal(TypeReopened, key)
	r.Supersedes = []string{s.state(key).SettlementID}
	r.RestoreText = restore
	s.log = append(s.log, r)
	return r.ID
}

func (s *sim) withdraw(key string) {
	st := s.state(key)
	r := Record{PH: "0.3", Ext: "acts/0.3", ID: fmt.Sprintf("w:%s:%d", key, st.TermsRev), Type: TypeWithdrawn, Origin: "requester", By: "agent:x",
		Key: key, Project: s.project, TS: "2026-10-28T07:00:00Z", Reason: "not_needed", Supersedes: []string{st.NeedID}}
	s.log = append(s.log, r)
}

func (s *sim) expect(want string) {
	s.t.Helper()
	if string(s.doc) != want {
		s.t.Fatalf("document:\n%s\nwant:\n%s", s.doc, want)
	}
}

func sentIDs(rs []Record) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func expectSent(t *testing.T, out RunOutput, ids ...string) {
	t.Helper()
	if ids == nil {
		ids = []string{}
	}
	if got := sentIDs(out.Send); !reflect.DeepEqual(got, ids) {
		t.Fatalf("sent %v; want %v", got, ids)
	}
}

func hasWarning(out RunOutput, kind, key string) bool {
	for _, w := range out.Warnings {
		if w.Kind == kind && (key == "" || w.Key == key) {
			return true
		}
	}
	return false
}

const kDomain = "task-demo-c3d8af57d4" // "Renew the domain", Appendix A

// Appendix A, end to end.
func TestWorkedExample(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n\n- [ ] [owner] Renew the domain\n")
	out := s.run()
	expectSent(t, out, "r:"+kDomain)
	r := out.Send[0]
	if r.Type != TypeRaised || r.Origin != "requester" || r.By != "registrar:demo" || r.Key != kDomain || r.Terms.Text != "Renew the domain" || r.TermsRev != 1 {
		t.Fatalf("raised: %+v", r)
	}
	s.expect("## Tasks\n\n- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n")
	id := s.settle(kDomain, "done")
	out = s.run()
	expectSent(t, out)
	if !reflect.DeepEqual(out.Applied, []string{id}) || out.Struck != 1 {
		t.Fatalf("applied %v struck %d", out.Applied, out.Struck)
	}
	s.expect("## Tasks\n- (none)\n\n")
}

func TestRaiseStampsEveryNewPrincipalLineOnly(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "# Demo\n## Tasks\n- [ ] [owner] Pay the invoice   \n- [ ] [agent] Add retries\n- [ ] [undecided] Postgres?\n### [owner]\n- [ ] Sign   the\u3000contract\n- [x] [owner] Ticked\n## Notes\n- [ ] [owner] Not a task\n")
	out := s.run()
	k1, k2 := DeriveKey("demo", "Pay the invoice"), DeriveKey("demo", "Sign the contract")
	expectSent(t, out, "r:"+k1, "r:"+k2)
	if out.Send[1].Terms.Text != "Sign the contract" {
		t.Errorf("raised must carry the normalised text (D16): %q", out.Send[1].Terms.Text)
	}
	s.expect("# Demo\n## Tasks\n- [ ] [owner] Pay the invoice (waiting on owner: " + k1 + ")\n- [ ] [agent] Add retries\n- [ ] [undecided] Postgres?\n### [owner]\n- [ ] Sign   the\u3000contract (waiting on owner: " + k2 + ")\n- [x] [owner] Ticked\n## Notes\n- [ ] [owner] Not a task\n")
	if !hasWarning(out, WarnMalformed, "") {
		t.Error("the ticked line must be reported")
	}
}

// D16: two new lines with the same text share a key: one raised, both stamped, a warning.
func TestDuplicateNewLines(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n- [ ] [owner]  Renew  the domain\n")
	out := s.run()
	expectSent(t, out, "r:"+kDomain)
	m := " (waiting on owner: " + kDomain + ")"
	s.expect("## Tasks\n- [ ] [owner] Renew the domain" + m + "\n- [ ] [owner]  Renew  the domain" + m + "\n")
	if !hasWarning(out, WarnDuplicate, kDomain) {
		t.Errorf("no duplicate warning: %v", out.Warnings)
	}
	// A settlement strikes both.
	s.settle(kDomain, "done")
	s.run()
	s.expect("## Tasks\n- (none)\n")
}

// §11 / D16: a new line whose key is already settled is stamped and warned
// about; nothing is sent.
func TestNewLineWithSettledKey(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	s.settle(kDomain, "done")
	s.run()
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain\n")
	out := s.run()
	expectSent(t, out)
	s.expect("## Tasks\n- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n")
	if !hasWarning(out, WarnSettled, kDomain) {
		t.Errorf("no §11 warning: %v", out.Warnings)
	}
	// It keeps being reported, and never struck again (the settlement was applied).
	out, _ = Run(s.input())
	if !hasWarning(out, WarnSettled, kDomain) || out.Changed {
		t.Errorf("later run: %v", out.Warnings)
	}
}

func TestRelink(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	// An agent rewrote the line and dropped the marker.
	s.doc = []byte("## Tasks\n- [ ] [owner]   Renew the\tdomain  \n")
	out := s.run()
	expectSent(t, out)
	s.expect("## Tasks\n- [ ] [owner]   Renew the\tdomain (waiting on owner: " + kDomain + ")\n")
	// In the grouped form, too.
	s.doc = []byte("## Tasks\n### [owner]\n- [ ] Renew the domain\n")
	expectSent(t, s.run())
	s.expect("## Tasks\n### [owner]\n- [ ] Renew the domain (waiting on owner: " + kDomain + ")\n")
	// Not for an agent line: that one is not an act.
	s.doc = []byte("## Tasks\n- [ ] [agent] Renew the domain\n")
	out = s.run()
	if string(s.doc) != "## Tasks\n- [ ] [agent] Renew the domain\n" {
		t.Fatalf("agent line stamped: %s", s.doc)
	}
	// ... and the key vanished, but the agent line looks like its rewrite.
	if !hasWarning(out, WarnRewrite, kDomain) {
		t.Errorf("want a rewrite warning: %v", out.Warnings)
	}
}

func TestRelinkAfterAmendUsesLatestTerms(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain for two years (waiting on owner: " + kDomain + ")\n")
	out := s.run()
	expectSent(t, out, "a:"+kDomain+":2")
	a := out.Send[0]
	if a.TermsRev != 2 || a.Terms.Text != "Renew the domain for two years" || !reflect.DeepEqual(a.Supersedes, []string{"r:" + kDomain}) || a.Origin != "requester" {
		t.Fatalf("amended: %+v", a)
	}
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain for two years\n")
	expectSent(t, s.run())
	s.expect("## Tasks\n- [ ] [owner] Renew the domain for two years (waiting on owner: " + kDomain + ")\n")
	// A second amendment supersedes the first.
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain for 3 years (waiting on owner: " + kDomain + ")\n")
	out = s.run()
	expectSent(t, out, "a:"+kDomain+":3")
	if !reflect.DeepEqual(out.Send[0].Supersedes, []string{"a:" + kDomain + ":2"}) {
		t.Fatalf("supersedes %v", out.Send[0].Supersedes)
	}
	// Rewriting back to the original text: the derived key is the act's own
	// (no line carries it): stamped, then amended back.
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain\n")
	out = s.run()
	expectSent(t, out, "a:"+kDomain+":4")
	s.expect("## Tasks\n- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n")
}

func TestReconcile(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n- [ ] [agent] Water seedlings\n")
	s.run()
	s.doc = []byte("## Tasks\n- [ ] [agent] Water seedlings\n")
	out := s.run()
	expectSent(t, out, "c:"+kDomain+":r0")
	c := out.Send[0]
	if c.Type != TypeClaimed || c.Origin != "registrar" || c.Outcome != "done" || c.Evidence == nil || !strings.Contains(c.Evidence.Basis, "Renew the domain") {
		t.Fatalf("claim: %+v", c)
	}
	if out.Changed {
		t.Error("I2: a claim must not change the document")
	}
	// The principal drops it; reopens it: the line comes back (re-add after
	// the last non-blank line); deleted again: a new claim, r1.
	s.settle(kDomain, "dropped")
	s.run()
	s.reopen(kDomain, "Renew the domain")
	out = s.run()
	s.expect("## Tasks\n- [ ] [agent] Water seedlings\n- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n")
	if out.Added != 1 {
		t.Errorf("added %d", out.Added)
	}
	s.doc = []byte("## Tasks\n- [ ] [agent] Water seedlings\n")
	expectSent(t, s.run(), "c:"+kDomain+":r1")
}

func TestReconcileNoClaim(t *testing.T) {
	t.Parallel()
	t.Run("withdrawn", func(t *testing.T) {
		s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
		s.run()
		s.withdraw(kDomain)
		out := s.run()
		expectSent(t, out)
		if out.Changed {
			t.Error("I2: a withdrawal must not change the document")
		}
		s.doc = []byte("## Tasks\n")
		expectSent(t, s.run())
	})
	t.Run("settled", func(t *testing.T) {
		s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
		s.run()
		s.settle(kDomain, "done")
		s.doc = []byte("## Tasks\n")
		out := s.run()
		expectSent(t, out)
		if len(out.Applied) != 1 || out.Changed {
			t.Errorf("a settled for a key no line carries is consumed and changes nothing: %+v", out)
		}
	})
	t.Run("ticked line still carries the key (D16)", func(t *testing.T) {
		s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
		s.run()
		s.doc = []byte("## Tasks\n- [x] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n")
		out := s.run()
		expectSent(t, out)
		s.settle(kDomain, "done")
		s.run()
		s.expect("## Tasks\n- (none)\n")
	})
	t.Run("rewrite", func(t *testing.T) {
		s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Collect the shed key\n")
		s.run()
		k := DeriveKey("demo", "Collect the shed key")
		s.doc = []byte("## Tasks\n- [ ] [owner] Pick up the shed key from Ann\n")
		out := s.run()
		k2 := DeriveKey("demo", "Pick up the shed key from Ann")
		expectSent(t, out, "r:"+k2)
		if !hasWarning(out, WarnRewrite, k) {
			t.Errorf("want a rewrite warning: %v", out.Warnings)
		}
	})
	t.Run("raised outside the binding", func(t *testing.T) {
		s := newSim(t, enProfile(t), "## Tasks\n- [ ] [agent] Water seedlings\n")
		r := raisedRecord("renew-2026", "Renew the domain")
		r.Project, r.By = "demo", "agent:coder"
		s.log = append(s.log, r)
		expectSent(t, s.run())
	})
	t.Run("raised under another name, with the derived key, is the binding's", func(t *testing.T) {
		s := newSim(t, enProfile(t), "## Tasks\n- [ ] [agent] Water seedlings\n")
		r := raisedRecord(kDomain, "Renew the domain")
		r.Project, r.By = "demo", "agent-hub"
		s.log = append(s.log, r)
		expectSent(t, s.run(), "c:"+kDomain+":r0")
	})
	t.Run("no tasks section: claims, and a warning", func(t *testing.T) {
		s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
		s.run()
		s.doc = []byte("# Demo\n\n## Todo\n- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n")
		out := s.run()
		expectSent(t, out, "c:"+kDomain+":r0")
		if !hasWarning(out, WarnNoSection, "") {
			t.Errorf("want a no-section warning: %v", out.Warnings)
		}
		for _, w := range out.Warnings {
			if w.Kind == WarnNoSection && !strings.Contains(w.Message, ": 1 open act is claimed done;") {
				t.Errorf("the warning counts in English: %q", w.Message)
			}
		}
	})
	t.Run("claimed already this period", func(t *testing.T) {
		s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
		s.run()
		s.doc = []byte("## Tasks\n")
		s.run()
		s.doc = []byte("## Tasks\n- [ ] [agent] Unrelated work\n")
		expectSent(t, s.run())
	})
}

func TestSimilar(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Collect the shed key", "Pick up the shed key", true},
		{"Renew the domain", "Renew the domain for two years before it expires", true},
		{"Renew the domain", "renew THE domain!", true},
		{"繳交社區花園租金", "繳交社區花園租金和水費", true},
		{"續約網域", "網域續約", true},
		{"Collect the shed key", "Water seedlings", false},
		{"Renew the domain", "Sign the hosting contract", false},
		{"繳交社區花園租金", "簽主機合約", false},
		{"Pay", "Pay the plumber for the boiler repair", false},
		{"", "x", false},
	} {
		if got := Similar(c.a, c.b); got != c.want {
			t.Errorf("Similar(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

// §5.5.2: strike every checkbox line with the key; placeholder only when a
// line was deleted and only blank lines remain.
func TestStrike(t *testing.T) {
	t.Parallel()
	en := enProfile(t)
	m := " (waiting on owner: " + kDomain + ")"
	for _, c := range []struct{ name, doc, want string }{
		{"only line", "## Tasks\n- [ ] [owner] Renew the domain" + m + "\n", "## Tasks\n- (none)\n"},
		{"blank lines stay", "## Tasks\n\n- [ ] [owner] Renew the domain" + m + "\n\n# Next\n", "## Tasks\n- (none)\n\n\n# Next\n"},
		{"other lines stay", "## Tasks\n- [ ] [agent] a\n- [ ] [owner] Renew the domain" + m + "\n", "## Tasks\n- [ ] [agent] a\n"},
		{"an empty group heading is not empty", "## Tasks\n### [owner]\n- [ ] Renew the domain" + m + "\n", "## Tasks\n### [owner]\n"},
		{"prose is not empty", "## Tasks\nSome prose.\n- [ ] [owner] Renew the domain" + m + "\n", "## Tasks\nSome prose.\n"},
		{"every carrier, ticked too", "## Tasks\n- [ ] [owner] Renew the domain" + m + "\n- [x] [owner] Renew it" + m + "\n- [ ] [owner] Other\n", "## Tasks\n- [ ] [owner] Other (waiting on owner: " + DeriveKey("demo", "Other") + ")\n"},
		{"not outside the section", "## Tasks\n- [ ] [owner] Renew the domain" + m + "\n## Done\n- [ ] [owner] Renew the domain" + m + "\n", "## Tasks\n- (none)\n## Done\n- [ ] [owner] Renew the domain" + m + "\n"},
		{"heading last, no newline", "## Tasks\n- [ ] [owner] Renew the domain" + m, "## Tasks\n- (none)\n"},
		{"CRLF", "## Tasks\r\n- [ ] [owner] Renew the domain" + m + "\r\n", "## Tasks\r\n- (none)\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSim(t, en, "## Tasks\n- [ ] [owner] Renew the domain\n")
			s.run()
			s.doc = []byte(c.doc)
			s.settle(kDomain, "done")
			s.run()
			s.expect(c.want)
		})
	}
}

// §5.5.3: re-adding.
func TestReAdd(t *testing.T) {
	t.Parallel()
	en, zh := enProfile(t), zhProfile(t)
	line := "- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")"
	kz := DeriveKey("demo", "續約網域")
	for _, c := range []struct {
		name string
		p    Profile
		doc  string
		want string
	}{
		{"no section", en, "# Demo\nIntro.\n", "# Demo\nIntro.\n\n## Tasks\n\n" + line + "\n"},
		{"no section, no final newline", en, "# Demo", "# Demo\n\n## Tasks\n\n" + line + "\n"},
		{"no section, ends blank", en, "# Demo\n\n", "# Demo\n\n## Tasks\n\n" + line + "\n"},
		{"empty document", en, "", "## Tasks\n\n" + line + "\n"},
		{"placeholder only", en, "## Tasks\n\n- (none)\n\n## Next\n", "## Tasks\n\n" + line + "\n\n## Next\n"},
		{"after the last non-blank line", en, "## Tasks\n- [ ] [agent] a\n\n\n## Next\n", "## Tasks\n- [ ] [agent] a\n" + line + "\n\n\n## Next\n"},
		{"placeholder and more", en, "## Tasks\n- (none)\nprose\n", "## Tasks\n- (none)\nprose\n" + line + "\n"},
		{"blank body", en, "## Tasks\n\n\n## Next\n", "## Tasks\n" + line + "\n\n\n## Next\n"},
		{"heading at the end without newline", en, "## Tasks", "## Tasks\n" + line},
		{"last line without newline", en, "## Tasks\n- [ ] [agent] a", "## Tasks\n- [ ] [agent] a\n" + line},
		{"CRLF", en, "## Tasks\r\n- (none)\r\n", "## Tasks\r\n" + line + "\r\n"},
		{"zh-hant", zh, "## 待辦\n- (無)\n", "## 待辦\n- [ ] 〔Owner〕續約網域(等 Owner:" + kz + ")\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := "Renew the domain"
			if c.p.Name == "zh-hant" {
				text = "續約網域"
			}
			s := newSim(t, c.p, c.p.Heading+"\n- [ ] "+c.p.LabelOpen+c.p.Labels.Principal+c.p.LabelClose+text+"\n")
			s.run()
			k := DeriveKey("demo", text)
			s.settle(k, "done")
			s.run()
			s.doc = []byte(c.doc)
			s.reopen(k, "  "+strings.ReplaceAll(text, " ", "\u3000 ")+" ")
			out := s.run()
			s.expect(c.want)
			if out.Added != 1 || len(out.Applied) != 1 {
				t.Errorf("added %d applied %v", out.Added, out.Applied)
			}
		})
	}
	t.Run("a line still carries the key", func(t *testing.T) {
		s := newSim(t, en, "## Tasks\n- [ ] [owner] Renew the domain\n")
		s.run()
		s.settle(kDomain, "done")
		id := s.reopen(kDomain, "Renew the domain")
		out := s.run()
		s.expect("## Tasks\n" + line + "\n")
		if !reflect.DeepEqual(out.Applied, []string{id}) {
			t.Errorf("applied %v", out.Applied)
		}
	})
}

// A reopened whose settled never reached this log (lost in transport, or
// applied by another registrar) is still the principal side's word: the run
// re-adds the line from its restore_text and acknowledges it, as apply.json
// expects — not set aside as stale.
func TestLoneReopenedReAdds(t *testing.T) {
	t.Parallel()
	en := enProfile(t)
	s := newSim(t, en, "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	s.doc = []byte("## Tasks\n- (none)\n")
	r := s.principal(TypeReopened, kDomain)
	r.Supersedes = []string{"s-never-arrived"}
	r.RestoreText = "Renew the domain for two years"
	s.log = append(s.log, r)
	out := s.run()
	s.expect("## Tasks\n- [ ] [owner] Renew the domain for two years (waiting on owner: " + kDomain + ")\n")
	if out.Added != 1 || !reflect.DeepEqual(out.Applied, []string{r.ID}) {
		t.Errorf("added %d applied %v", out.Added, out.Applied)
	}
	// The restored text differs from the terms: the run amends (§4 step 4).
	expectSent(t, out, "a:"+kDomain+":2")
}

// I2: claims, withdrawals, relations and notes never change the document.
func TestOnlySettlementsChangeTheDocument(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	before := string(s.doc)
	n := s.principal(TypeNote, kDomain)
	n.About = &About{Quote: "called them"}
	rel := s.principal(TypeRelated, kDomain)
	rel.Relation, rel.Target = "same_as", "task-demo-0000000000"
	cl := Record{PH: "0.3", Ext: "acts/0.3", ID: "c-agent-1", Type: TypeClaimed, Origin: "agent", By: "agent:x", Key: kDomain, Project: "demo", TS: "2026-10-28T01:00:00Z", Outcome: "done", Evidence: &Evidence{Basis: "the principal said so"}}
	s.log = append(s.log, n, rel, cl)
	out := s.run()
	expectSent(t, out)
	s.expect(before)
	if ids := sentIDs(out.Deliver); !reflect.DeepEqual(ids, []string{n.ID, rel.ID}) {
		t.Errorf("deliver %v; want the note and the relation", ids)
	}
	s.withdraw(kDomain)
	s.run()
	s.expect(before)
}

// Crash safety (§4): the caller sends before it writes; a run repeated
// after a crash derives the same ids.
func TestCrashSafety(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n- [ ] [owner] Sign the contract (waiting on owner: task-demo-x)\n")
	first, err := Run(s.input())
	if err != nil {
		t.Fatal(err)
	}
	// The send failed: nothing is written or acknowledged. The next run
	// sends the very same records.
	second, err := Run(s.input())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sentIDs(first.Send), sentIDs(second.Send)) || len(first.Send) != 1 {
		t.Fatalf("re-run sends %v, first %v", sentIDs(second.Send), sentIDs(first.Send))
	}
	// The send succeeded, the write did not: the log has r:<key>, the line
	// has no marker. The next run stamps it and sends nothing.
	s.log = append(s.log, first.Send...)
	out := s.run()
	expectSent(t, out)
	if !bytes.Equal(s.doc, first.Document) {
		t.Fatalf("after the crash:\n%s\nwant:\n%s", s.doc, first.Document)
	}
	// A settlement applied but not acknowledged (crash after the write):
	// applied again, which changes nothing more, and acknowledged then.
	id := s.settle(kDomain, "done")
	out, _ = Run(s.input())
	s.doc = out.Document
	out2, _ := Run(s.input())
	if out2.Changed || !reflect.DeepEqual(out2.Applied, []string{id}) {
		t.Fatalf("re-applied: changed %v applied %v", out2.Changed, out2.Applied)
	}
}

func TestRedeclaredWithdrawnActIsActiveAgain(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	s.withdraw(kDomain)
	s.doc = []byte("## Tasks\n")
	expectSent(t, s.run())
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain\n")
	out := s.run()
	expectSent(t, out, "a:"+kDomain+":2")
	if st := s.state(kDomain); st.Need != NeedActive || st.TermsRev != 2 {
		t.Fatalf("state %+v", st)
	}
	if !hasWarning(out, WarnWithdrawn, kDomain) {
		t.Errorf("warnings %v", out.Warnings)
	}
}

func TestKeyedDerivationInRun(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run() // a plain key first
	s.secret = []byte("secret")
	// The marker is lost; the plain key is still recognised (relinked, not re-raised).
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain\n- [ ] [owner] Sign the contract\n")
	out := s.run()
	k := DeriveKeyedKey([]byte("secret"), "demo", "Sign the contract")
	expectSent(t, out, "r:"+k)
	s.expect("## Tasks\n- [ ] [owner] Renew the domain (waiting on owner: " + kDomain + ")\n- [ ] [owner] Sign the contract (waiting on owner: " + k + ")\n")
}

func TestUnknownKeyAndClassWarnings(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Pay (waiting on owner: task-other-1234567890)\n")
	out := s.run()
	expectSent(t, out)
	if !hasWarning(out, WarnUnknown, "task-other-1234567890") {
		t.Errorf("warnings %v", out.Warnings)
	}
	s = newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	s.doc = []byte("## Tasks\n- [ ] [agent] Renew the domain (waiting on owner: " + kDomain + ")\n")
	out = s.run()
	expectSent(t, out)
	if !hasWarning(out, WarnClass, kDomain) {
		t.Errorf("warnings %v", out.Warnings)
	}
}

func TestSameKeyDifferentTextsIsNotAmended(t *testing.T) {
	t.Parallel()
	s := newSim(t, enProfile(t), "## Tasks\n- [ ] [owner] Renew the domain\n")
	s.run()
	m := " (waiting on owner: " + kDomain + ")"
	s.doc = []byte("## Tasks\n- [ ] [owner] Renew the domain" + m + "\n- [ ] [owner] Renew it now" + m + "\n")
	out := s.run()
	expectSent(t, out)
	if !hasWarning(out, WarnConflict, kDomain) {
		t.Errorf("warnings %v", out.Warnings)
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	en := enProfile(t)
	if _, err := Run(RunInput{Document: []byte("## Tasks\n"), Profile: en, Project: "my project"}); err == nil || !strings.Contains(err.Error(), "§6.1") {
		t.Errorf("bad project: %v", err)
	}
	if _, err := Run(RunInput{Document: []byte("## Tasks\n\xfe\n"), Profile: en, Project: "demo"}); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("not UTF-8: %v", err)
	}
	if _, err := Run(RunInput{Document: []byte("# 專案\n## 待辦\n- [ ] 〔Owner〕續約\n"), Profile: en, Project: "demo"}); err == nil || !strings.Contains(err.Error(), "zh-hant profile") {
		t.Errorf("wrong profile: %v", err)
	}
	out, err := Run(RunInput{Document: []byte("## Tasks\n"), Profile: en, Project: "demo", Acts: map[string]*ActState{"k": {Key: "k", Project: "other", Status: StatusOpen, Need: NeedActive, NeedID: "r:k", Text: "x"}}})
	if err != nil || len(out.Send) != 0 || !hasWarning(out, WarnProject, "k") {
		t.Errorf("another project's act: %v %+v", err, out)
	}
}

func TestNothingToDoReturnsTheSameBytes(t *testing.T) {
	t.Parallel()
	doc := []byte("# Notes\r\nNo tasks here.\r\n")
	out, err := Run(RunInput{Document: doc, Profile: enProfile(t), Project: "demo"})
	if err != nil || out.Changed || !bytes.Equal(out.Document, doc) || len(out.Send) != 0 {
		t.Fatalf("%v %+v", err, out)
	}
}

func TestSimilarMore(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Collect the shed key", "Pick up the shed key from Ann", true},
		{"Renew the domain", "Review the design", false},
		{"Sign the hosting contract", "Sign the hosting contract with Acme by Friday", true},
		{"Approve the logo direction", "Pay the electricity bill", false},
	} {
		if got := Similar(c.a, c.b); got != c.want {
			t.Errorf("Similar(%q, %q) = %v", c.a, c.b, got)
		}
	}
}

func TestBOMAndWarningsLineNumbers(t *testing.T) {
	t.Parallel()
	doc := "\xef\xbb\xbf# Demo\n## Tasks\n- [x] [owner] Paid it\n- [ ] [owner] Renew the domain\n- [ ] [owner] Renew the domain\n"
	out, err := Run(RunInput{Document: []byte(doc), Profile: enProfile(t), Project: "demo", Now: "2026-10-27T00:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	m := " (waiting on owner: " + kDomain + ")"
	want := "\xef\xbb\xbf# Demo\n## Tasks\n- [x] [owner] Paid it\n- [ ] [owner] Renew the domain" + m + "\n- [ ] [owner] Renew the domain" + m + "\n"
	if string(out.Document) != want {
		t.Fatalf("document:\n%q\nwant\n%q", out.Document, want)
	}
	var got []string
	for _, w := range out.Warnings {
		got = append(got, fmt.Sprintf("%d %s", w.Line, w.Kind))
	}
	if strings.Join(got, ", ") != "3 malformed, 5 duplicate" {
		t.Errorf("warnings %v", out.Warnings)
	}
	if s := out.Warnings[0].String(); !strings.HasPrefix(s, "line 3: ticked box") {
		t.Errorf("warning text %q", s)
	}
}

// The suffix automaton finds the same heaviest common run as the table,
// on random texts over a small alphabet with CJK characters (weight 2).
func TestLongestCommonRunAlgorithmsAgree(t *testing.T) {
	t.Parallel()
	alphabet := []rune("abcab的是不")
	x := uint32(1)
	rnd := func(n int) []rune {
		rs := make([]rune, n)
		for i := range rs {
			x = x*1664525 + 1013904223
			rs[i] = alphabet[(x>>16)%uint32(len(alphabet))]
		}
		return rs
	}
	for i := 0; i < 2000; i++ {
		a, b := rnd(1+int(x>>8)%60), rnd(1+int(x>>12)%300)
		if dp, sam := longestCommonRunDP(a, b), longestCommonRunSAM(a, b); dp != sam {
			t.Fatalf("%q vs %q: table %d, automaton %d", string(a), string(b), dp, sam)
		}
	}
}
