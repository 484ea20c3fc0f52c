package acts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/tp-dev/tp/internal/sanitize"
)

// The fixture runner of docs/acts-fixtures.md (Acts 0.3 §9.2).

// fixtureKinds are the fixture files the runner knows, in the order it
// runs them.
var fixtureKinds = []string{
	"profiles.json", "parse.json", "keys.json", "relink.json", "register.json",
	"amend.json", "apply.json", "reconcile.json", "records.json", "lifecycle.json", "run.json",
}

// RunConformance runs every fixture file of dir. It writes one line per
// failing case ("file: case name: what differed"), one line per file it does
// not know (skipped, never passed), and a closing "N passed, N failed". err
// reports a file that could not be read or parsed; the other files still run.
func RunConformance(dir string, w io.Writer) (passed, failed int, err error) {
	entries, rerr := os.ReadDir(dir)
	if rerr != nil {
		return 0, 0, fmt.Errorf("acts conformance: %w", rerr)
	}
	present := map[string]bool{}
	for _, e := range entries {
		if containsString(fixtureKinds, e.Name()) && !e.IsDir() {
			present[e.Name()] = true
			continue
		}
		fmt.Fprintf(w, "%s: not a fixture file this runner knows; skipped\n", sanitize.Line(e.Name()))
	}
	var errs []error
	for _, name := range fixtureKinds {
		if !present[name] {
			continue
		}
		results, ferr := runFixtureFile(filepath.Join(dir, name), name)
		if ferr != nil {
			fmt.Fprintf(w, "%s: %s\n", name, sanitize.Line(ferr.Error()))
			errs = append(errs, fmt.Errorf("%s: %w", filepath.Join(dir, name), ferr))
			continue
		}
		for _, r := range results {
			if r.diff == "" {
				passed++
				continue
			}
			failed++
			fmt.Fprintf(w, "%s: %s: %s\n", name, sanitize.Line(r.name), sanitize.Line(r.diff))
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	return passed, failed, errors.Join(errs...)
}

type caseResult struct {
	name string
	diff string // "" when the case passed
}

// fixtureCase holds the fields of every kind of case; each kind reads its own.
type fixtureCase struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Params   map[string]string `json:"params"`
	Project  string            `json:"project"`
	Document *string           `json:"document"`

	Tasks     []json.RawMessage `json:"tasks"`
	Malformed []int             `json:"malformed"`

	Text string `json:"text"`
	Key  string `json:"key"`

	OpenKeys         []openKey                  `json:"open_keys"`
	KnownKeys        []string                   `json:"known_keys"`
	ExpectedDocument *string                    `json:"expected_document"`
	Raised           []json.RawMessage          `json:"raised"`
	Latest           map[string]latestTerms     `json:"latest"`
	Amended          []json.RawMessage          `json:"amended"`
	Records          []json.RawMessage          `json:"records"`
	Claims           []json.RawMessage          `json:"claims"`
	Warnings         []string                   `json:"warnings"`
	Record           json.RawMessage            `json:"record"`
	Schema           *string                    `json:"schema"`
	State            map[string]json.RawMessage `json:"state"`
	Log              *struct {
		Records []json.RawMessage `json:"records"`
		Acked   []string          `json:"acked"`
	} `json:"log"`
	Sent           []json.RawMessage `json:"sent"`
	SecondRunSends []json.RawMessage `json:"second_run_sends"`
}

type openKey struct {
	Key      string `json:"key"`
	Text     string `json:"text"`
	Reopened int    `json:"reopened"`
}

type latestTerms struct {
	Text     string `json:"text"`
	TermsRev int    `json:"terms_rev"`
	NeedID   string `json:"need_id"`
}

func runFixtureFile(path, kind string) ([]caseResult, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if kind == "profiles.json" {
		return runProfilesFixture(raw)
	}
	var f struct {
		Cases []json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("not a fixture file: %v", err)
	}
	if f.Cases == nil {
		return nil, fmt.Errorf("not a fixture file: no \"cases\" array")
	}
	var out []caseResult
	seen := map[string]bool{}
	for i, rc := range f.Cases {
		var c fixtureCase
		name := fmt.Sprintf("case %d", i+1)
		if err := json.Unmarshal(rc, &c); err != nil {
			out = append(out, caseResult{name: name, diff: "unreadable case: " + err.Error()})
			continue
		}
		if c.Name != "" {
			name = c.Name
		}
		if seen[name] {
			out = append(out, caseResult{name: name, diff: "case name is not unique within the file"})
			continue
		}
		seen[name] = true
		out = append(out, caseResult{name: name, diff: runCase(kind, &c, rc)})
	}
	return out, nil
}

// runCase runs one case and returns what differed ("" when it passed).
func runCase(kind string, c *fixtureCase, raw json.RawMessage) (diff string) {
	defer func() {
		if p := recover(); p != nil {
			diff = fmt.Sprintf("panic: %v", p)
		}
	}()
	switch kind {
	case "parse.json":
		return caseParse(c)
	case "keys.json":
		if got := DeriveKey(c.Project, c.Text); got != c.Key {
			return fmt.Sprintf("key: got %q, want %q", got, c.Key)
		}
		return ""
	case "relink.json":
		return caseRelink(c)
	case "register.json":
		return caseRegister(c)
	case "amend.json":
		return caseAmend(c)
	case "apply.json":
		return caseApply(c)
	case "reconcile.json":
		return caseReconcile(c)
	case "records.json":
		return caseRecords(c)
	case "lifecycle.json":
		return caseLifecycle(c)
	case "run.json":
		return caseRun(c)
	}
	return "unknown fixture kind " + kind
}

// ---- profiles.json -------------------------------------------------------

type profileJSON struct {
	Heading        string `json:"heading"`
	LabelOpen      string `json:"label_open"`
	LabelClose     string `json:"label_close"`
	Labels         Labels `json:"labels"`
	LabelSeparator string `json:"label_separator"`
	Placeholder    string `json:"placeholder"`
	MarkerRender   string `json:"marker_render"`
	MarkerPattern  string `json:"marker_pattern"`
}

// conformanceTag is the principal_tag the suite uses (§5.7).
const conformanceTag = "Owner"

func runProfilesFixture(raw []byte) ([]caseResult, error) {
	var f struct {
		Profiles   map[string]profileJSON `json:"profiles"`
		SampleKeys []string               `json:"sample_keys"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("not a profiles file: %v", err)
	}
	if f.Profiles == nil {
		return nil, fmt.Errorf("not a profiles file: no \"profiles\" object")
	}
	var out []caseResult
	for _, name := range sortedKeys(f.Profiles) {
		want := f.Profiles[name]
		res := caseResult{name: "profile " + name}
		var def *ProfileDef
		for i := range profileDefs {
			if profileDefs[i].Name == name {
				def = &profileDefs[i]
			}
		}
		if def == nil {
			res.diff = "no built-in profile of that name"
			out = append(out, res)
			continue
		}
		got := profileJSON{def.Heading, def.LabelOpen, def.LabelClose, def.Labels, def.LabelSeparator, def.Placeholder, def.MarkerRender, def.MarkerPattern}
		if d := diffStruct(got, want); d != "" {
			res.diff = d
			out = append(out, res)
			continue
		}
		params := map[string]string{}
		for _, k := range def.Params {
			params[k] = conformanceTag
		}
		p, err := def.Instantiate(params)
		if err != nil {
			res.diff = err.Error()
			out = append(out, res)
			continue
		}
		for _, k := range f.SampleKeys {
			got, _, ok := p.FindMarker("text" + p.RenderMarker(k))
			if !ok || got != k {
				res.diff = fmt.Sprintf("marker_pattern does not recover key %q from %q (got %q)", k, p.RenderMarker(k), got)
				break
			}
		}
		out = append(out, res)
	}
	return out, nil
}

func diffStruct(got, want profileJSON) string {
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	t := gv.Type()
	for i := 0; i < t.NumField(); i++ {
		if !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
			tag := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
			return fmt.Sprintf("%s: built in %q, fixture %q", tag, fmt.Sprint(gv.Field(i).Interface()), fmt.Sprint(wv.Field(i).Interface()))
		}
	}
	return ""
}

// ---- helpers -------------------------------------------------------------

func caseProfile(c *fixtureCase) (Profile, error) {
	name := c.Profile
	if name == "" {
		name = "en"
	}
	// Params are read for the profile's own parameters only (an en case
	// that carries a principal_tag is still an en case), and a missing
	// principal_tag is the suite's own, Owner (§5.7).
	for _, d := range profileDefs {
		if d.Name != name {
			continue
		}
		params := map[string]string{}
		for _, k := range d.Params {
			params[k] = conformanceTag
			if v, ok := c.Params[k]; ok {
				params[k] = v
			}
		}
		return d.Instantiate(params)
	}
	return ProfileByName(name, c.Params)
}

func caseDocument(c *fixtureCase) (string, error) {
	if c.Document == nil {
		return "", fmt.Errorf("the case has no document")
	}
	return *c.Document, nil
}

// nonBlankLines is how §9 compares documents: the sequence of non-blank
// lines with trailing whitespace removed.
func nonBlankLines(doc string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n") {
		if t := trimRightWS(l); trimWS(t) != "" {
			out = append(out, t)
		}
	}
	return out
}

func diffDocuments(got, want string) string {
	g, w := nonBlankLines(got), nonBlankLines(want)
	for i := 0; i < len(g) || i < len(w); i++ {
		switch {
		case i >= len(g):
			return fmt.Sprintf("document: missing non-blank line %d %q", i+1, w[i])
		case i >= len(w):
			return fmt.Sprintf("document: unexpected non-blank line %d %q", i+1, g[i])
		case g[i] != w[i]:
			return fmt.Sprintf("document: non-blank line %d is %q, want %q", i+1, g[i], w[i])
		}
	}
	return ""
}

// diffRecords compares records with expectations field by field, only the
// fields each expectation lists (never ts or by), in order.
func diffRecords(what string, got []Record, want []json.RawMessage) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%s: got %d records %s, want %d", what, len(got), recordIDs(got), len(want))
	}
	for i := range want {
		var w map[string]any
		if err := json.Unmarshal(want[i], &w); err != nil {
			return fmt.Sprintf("%s[%d]: unreadable expectation: %v", what, i, err)
		}
		b, _ := json.Marshal(got[i])
		var g map[string]any
		_ = json.Unmarshal(b, &g)
		if d := diffSubset(fmt.Sprintf("%s[%d]", what, i), g, w); d != "" {
			return d
		}
	}
	return ""
}

// claimsInOrderOf puts the run's step-5 claims (the claimed records it
// sends last) in the order want lists them. §4 step 5 visits keys that no
// line carries, so "document order" gives them none, and Run's order
// (ascending key) is one of many; the claims themselves are still compared
// in full, and any other difference (a missing or extra claim, another
// record) still fails.
func claimsInOrderOf(got []Record, want []json.RawMessage) []Record {
	start := len(got)
	for start > 0 && got[start-1].Type == TypeClaimed {
		start--
	}
	if start == len(got) || len(want) != len(got) {
		return got
	}
	byKey := map[string]Record{}
	for _, r := range got[start:] {
		byKey[r.Key] = r
	}
	out := append([]Record(nil), got[:start]...)
	for _, raw := range want[start:] {
		var w struct {
			Key string `json:"key"`
		}
		if json.Unmarshal(raw, &w) != nil {
			return got
		}
		r, ok := byKey[w.Key]
		if !ok {
			return got
		}
		delete(byKey, w.Key)
		out = append(out, r)
	}
	return out
}

func recordIDs(rs []Record) string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	return "[" + strings.Join(ids, " ") + "]"
}

func diffSubset(path string, got, want map[string]any) string {
	for _, k := range sortedKeys(want) {
		if k == "ts" || k == "by" {
			continue
		}
		wv, gv := want[k], got[k]
		if wm, ok := wv.(map[string]any); ok {
			gm, ok := gv.(map[string]any)
			if !ok {
				return fmt.Sprintf("%s.%s: got %s, want an object", path, k, jsonText(gv))
			}
			if d := diffSubset(path+"."+k, gm, wm); d != "" {
				return d
			}
			continue
		}
		if !reflect.DeepEqual(gv, wv) {
			return fmt.Sprintf("%s.%s: got %s, want %s", path, k, jsonText(gv), jsonText(wv))
		}
	}
	return ""
}

func jsonText(v any) string {
	if v == nil {
		return "nothing"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// stateFromOpenKey is a raised, open, not withdrawn act as open_keys lists it.
func stateFromOpenKey(project string, k openKey) *ActState {
	return &ActState{Key: k.Key, Project: project, Status: StatusOpen, Need: NeedActive,
		TermsRev: 1, Text: k.Text, NeedID: RaisedID(k.Key), Reopens: k.Reopened}
}

func fixtureRegistrar(c *fixtureCase, acts map[string]*ActState) (*registrar, error) {
	p, err := caseProfile(c)
	if err != nil {
		return nil, err
	}
	doc, err := caseDocument(c)
	if err != nil {
		return nil, err
	}
	project := c.Project
	if project == "" {
		project = "conformance"
	}
	// Only register.json derives keys; the other steps take the project
	// name as it comes.
	return newRegistrarFor(RunInput{Document: []byte(doc), Profile: p, Project: project, Acts: acts, Now: "2026-01-01T00:00:00Z"}, c.KnownKeys != nil || c.Raised != nil)
}

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
	d, err := Parse([]byte(doc), p)
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
	acts := map[string]*ActState{}
	for _, k := range c.OpenKeys {
		acts[k.Key] = stateFromOpenKey(c.Project, k)
	}
	r, err := fixtureRegistrar(c, acts)
	if err != nil {
		return err.Error()
	}
	r.relink()
	if c.ExpectedDocument == nil {
		return "the case has no expected_document"
	}
	return diffDocuments(string(r.d.Bytes()), *c.ExpectedDocument)
}

func caseRegister(c *fixtureCase) string {
	acts := map[string]*ActState{}
	for _, k := range c.KnownKeys {
		acts[k] = &ActState{Key: k, Project: c.Project, Status: StatusOpen, Need: NeedActive, TermsRev: 1, NeedID: RaisedID(k)}
	}
	r, err := fixtureRegistrar(c, acts)
	if err != nil {
		return err.Error()
	}
	r.raise()
	if c.ExpectedDocument != nil {
		if d := diffDocuments(string(r.d.Bytes()), *c.ExpectedDocument); d != "" {
			return d
		}
	}
	return diffRecords("raised", onlyType(r.out.Send, TypeRaised), c.Raised)
}

func onlyType(rs []Record, typ string) []Record {
	var out []Record
	for _, r := range rs {
		if r.Type == typ {
			out = append(out, r)
		}
	}
	return out
}

func caseAmend(c *fixtureCase) string {
	acts := map[string]*ActState{}
	for k, l := range c.Latest {
		// A case that leaves terms_rev or need_id out means the ids §7
		// gives them: r:<key> at revision 1, a:<key>:<rev> after.
		if l.TermsRev == 0 {
			l.TermsRev = 1
		}
		if l.NeedID == "" {
			l.NeedID = RaisedID(k)
			if l.TermsRev > 1 {
				l.NeedID = fmt.Sprintf("a:%s:%d", k, l.TermsRev)
			}
		}
		acts[k] = &ActState{Key: k, Project: c.Project, Status: StatusOpen, Need: NeedActive, TermsRev: l.TermsRev, Text: l.Text, NeedID: l.NeedID}
	}
	r, err := fixtureRegistrar(c, acts)
	if err != nil {
		return err.Error()
	}
	r.amend()
	return diffRecords("amended", onlyType(r.out.Send, TypeAmended), c.Amended)
}

// ---- apply.json ----------------------------------------------------------

func decodeRecords(raws []json.RawMessage) ([]Record, error) {
	out := make([]Record, 0, len(raws))
	for i, raw := range raws {
		var r Record
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("record %d: %v", i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// statesOf runs Lifecycle over each key's records (keys in first-seen order).
func statesOf(records []Record) (map[string]*ActState, []string, error) {
	groups := map[string][]Record{}
	var order []string
	for _, r := range records {
		if _, ok := groups[r.Key]; !ok {
			order = append(order, r.Key)
		}
		groups[r.Key] = append(groups[r.Key], r)
	}
	acts := map[string]*ActState{}
	for _, k := range order {
		st, err := Lifecycle(groups[k])
		if err != nil {
			return nil, nil, fmt.Errorf("lifecycle of %s: %v", k, err)
		}
		acts[k] = st
	}
	return acts, order, nil
}

func caseApply(c *fixtureCase) string {
	recs, err := decodeRecords(c.Records)
	if err != nil {
		return err.Error()
	}
	acts, order, err := statesOf(recs)
	if err != nil {
		return err.Error()
	}
	r, err := fixtureRegistrar(c, acts)
	if err != nil {
		return err.Error()
	}
	byID := map[string]Record{}
	for _, rec := range recs {
		byID[rec.ID] = rec
	}
	r.in.Records = byID
	// Pending settlements in the order their keys were delivered. A lone
	// reopened (its settled never arrived) is current by Lifecycle itself,
	// exactly as tp acts sync sees it.
	all := r.pendingSettlements()
	var pending []pendingSettlement
	for _, k := range order {
		for _, p := range all {
			if p.Key == k {
				pending = append(pending, p)
			}
		}
	}
	r.applySettlements(pending)
	if c.ExpectedDocument == nil {
		return "the case has no expected_document"
	}
	return diffDocuments(string(r.d.Bytes()), *c.ExpectedDocument)
}

// ---- reconcile.json ------------------------------------------------------

func caseReconcile(c *fixtureCase) string {
	acts := map[string]*ActState{}
	var order []string
	for _, k := range c.OpenKeys {
		acts[k.Key] = stateFromOpenKey(c.Project, k)
		order = append(order, k.Key)
	}
	r, err := fixtureRegistrar(c, acts)
	if err != nil {
		return err.Error()
	}
	r.reconcile(order)
	if d := diffRecords("claims", onlyType(r.out.Send, TypeClaimed), c.Claims); d != "" {
		return d
	}
	got := []string{}
	for _, w := range r.out.Warnings {
		if w.Kind == WarnRewrite {
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
	typ, err := ValidateRecord(c.Record)
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
	st, err := Lifecycle(recs)
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
	var log []Record
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
	run := func(doc []byte, log []Record, acked map[string]bool) (RunOutput, error) {
		acts, _, err := statesOf(log)
		if err != nil {
			return RunOutput{}, err
		}
		byID := map[string]Record{}
		for _, r := range log {
			byID[r.ID] = r
		}
		return Run(RunInput{Document: doc, Profile: p, Project: project, Acts: acts, Acked: acked, Records: byID, Now: "2026-01-01T00:00:00Z"})
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
	log2 := append(append([]Record(nil), log...), out.Send...)
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
