package actsession

import (
	"fmt"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sanitize"
)

// CheckDocument compares a project's state document with its log, as
// `tp acts verify --document` does (D19): a line that still carries the
// key of an act the log has settled is a finding when the log or this
// machine says the settlement was applied —
//
//   - this machine's registrar applied it (its ledger): the line was put
//     back after the registrar struck it, and sync never strikes it again
//     (D16), so the document shows the person an act as open that the
//     principal settled;
//   - only acked/ says so: a forged acknowledgement (or another machine's,
//     for a copy of the document not pulled here); the next sync applies
//     it.
//
// A settlement neither names is pending, which is no finding: the next
// sync applies it. name is how the document is named in the findings.
func CheckDocument(ld *recordlog.Loaded, name string, doc []byte, prof acts.Profile) ([]Finding, error) {
	d, err := acts.Parse(doc, prof)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	states, _ := acts.States(ld.Records)
	byKey := make(map[string]*acts.ActState, len(states))
	for k, st := range states {
		if k.Project == ld.Project {
			byKey[k.Key] = st
		}
	}
	var out []Finding
	for i := range d.Lines {
		ln := &d.Lines[i]
		if !ln.Checkbox() || ln.Key == "" {
			continue
		}
		st, ok := byKey[ln.Key]
		if !ok || st.Status != acts.StatusSettled || st.SettlementID == "" {
			continue
		}
		var why string
		_, mine := ld.Ledger[st.SettlementID]
		switch {
		case mine:
			why = fmt.Sprintf("carries act %s, which is settled (%s) and was struck here by this machine's registrar (%s): the line was put back, and sync never strikes it again (D16); delete the line if the act is done, or reopen the act", ln.Key, st.Outcome, st.SettlementID)
		case ld.AckFiles[st.SettlementID] && !ld.Acked[st.SettlementID]:
			why = fmt.Sprintf("carries act %s, which is settled (%s); acked/ says %s was applied to the document, but this machine's registrar never applied it: a forged acknowledgement, or another machine's for a copy of the document not pulled here; tp acts sync applies it (D19)", ln.Key, st.Outcome, st.SettlementID)
		default:
			continue
		}
		f := Finding{Kind: FindingDocument, Project: sanitize.Line(ld.Project), Path: sanitize.Line(name), ID: sanitize.Line(st.SettlementID), Key: ln.Key, Why: sanitize.Line(why)}
		f.Text = fmt.Sprintf("%s:%d: %s", f.Path, ln.Num, f.Why)
		out = append(out, f)
	}
	return out, nil
}
