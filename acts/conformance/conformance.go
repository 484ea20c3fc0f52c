package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tp-dev/tp/acts"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
		if slices.Contains(fixtureKinds, e.Name()) && !e.IsDir() {
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
		if got := acts.DeriveKey(c.Project, c.Text); got != c.Key {
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
	Heading        string      `json:"heading"`
	LabelOpen      string      `json:"label_open"`
	LabelClose     string      `json:"label_close"`
	Labels         acts.Labels `json:"labels"`
	LabelSeparator string      `json:"label_separator"`
	Placeholder    string      `json:"placeholder"`
	MarkerRender   string      `json:"marker_render"`
	MarkerPattern  string      `json:"marker_pattern"`
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
		var def *acts.ProfileDef
		defs := acts.ProfileDefs()
		for i := range defs {
			if defs[i].Name == name {
				def = &defs[i]
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

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
