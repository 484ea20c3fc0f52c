package recordlog

import (
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
)

// Records for the log's tests, as the acts package's own tests make them
// (acts/lifecycle_test.go, acts/invariants_test.go): test helpers do not
// cross packages, so the few the log's tests use are repeated here.

const lk = "task-garden-5a491eabbf"

func rec(id, typ, ts string, mod ...func(*acts.Record)) acts.Record {
	r := acts.Record{PH: "0.3", Ext: "acts/0.3", ID: id, Type: typ, By: "t", Key: lk, Project: "garden", TS: ts}
	switch typ {
	case acts.TypeRaised, acts.TypeAmended, acts.TypeWithdrawn:
		r.Origin = "requester"
	case acts.TypeSettled, acts.TypeReopened:
		r.Origin = "principal"
	case acts.TypeClaimed:
		r.Origin = "agent"
	}
	for _, m := range mod {
		m(&r)
	}
	return r
}

func terms(text string, rev int) func(*acts.Record) {
	return func(r *acts.Record) { r.Terms = &acts.Terms{Text: text}; r.TermsRev = rev }
}
func outcome(o string) func(*acts.Record) {
	return func(r *acts.Record) {
		r.Outcome = o
		r.Authority = &acts.Authority{Kind: "principal", Decider: "p:owner"}
	}
}

var (
	raised  = rec("r:"+lk, acts.TypeRaised, "2026-11-02T09:00:00Z", terms("Collect the shed key", 1))
	settled = rec("s-1", acts.TypeSettled, "2026-11-03T09:00:00Z", outcome("done"), func(r *acts.Record) { r.TermsRev = 1 })
	claim   = rec("c:"+lk+":r0", acts.TypeClaimed, "2026-11-02T12:00:00Z", func(r *acts.Record) {
		r.Outcome = "done"
		r.Evidence = &acts.Evidence{Basis: "line removed"}
	})
	note = rec("n-1", acts.TypeNote, "2026-11-02T12:00:00Z", func(r *acts.Record) { r.Origin = "principal"; r.About = &acts.About{Quote: "x"} })
)

func raisedRecord(key, text string) acts.Record {
	return acts.Record{PH: "0.3", Ext: "acts/0.3", ID: acts.RaisedID(key), Type: acts.TypeRaised, Origin: "requester", By: "registrar:demo",
		Key: key, Project: "demo", TS: "2026-10-01T00:00:00Z", Terms: &acts.Terms{Text: text}, TermsRev: 1}
}

// The project-name rule is the core's (acts.CheckProjectName, issue 15):
// the log writes no record whose project breaks it.
func TestWriteAllChecksProjectName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"demo", true}, {"Mein Projekt", true}, {"项目", true}, {"a.b-c_d", true},
		{" demo", false}, {"demo ", false}, {"a/b", false}, {`a\b`, false},
		{"demo\nevil", false}, {"demo\r", false}, {"de\x00mo", false}, {"de\x1b[31mmo", false},
		{"demo\u2028x", false}, {"demo\u0085x", false}, {"de\x7fmo", false},
	} {
		l := OpenLog(t.TempDir())
		r := raisedRecord("k", "Renew the domain")
		r.Project = tc.name
		_, werr := l.WriteAll([]acts.Record{r})
		if tc.ok != (werr == nil) {
			t.Errorf("WriteAll with project %q: %v, want ok %v", tc.name, werr, tc.ok)
		}
		if werr != nil && !tc.ok && !strings.Contains(werr.Error(), "project") {
			t.Errorf("WriteAll with project %q: the error does not say the rule: %v", tc.name, werr)
		}
	}
}
