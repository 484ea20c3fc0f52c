// Package checkpoint records an agent's (or a person's) durable state into a
// passport: current state, facts, decisions, next steps, artifacts and goal
// (D17). It is the store's expected-version save (D15): a stale
// version is refused and nothing is written.
//
// Two rules from TaskPack 0.1 hold on the way in, so the store never holds
// what a pack could not carry: a fact marked verified is stamped verified_on
// with this machine (D14), and a fact never verified here carries no
// verified_on, so no landing can ever restore a ✓ it never had (§4.2).
// Credential-like strings are refused with the pack-time table (§4.1, D5),
// so a secret never reaches the store.
//
// The CLI (tp checkpoint), the MCP server (task_passport_checkpoint) and the
// task-passport drop-in all call Run.
package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack/scan"
)

// Fact is one fact to record (§4.2).
type Fact struct {
	Claim    string `json:"claim"`
	Scope    string `json:"scope"` // machine, org or universal
	Evidence string `json:"evidence,omitempty"`
	Verified bool   `json:"verified"`
}

// Decision is one decision taken, with why.
type Decision struct {
	What string `json:"what"`
	Why  string `json:"why,omitempty"`
}

// Request is one checkpoint. Either Whole is set (a whole state object, as
// tp open --json or task_passport_open return it, which replaces the stored
// state) or the field changes are applied to the stored state.
type Request struct {
	ID              string // may be empty when Whole carries the id
	ExpectedVersion int64  // the version read before editing (D15)

	State     *string // current_state, replaced
	Goal      *string // goal, replaced
	Facts     []Fact  // added; a fact with the same claim is replaced in place
	Decisions []Decision
	NextSteps []string // replace next_steps when not nil
	Artifacts []string // added unless already listed

	Whole *ojson.Value // the whole state object

	Machine string // this machine (D14), stamped as verified_on
	Harness string // recorded as the state's harness when not empty
}

// Report is what a checkpoint did.
type Report struct {
	PassportID      string       `json:"passport_id"`
	StateVersion    int64        `json:"state_version"`
	PreviousVersion int64        `json:"previous_version"`
	Changed         []string     `json:"changed"`
	Warnings        []string     `json:"warnings"`
	State           *ojson.Value `json:"state"`
}

// Error is a checkpoint refused before anything was written: the field and
// the rule.
type Error struct {
	Field string
	Rule  string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return "checkpoint refused: " + e.Rule
	}
	return "checkpoint refused: " + e.Field + ": " + e.Rule
}

// Scopes are the fact scopes of TaskPack 0.1 §4.2.
var Scopes = []string{model.ScopeMachine, model.ScopeOrg, model.ScopeUniversal}

// ValidScope reports whether s is one of Scopes.
func ValidScope(s string) bool {
	for _, x := range Scopes {
		if s == x {
			return true
		}
	}
	return false
}

// ParseFact reads the command line's "claim|scope[|evidence]".
func ParseFact(s string, verified bool) (Fact, error) {
	parts := strings.SplitN(s, "|", 3)
	f := Fact{Claim: strings.TrimSpace(parts[0]), Verified: verified}
	if len(parts) > 1 {
		f.Scope = strings.TrimSpace(parts[1])
	}
	if len(parts) > 2 {
		f.Evidence = strings.TrimSpace(parts[2])
	}
	if f.Claim == "" {
		return f, fmt.Errorf("--fact %q: the claim is empty (expected \"claim|scope[|evidence]\")", sanitize.Line(s))
	}
	if !ValidScope(f.Scope) {
		return f, fmt.Errorf("--fact %q: scope must be machine, org or universal (TaskPack 0.1 §4.2; if you cannot say how someone else would verify it, it is machine)", sanitize.Line(s))
	}
	return f, nil
}

// ParseDecision reads "what[|why]".
func ParseDecision(s string) (Decision, error) {
	what, why, _ := strings.Cut(s, "|")
	d := Decision{What: strings.TrimSpace(what), Why: strings.TrimSpace(why)}
	if d.What == "" {
		return d, fmt.Errorf("--decision %q: the decision is empty", sanitize.Line(s))
	}
	return d, nil
}

// Empty reports whether the request changes nothing.
func (r Request) Empty() bool {
	return r.Whole == nil && r.State == nil && r.Goal == nil && len(r.Facts) == 0 &&
		len(r.Decisions) == 0 && r.NextSteps == nil && len(r.Artifacts) == 0
}

// Run applies the request to passport req.ID and saves it with
// req.ExpectedVersion as expected_version. A stale version is a
// *store.ConflictError naming both versions; a refusal is an *Error; in
// either case nothing is written.
func Run(ctx context.Context, st *store.Store, req Request) (*Report, error) {
	id, err := requestID(req)
	if err != nil {
		return nil, err
	}
	if req.Empty() {
		return nil, &Error{Rule: "nothing to record: give a state, a fact, a decision, a next step, an artifact, a goal, or a whole state object"}
	}
	if req.ExpectedVersion < 0 {
		return nil, &Error{Field: "expected_version", Rule: "must be a non-negative integer"}
	}
	stored, err := st.Get(id)
	if err != nil {
		return nil, err
	}
	// Refuse a stale version before any other finding: the caller must read
	// again whatever else is wrong (the save checks it again under the lock).
	if stored.Version != req.ExpectedVersion {
		return nil, &store.ConflictError{ID: id, Expected: req.ExpectedVersion, Found: stored.Version}
	}
	next, rep, err := apply(stored.V, id, req)
	if err != nil {
		return nil, err
	}
	if err := refuseCredentials(stored.V, next); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	saved, err := st.Save(next, req.ExpectedVersion)
	if err != nil {
		return nil, err
	}
	rep.PassportID = id
	rep.PreviousVersion = stored.Version
	rep.StateVersion, _ = saved.Get("version").Int()
	rep.State = saved
	return rep, nil
}

func requestID(req Request) (string, error) {
	id := strings.TrimSpace(req.ID)
	if req.Whole != nil {
		if req.Whole.Kind() != ojson.Object {
			return "", &Error{Field: "state", Rule: "must be a JSON object (the state task_passport_open returns)"}
		}
		inner := strings.TrimSpace(req.Whole.Get("id").Text())
		switch {
		case id == "":
			id = inner
		case inner != "" && inner != id:
			return "", &Error{Field: "state.id", Rule: fmt.Sprintf("the state object is passport %s, not %s", sanitize.Line(inner), sanitize.Line(id))}
		}
	}
	if id == "" {
		return "", &Error{Field: "id", Rule: "no passport id: name one, or give a state object that carries its id"}
	}
	if err := store.ValidID(id); err != nil {
		return "", err
	}
	return id, nil
}

// keptKeys are tp's bookkeeping, kept from the stored state when a whole
// state object leaves them out: an agent that edits the reference's fields
// must not silently drop the asks the passport sent (§4.3) or its lineage
// (§3.1). Asks and checks change through their own tools.
var keptKeys = []string{"lineage", "asks", "landing_checks", "landed_from", "receipts_merged"}

func apply(stored *ojson.Value, id string, req Request) (*ojson.Value, *Report, error) {
	rep := &Report{Changed: []string{}, Warnings: []string{}}
	var next *ojson.Value
	if req.Whole != nil {
		next = req.Whole.Clone()
		next.Set("id", ojson.NewString(id))
		for _, k := range keptKeys {
			if stored.Has(k) && !next.Has(k) {
				next.Set(k, stored.Get(k).Clone())
				rep.Warnings = append(rep.Warnings, "kept "+k+" from the stored passport (the state object left it out)")
			}
		}
		rep.Changed = append(rep.Changed, "state")
	} else {
		next = stored.Clone()
		if req.State != nil {
			next.Set("current_state", ojson.NewString(strings.TrimSpace(*req.State)))
			rep.Changed = append(rep.Changed, "current_state")
		}
		if req.Goal != nil {
			g := strings.TrimSpace(*req.Goal)
			if g == "" {
				return nil, nil, &Error{Field: "goal", Rule: "the goal cannot be empty"}
			}
			next.Set("goal", ojson.NewString(g))
			rep.Changed = append(rep.Changed, "goal")
		}
		if len(req.Facts) > 0 {
			if err := addFacts(next, req.Facts); err != nil {
				return nil, nil, err
			}
			rep.Changed = append(rep.Changed, fmt.Sprintf("facts (%d)", len(req.Facts)))
		}
		if len(req.Decisions) > 0 {
			arr := array(next, "decisions")
			for _, d := range req.Decisions {
				o := ojson.NewObject()
				o.Set("what", ojson.NewString(d.What))
				if d.Why != "" {
					o.Set("why", ojson.NewString(d.Why))
				}
				arr.Append(o)
			}
			rep.Changed = append(rep.Changed, fmt.Sprintf("decisions (%d)", len(req.Decisions)))
		}
		if req.NextSteps != nil {
			var steps []string
			for _, s := range req.NextSteps {
				if s = strings.TrimSpace(s); s != "" {
					steps = append(steps, s)
				}
			}
			next.Set("next_steps", ojson.NewStrings(steps))
			rep.Changed = append(rep.Changed, "next_steps")
		}
		if len(req.Artifacts) > 0 {
			arr := array(next, "artifacts")
			have := map[string]bool{}
			for _, a := range arr.Items() {
				have[a.Text()] = true
			}
			for _, a := range req.Artifacts {
				if a = strings.TrimSpace(a); a != "" && !have[a] {
					arr.Append(ojson.NewString(a))
					have[a] = true
				}
			}
			rep.Changed = append(rep.Changed, "artifacts")
		}
	}
	if req.Whole != nil {
		if err := checkScopes(stored, next); err != nil {
			return nil, nil, err
		}
		if err := checkFactMembers(stored, next); err != nil {
			return nil, nil, err
		}
	}
	if req.Harness != "" {
		next.Set("harness", ojson.NewString(req.Harness))
	}
	rep.Warnings = append(rep.Warnings, stampFacts(stored, next, req.Machine)...)
	return next, rep, nil
}

// checkScopes refuses a fact of a whole state object whose scope is not
// one of the three (TaskPack 0.1 §4.2): an unknown scope counts as machine
// when packed, so a fact the writer meant as universal would leave sealed
// without a word. A fact with no scope is machine by the rule, and kept. A
// scope the stored state already holds for the same claim (a landed
// pack's, kept as written) is not the caller's to answer for.
func checkScopes(stored, next *ojson.Value) error {
	had := map[string]string{}
	for _, f := range stored.Get("facts").Items() {
		if f.Kind() == ojson.Object && f.Has("scope") {
			had[strings.TrimSpace(f.Get("claim").Text())] = rawJSON(f.Get("scope"))
		}
	}
	for i, f := range next.Get("facts").Items() {
		if f.Kind() != ojson.Object || !f.Has("scope") {
			continue
		}
		sc := f.Get("scope")
		if sc.Kind() == ojson.String && ValidScope(sc.Text()) {
			continue
		}
		raw := rawJSON(sc)
		if had[strings.TrimSpace(f.Get("claim").Text())] == raw {
			continue
		}
		return &Error{Field: fmt.Sprintf("facts[%d].scope", i),
			Rule: fmt.Sprintf("%s is not a scope: universal, org or machine (TaskPack 0.1 §4.2; unsure: machine); nothing was written", sanitize.Line(raw))}
	}
	return nil
}

// factMembers are the members a fact has in TaskPack 0.1 §4.2 and in
// what tp and the reference write (evidence: tp checkpoint --fact's third
// part; source_actor: who asserted an org fact, stamped at pack time).
var factMembers = []string{"claim", "scope", "verified", "needs_reverify", "verified_on", "source", "evidence", "source_actor"}

// checkFactMembers refuses a fact member of a whole state object that is
// neither one of factMembers nor carried by any fact of the stored state.
// A misspelt "verfied": true kept without a word would leave the writer
// sure of a fact every reader sees unproven. A member the stored facts
// already carry (an extension a landed pack brought, kept as written) is
// the passport's own, and stays on any fact.
func checkFactMembers(stored, next *ojson.Value) error {
	had := map[string]bool{}
	for _, m := range factMembers {
		had[m] = true
	}
	for _, f := range stored.Get("facts").Items() {
		for _, m := range f.Obj().Members() {
			had[m.Key] = true
		}
	}
	for i, f := range next.Get("facts").Items() {
		for _, m := range f.Obj().Members() {
			if !had[m.Key] {
				return &Error{Field: fmt.Sprintf("facts[%d].%s", i, sanitize.Line(m.Key)),
					Rule: fmt.Sprintf("%q is not a fact member: a fact has %s (TaskPack 0.1 §4.2); nothing was written", sanitize.Line(m.Key), strings.Join(factMembers, ", "))}
			}
		}
	}
	return nil
}

// rawJSON is v as JSON text.
func rawJSON(v *ojson.Value) string {
	b, err := v.MarshalJSON()
	if err != nil {
		return "?"
	}
	return string(b)
}

// array returns v[key] as an array, making it one if it is missing or not
// an array.
func array(v *ojson.Value, key string) *ojson.Value {
	a := v.Get(key)
	if a.Kind() != ojson.Array {
		a = ojson.NewArray()
		v.Set(key, a)
	}
	return a
}

// addFacts appends facts, replacing a stored fact with the same claim in
// place (re-verifying a sealed fact is recording it again).
func addFacts(v *ojson.Value, facts []Fact) error {
	arr := array(v, "facts")
	for i, f := range facts {
		claim := strings.TrimSpace(f.Claim)
		if claim == "" {
			return &Error{Field: fmt.Sprintf("facts[%d].claim", i), Rule: "the claim is empty"}
		}
		if !ValidScope(f.Scope) {
			return &Error{Field: fmt.Sprintf("facts[%d].scope", i), Rule: "must be machine, org or universal (TaskPack 0.1 §4.2)"}
		}
		o := ojson.NewObject()
		o.Set("claim", ojson.NewString(claim))
		o.Set("scope", ojson.NewString(f.Scope))
		o.Set("verified", ojson.NewBool(f.Verified))
		if e := strings.TrimSpace(f.Evidence); e != "" {
			o.Set("evidence", ojson.NewString(e))
		}
		replaced := false
		for j, old := range arr.Items() {
			if old.Kind() == ojson.Object && strings.TrimSpace(old.Get("claim").Text()) == claim {
				items := arr.Items()
				items[j] = o
				arr.SetItems(items)
				replaced = true
				break
			}
		}
		if !replaced {
			arr.Append(o)
		}
	}
	return nil
}

// stampFacts enforces D17 on every fact of next: a verified fact carries
// verified_on (this machine, when it was not already verified with a
// verified_on in the stored state) and no needs_reverify; a fact that is not
// verified keeps a verified_on only when the stored state holds the same
// claim sealed with that same verified_on (a landing put it there, §4.2).
// Anything else would let a later landing restore a ✓ nobody earned.
func stampFacts(stored, next *ojson.Value, machine string) []string {
	type prior struct {
		verified   bool
		verifiedOn string
	}
	before := map[string]prior{}
	for _, f := range stored.Get("facts").Items() {
		if f.Kind() != ojson.Object {
			continue
		}
		mf := model.Fact{V: f}
		before[strings.TrimSpace(mf.Claim())] = prior{verified: mf.Verified(), verifiedOn: mf.VerifiedOn()}
	}
	var warnings []string
	for i, f := range next.Get("facts").Items() {
		if f.Kind() != ojson.Object {
			continue
		}
		mf := model.Fact{V: f}
		p, known := before[strings.TrimSpace(mf.Claim())]
		if mf.Verified() {
			if !(known && p.verified && p.verifiedOn != "" && p.verifiedOn == mf.VerifiedOn()) {
				if machine == "" {
					machine = "unknown-machine"
				}
				f.Set("verified_on", ojson.NewString(machine))
			}
			f.Obj().Delete("needs_reverify")
			continue
		}
		if f.Has("verified_on") && !(known && p.verifiedOn != "" && p.verifiedOn == mf.VerifiedOn()) {
			f.Obj().Delete("verified_on")
			warnings = append(warnings, fmt.Sprintf("facts[%d]: dropped verified_on: a fact never verified here carries none (D17, TaskPack 0.1 §4.2)", i))
		}
	}
	return warnings
}

// refuseCredentials scans every key and string of next that the stored
// state does not already hold, with the pack-time credential table (D5).
// What the stored state holds already (a landed pack's text, kept as data)
// is not the caller's to answer for here; pack refuses it on the way out.
func refuseCredentials(stored, next *ojson.Value) error {
	old := map[string]bool{}
	collect(stored, func(s string) { old[s] = true })
	var fields []string
	walk(next, "", func(path, s string) {
		if old[s] {
			return
		}
		for _, f := range scan.Credentials(s) {
			fields = append(fields, path+" ("+f.Rule+")")
			break
		}
	})
	if len(fields) == 0 {
		return nil
	}
	return &Error{Field: strings.Join(fields, ", "),
		Rule: "looks like a credential; a secret never goes into a passport (TaskPack 0.1 §4.1, D5): nothing was written"}
}

func collect(v *ojson.Value, f func(string)) { walk(v, "", func(_, s string) { f(s) }) }

// walk calls f with every key and string value of v and its JSON path.
func walk(v *ojson.Value, path string, f func(path, s string)) {
	switch v.Kind() {
	case ojson.String:
		f(path, v.Text())
	case ojson.Array:
		for i, it := range v.Items() {
			walk(it, fmt.Sprintf("%s[%d]", path, i), f)
		}
	case ojson.Object:
		for _, m := range v.Obj().Members() {
			p := m.Key
			if path != "" {
				p = path + "." + m.Key
			}
			f(p, m.Key)
			walk(m.Value, p, f)
		}
	}
}

// IsConflict reports whether err is a stale expected_version.
func IsConflict(err error) bool {
	var ce *store.ConflictError
	return errors.As(err, &ce)
}

// Create is store.Create behind D5's table: a title, goal, current state
// or next step holding a credential is refused before anything is written,
// as a checkpoint's fields are. The command line's tp new, the drop-in's
// new and the MCP server's task_passport_new all create through it.
func Create(st *store.Store, title, goal string, opt store.CreateOptions) (*ojson.Value, error) {
	var fields []string
	for _, f := range []struct{ name, text string }{{"title", title}, {"goal", goal}, {"current_state", opt.CurrentState}, {"next_step", opt.NextStep}} {
		if found := scan.Credentials(f.text); len(found) > 0 {
			fields = append(fields, f.name+" ("+found[0].Rule+")")
		}
	}
	if len(fields) > 0 {
		return nil, &Error{Field: strings.Join(fields, ", "),
			Rule: "looks like a credential; a secret never goes into a passport (TaskPack 0.1 §4.1, D5): nothing was written"}
	}
	return st.Create(title, goal, opt)
}
