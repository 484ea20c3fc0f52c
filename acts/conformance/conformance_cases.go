package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/tp-dev/tp/acts"
	"reflect"
	"sort"
	"strings"
	"time"
)

// One function per fixture kind (docs/acts-fixtures.md).

// ---- parse.json ----------------------------------------------------------

func caseParse(c *fixtureCase) string {
	p, err := caseProfile(c)
	if err != nil {
		return err.Error()
	}
	doc, err := caseDocument(c)
	if err != nil {
		return err.Error()
	}
	d, err := acts.Parse([]byte(doc), p)
	if err != nil {
		return err.Error()
	}
	type task struct {
		Line  int     `json:"line"`
		Class string  `json:"class"`
		Text  string  `json:"text"`
		Key   *string `json:"key"`
	}
	var got []task
	for _, l := range d.Tasks() {
		t := task{Line: l.Num, Class: l.Class, Text: l.TaskText}
		if l.Key != "" {
			k := l.Key
			t.Key = &k
		}
		got = append(got, t)
	}
	want := make([]task, 0, len(c.Tasks))
	for i, raw := range c.Tasks {
		var t task
		if err := json.Unmarshal(raw, &t); err != nil {
			return fmt.Sprintf("tasks[%d]: unreadable expectation: %v", i, err)
		}
		want = append(want, t)
	}
	show := func(ts []task) string {
		var parts []string
		for _, t := range ts {
			k := "null"
			if t.Key != nil {
				k = *t.Key
			}
			parts = append(parts, fmt.Sprintf("%d %s %q %s", t.Line, t.Class, t.Text, k))
		}
		return "[" + strings.Join(parts, "; ") + "]"
	}
	if show(got) != show(want) {
		return fmt.Sprintf("tasks: got %s, want %s", show(got), show(want))
	}
	gotM := []int{}
	for _, l := range d.Malformed() {
		gotM = append(gotM, l.Num)
	}
	wantM := c.Malformed
	if wantM == nil {
		wantM = []int{}
	}
	if !reflect.DeepEqual(gotM, wantM) {
		return fmt.Sprintf("malformed: got %v, want %v", gotM, wantM)
	}
	return ""
}

// ---- relink.json, register.json, amend.json ------------------------------

func caseRelink(c *fixtureCase) string {
	states := map[string]*acts.ActState{}
	for _, k := range c.OpenKeys {
		states[k.Key] = stateFromOpenKey(c.Project, k)
	}
	r, err := fixtureRegistrar(c, states)
	if err != nil {
		return err.Error()
	}
	r.Relink()
	if c.ExpectedDocument == nil {
		return "the case has no expected_document"
	}
	return diffDocuments(string(r.Document().Bytes()), *c.ExpectedDocument)
}

func caseRegister(c *fixtureCase) string {
	states := map[string]*acts.ActState{}
	for _, k := range c.KnownKeys {
		states[k] = &acts.ActState{Key: k, Project: c.Project, Status: acts.StatusOpen, Need: acts.NeedActive, TermsRev: 1, NeedID: acts.RaisedID(k)}
	}
	r, err := fixtureRegistrar(c, states)
	if err != nil {
		return err.Error()
	}
	r.Raise()
	if c.ExpectedDocument != nil {
		if d := diffDocuments(string(r.Document().Bytes()), *c.ExpectedDocument); d != "" {
			return d
		}
	}
	return diffRecords("raised", onlyType(r.Output().Send, acts.TypeRaised), c.Raised)
}

func onlyType(rs []acts.Record, typ string) []acts.Record {
	var out []acts.Record
	for _, r := range rs {
		if r.Type == typ {
			out = append(out, r)
		}
	}
	return out
}

func caseAmend(c *fixtureCase) string {
	states := map[string]*acts.ActState{}
	for k, l := range c.Latest {
		// A case that leaves terms_rev or need_id out means the ids §7
		// gives them: r:<key> at revision 1, a:<key>:<rev> after.
		if l.TermsRev == 0 {
			l.TermsRev = 1
		}
		if l.NeedID == "" {
			l.NeedID = acts.RaisedID(k)
			if l.TermsRev > 1 {
				l.NeedID = fmt.Sprintf("a:%s:%d", k, l.TermsRev)
			}
		}
		states[k] = &acts.ActState{Key: k, Project: c.Project, Status: acts.StatusOpen, Need: acts.NeedActive, TermsRev: l.TermsRev, Text: l.Text, NeedID: l.NeedID}
	}
	r, err := fixtureRegistrar(c, states)
	if err != nil {
		return err.Error()
	}
	r.Amend()
	return diffRecords("amended", onlyType(r.Output().Send, acts.TypeAmended), c.Amended)
}

// ---- apply.json ----------------------------------------------------------

func decodeRecords(raws []json.RawMessage) ([]acts.Record, error) {
	out := make([]acts.Record, 0, len(raws))
	for i, raw := range raws {
		var r acts.Record
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("record %d: %v", i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// statesOf runs Lifecycle over each key's records (keys in first-seen order).
func statesOf(records []acts.Record) (map[string]*acts.ActState, []string, error) {
	groups := map[string][]acts.Record{}
	var order []string
	for _, r := range records {
		if _, ok := groups[r.Key]; !ok {
			order = append(order, r.Key)
		}
		groups[r.Key] = append(groups[r.Key], r)
	}
	states := map[string]*acts.ActState{}
	for _, k := range order {
		st, err := acts.Lifecycle(groups[k])
		if err != nil {
			return nil, nil, fmt.Errorf("lifecycle of %s: %v", k, err)
		}
		states[k] = st
	}
	return states, order, nil
}

func caseApply(c *fixtureCase) string {
	recs, err := decodeRecords(c.Records)
	if err != nil {
		return err.Error()
	}
	states, order, err := statesOf(recs)
	if err != nil {
		return err.Error()
	}
	r, err := fixtureRegistrar(c, states)
	if err != nil {
		return err.Error()
	}
	byID := map[string]acts.Record{}
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	r.SetRecords(byID)
	// Pending settlements in the order their keys were delivered. A lone
	// reopened (its settled never arrived) is current by Lifecycle itself,
	// exactly as tp acts sync sees it.
	all := r.PendingSettlements()
	var pending []acts.PendingSettlement
	for _, k := range order {
		for _, p := range all {
			if p.Key == k {
				pending = append(pending, p)
			}
		}
	}
	r.ApplySettlements(pending)
	if c.ExpectedDocument == nil {
		return "the case has no expected_document"
	}
	return diffDocuments(string(r.Document().Bytes()), *c.ExpectedDocument)
}

// ---- reconcile.json ------------------------------------------------------

func caseReconcile(c *fixtureCase) string {
	states := map[string]*acts.ActState{}
	var order []string
	for _, k := range c.OpenKeys {
		states[k.Key] = stateFromOpenKey(c.Project, k)
		order = append(order, k.Key)
	}
	r, err := fixtureRegistrar(c, states)
	if err != nil {
		return err.Error()
	}
	r.Reconcile(order)
	if d := diffRecords("claims", onlyType(r.Output().Send, acts.TypeClaimed), c.Claims); d != "" {
		return d
	}
	got := []string{}
	for _, w := range r.Output().Warnings {
		if w.Kind == acts.WarnRewrite {
			got = append(got, w.Key)
		}
	}
	want := c.Warnings
	if want == nil {
		want = []string{}
	}
	sort.Strings(got)
	want = append([]string{}, want...)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("warnings: got %v, want %v", got, want)
	}
	return ""
}

// ---- records.json and lifecycle.json (records and lifecycle, D8) --------

func caseRecords(c *fixtureCase) string {
	if c.Record == nil {
		return "the case has no record"
	}
	typ, err := acts.ValidateRecord(c.Record)
	switch {
	case c.Schema == nil && err == nil:
		return fmt.Sprintf("schema: accepted as %q, want rejected", typ)
	case c.Schema == nil:
		return ""
	case err != nil:
		return fmt.Sprintf("schema: rejected (%v), want %q", err, *c.Schema)
	case typ != *c.Schema:
		return fmt.Sprintf("schema: got %q, want %q", typ, *c.Schema)
	}
	return ""
}

func caseLifecycle(c *fixtureCase) string {
	recs, err := decodeRecords(c.Records)
	if err != nil {
		return err.Error()
	}
	st, err := acts.Lifecycle(recs)
	if err != nil {
		return "lifecycle: " + err.Error()
	}
	var outcome any
	if st.Outcome != "" {
		outcome = st.Outcome
	}
	got := map[string]any{"status": st.Status, "outcome": outcome, "need": st.Need, "terms_rev": float64(st.TermsRev), "text": st.Text}
	for _, k := range sortedKeys(c.State) {
		var w any
		if err := json.Unmarshal(c.State[k], &w); err != nil {
			return fmt.Sprintf("state.%s: unreadable expectation", k)
		}
		g, ok := got[k]
		if !ok {
			return fmt.Sprintf("state.%s: not a state field this runner knows", k)
		}
		if !reflect.DeepEqual(g, w) {
			return fmt.Sprintf("state.%s: got %s, want %s", k, jsonText(g), jsonText(w))
		}
	}
	return ""
}

// ---- run.json ------------------------------------------------------------

func caseRun(c *fixtureCase) string {
	p, err := caseProfile(c)
	if err != nil {
		return err.Error()
	}
	doc, err := caseDocument(c)
	if err != nil {
		return err.Error()
	}
	var log []acts.Record
	acked := map[string]bool{}
	if c.Log != nil {
		if log, err = decodeRecords(c.Log.Records); err != nil {
			return err.Error()
		}
		for _, id := range c.Log.Acked {
			acked[id] = true
		}
	}
	project := c.Project
	if project == "" {
		project = "conformance"
	}
	run := func(doc []byte, log []acts.Record, acked map[string]bool) (acts.RunOutput, error) {
		states, _, err := statesOf(log)
		if err != nil {
			return acts.RunOutput{}, err
		}
		byID := map[string]acts.Record{}
		for _, r := range log {
			byID[r.ID] = r
		}
		return acts.Run(acts.RunInput{Document: doc, Profile: p, Project: project, Acts: states, Acked: acked, Records: byID, Now: fixtureNow(log)})
	}
	out, err := run([]byte(doc), log, acked)
	if err != nil {
		return "run: " + err.Error()
	}
	if c.ExpectedDocument != nil {
		if d := diffDocuments(string(out.Document), *c.ExpectedDocument); d != "" {
			return d
		}
	}
	if d := diffRecords("sent", claimsInOrderOf(out.Send, c.Sent), c.Sent); d != "" {
		return d
	}
	// I3: again over the result, with what was sent in the log and what
	// was applied acknowledged.
	log2 := append(append([]acts.Record(nil), log...), out.Send...)
	acked2 := map[string]bool{}
	for id := range acked {
		acked2[id] = true
	}
	for _, id := range out.Applied {
		acked2[id] = true
	}
	out2, err := run(out.Document, log2, acked2)
	if err != nil {
		return "second run: " + err.Error()
	}
	if d := diffRecords("second_run_sends", out2.Send, c.SecondRunSends); d != "" {
		return d
	}
	if !bytes.Equal(out2.Document, out.Document) {
		return "second run changed the document (I3): " + diffDocuments(string(out2.Document), string(out.Document))
	}
	return ""
}

// fixtureNow is the clock of a fixture run: a second after the latest
// record of its log (a run comes after the records it reads, and the
// registrar's step 5 reads the order of raised records), and never before
// 2026-01-01.
func fixtureNow(log []acts.Record) string {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, r := range log {
		if t, err := time.Parse(time.RFC3339Nano, r.TS); err == nil && !t.Before(now) {
			now = t.Add(time.Second)
		}
	}
	return now.Format(time.RFC3339)
}
