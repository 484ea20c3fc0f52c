package checkpoint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/model"
)

// isDocKey: the members a field document may hold (the command line's
// flags, spelled as JSON).
func isDocKey(k string) bool {
	switch k {
	case "id", "passport_id", "expected_version",
		"state", "current_state", "goal",
		"facts", "verified", "decisions",
		"next", "next_steps", "artifacts":
		return true
	}
	return false
}

// Document is a checkpoint read from a JSON document (--file).
type Document struct {
	Request
	// HasExpectedVersion says the document named its expected_version.
	HasExpectedVersion bool
}

// ParseDocument reads a checkpoint document. It is one of:
//   - the object tp open --json or task_passport_open returns
//     ({"passport_id", "state_version", "state": {…}}): its state replaces
//     the stored one;
//   - a whole state object (it has "spec" 2origin/0.1, or "kind"
//     task.origin, or "version"): it replaces the stored one, as
//     task-passport checkpoint --file does;
//   - a field document: {"state" or "current_state", "goal", "facts",
//     "verified", "decisions", "next_steps" or "next", "artifacts"}, each
//     as the matching flag. Facts are objects {claim, scope, evidence,
//     verified} or "claim|scope[|evidence]" strings; decisions are objects
//     {what, why} or strings.
//
// A UTF-8 byte order mark is accepted (Windows shells write one). name is
// the file's name for messages.
func ParseDocument(data []byte, name string) (*Document, error) {
	v, _, err := ojson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", sanitize.Line(name), sanitize.Line(err.Error()))
	}
	if v.Kind() != ojson.Object {
		return nil, fmt.Errorf("%s: a checkpoint document is a JSON object, not a %s", sanitize.Line(name), v.Kind())
	}
	d := &Document{}
	if ev := v.Get("expected_version"); ev.Kind() != ojson.Null {
		n, ok := ev.Int()
		if !ok || n < 0 {
			return nil, fmt.Errorf("%s: expected_version must be a non-negative integer", sanitize.Line(name))
		}
		d.ExpectedVersion, d.HasExpectedVersion = n, true
	}
	if inner := v.Get("state"); inner.Kind() == ojson.Object {
		d.Whole = inner
		d.ID = strings.TrimSpace(v.Get("passport_id").Text())
		return d, nil
	}
	if v.Get("spec").Text() == model.SpecState || v.Get("kind").Text() == "task.origin" || v.Has("version") {
		d.Whole = v
		return d, nil
	}
	var unknown []string
	for _, k := range v.Obj().Keys() {
		if !isDocKey(k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("%s: unknown %s %s (a field document holds state, goal, facts, verified, decisions, next_steps, artifacts; a whole state object has spec %q)",
			sanitize.Line(name), plural.Word(len(unknown), "member"), sanitize.Line(strings.Join(unknown, ", ")), model.SpecState)
	}
	d.ID = strings.TrimSpace(v.Get("id").Text())
	if d.ID == "" {
		d.ID = strings.TrimSpace(v.Get("passport_id").Text())
	}
	field := func(key string) (*string, error) {
		x := v.Get(key)
		switch x.Kind() {
		case ojson.Null:
			return nil, nil
		case ojson.String:
			s := x.Text()
			return &s, nil
		}
		return nil, fmt.Errorf("%s: %s must be a string", sanitize.Line(name), key)
	}
	var err1, err2 error
	if d.State, err1 = field("state"); d.State == nil && err1 == nil {
		d.State, err1 = field("current_state")
	}
	d.Goal, err2 = field("goal")
	if err := firstErr(err1, err2); err != nil {
		return nil, err
	}
	verified, _ := v.Get("verified").Bool()
	for i, f := range v.Get("facts").Items() {
		switch f.Kind() {
		case ojson.String:
			pf, err := ParseFact(f.Text(), verified)
			if err != nil {
				return nil, fmt.Errorf("%s: facts[%d]: %w", sanitize.Line(name), i, err)
			}
			d.Facts = append(d.Facts, pf)
		case ojson.Object:
			fv, ok := f.Get("verified").Bool()
			if !ok {
				fv = verified
			}
			scope := f.Get("scope").Text()
			if !f.Has("scope") {
				scope = model.ScopeMachine // §4.2: no scope counts as machine
			}
			d.Facts = append(d.Facts, Fact{Claim: f.Get("claim").Text(), Scope: scope,
				Evidence: f.Get("evidence").Text(), Verified: fv})
		default:
			return nil, fmt.Errorf("%s: facts[%d] must be an object or a \"claim|scope[|evidence]\" string", sanitize.Line(name), i)
		}
	}
	for i, x := range v.Get("decisions").Items() {
		switch x.Kind() {
		case ojson.String:
			pd, err := ParseDecision(x.Text())
			if err != nil {
				return nil, fmt.Errorf("%s: decisions[%d]: %w", sanitize.Line(name), i, err)
			}
			d.Decisions = append(d.Decisions, pd)
		case ojson.Object:
			d.Decisions = append(d.Decisions, Decision{What: x.Get("what").Text(), Why: x.Get("why").Text()})
		default:
			return nil, fmt.Errorf("%s: decisions[%d] must be an object or a string", sanitize.Line(name), i)
		}
	}
	for i, dec := range d.Decisions {
		if strings.TrimSpace(dec.What) == "" {
			return nil, fmt.Errorf("%s: decisions[%d]: what is empty", sanitize.Line(name), i)
		}
	}
	steps := "next_steps"
	if !v.Has(steps) {
		steps = "next"
	}
	if v.Has(steps) {
		list, err := strs(v.Get(steps), name, steps)
		if err != nil {
			return nil, err
		}
		if list == nil {
			list = []string{}
		}
		d.NextSteps = list
	}
	arts, err := strs(v.Get("artifacts"), name, "artifacts")
	if err != nil {
		return nil, err
	}
	d.Artifacts = arts
	return d, nil
}

func strs(v *ojson.Value, name, key string) ([]string, error) {
	switch v.Kind() {
	case ojson.Null:
		return nil, nil
	case ojson.String:
		return []string{v.Text()}, nil
	case ojson.Array:
	default:
		return nil, fmt.Errorf("%s: %s must be a list of strings", sanitize.Line(name), key)
	}
	var out []string
	for i, it := range v.Items() {
		s, ok := it.Str()
		if !ok {
			return nil, fmt.Errorf("%s: %s[%d] must be a string", sanitize.Line(name), key, i)
		}
		out = append(out, s)
	}
	return out, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
