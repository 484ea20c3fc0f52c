package conformance

import (
	"encoding/json"
	"fmt"
	"github.com/tp-dev/tp/acts"
	"reflect"
	"strings"

	"github.com/tp-dev/tp/internal/plural"
)

// Comparing what the registrar did with what a fixture case expects.

func caseProfile(c *fixtureCase) (acts.Profile, error) {
	name := c.Profile
	if name == "" {
		name = "en"
	}
	// Params are read for the profile's own parameters only (an en case
	// that carries a principal_tag is still an en case), and a missing
	// principal_tag is the suite's own, Owner (§5.7).
	for _, d := range acts.ProfileDefs() {
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
	return acts.ProfileByName(name, c.Params)
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
		if t := acts.TrimRightWS(l); acts.TrimWS(t) != "" {
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
func diffRecords(what string, got []acts.Record, want []json.RawMessage) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%s: got %s %s, want %d", what, plural.N(len(got), "record"), recordIDs(got), len(want))
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
func claimsInOrderOf(got []acts.Record, want []json.RawMessage) []acts.Record {
	start := len(got)
	for start > 0 && got[start-1].Type == acts.TypeClaimed {
		start--
	}
	if start == len(got) || len(want) != len(got) {
		return got
	}
	byKey := map[string]acts.Record{}
	for _, r := range got[start:] {
		byKey[r.Key] = r
	}
	out := append([]acts.Record(nil), got[:start]...)
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

func recordIDs(rs []acts.Record) string {
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
func stateFromOpenKey(project string, k openKey) *acts.ActState {
	return &acts.ActState{Key: k.Key, Project: project, Status: acts.StatusOpen, Need: acts.NeedActive,
		TermsRev: 1, Text: k.Text, NeedID: acts.RaisedID(k.Key), Reopens: k.Reopened}
}

func fixtureRegistrar(c *fixtureCase, states map[string]*acts.ActState) (*acts.Steps, error) {
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
	return acts.NewSteps(acts.RunInput{Document: []byte(doc), Profile: p, Project: project, Acts: states, Now: "2026-01-01T00:00:00Z"}, c.KnownKeys != nil || c.Raised != nil)
}
