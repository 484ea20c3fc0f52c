// Package model holds the TaskPack 0.1 domain types (spec §3, §4) as views
// over ordered JSON.
//
// A pack object, a passport state, a fact, an ask or a landing check is kept
// as the ojson.Value it was read from, and the types here are thin views over
// it. That is what lets a reader never drop a field it does not understand:
// unknown fields stay in place through every read → write (D1).
// Setters change the underlying value in place; new keys go last, as
// JavaScript would put them.
//
// The package does no I/O.
package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tp-dev/tp/internal/ojson"
)

// Spec identifiers and kinds (TaskPack §2, §3, §8).
const (
	SpecBag      = "task-passport-bag/0.1" // the pack object's "spec"
	SpecState    = "2origin/0.1"           // the passport state's "spec"
	TaskPack     = "0.1"                   // the flat form's "taskpack"
	BagSpecValue = "taskpack/0.1"          // bag-info.txt Bag-Spec (D2)

	KindHandoff = "handoff"
	KindReceipt = "receipt"
)

// Fact scopes (§4.2).
const (
	ScopeUniversal = "universal"
	ScopeOrg       = "org"
	ScopeMachine   = "machine"
)

// Ask statuses (§4.3) and landing check statuses (ours: issue 3).
const (
	AskOpen     = "open"
	AskAnswered = "answered"
	AskDropped  = "dropped"

	CheckPending = "pending"
	CheckPassed  = "passed"
	CheckFailed  = "failed"
	CheckSkipped = "skipped"
)

func str(v *ojson.Value, key string) string { return v.Get(key).Text() }

func setStr(v *ojson.Value, key, s string) { v.Set(key, ojson.NewString(s)) }

// PackObject is the pack object of §3: data/passport.json in a bag, the
// "passport" member of the flat form.
type PackObject struct{ V *ojson.Value }

func (p PackObject) Kind() string     { return str(p.V, "kind") }
func (p PackObject) PackedAt() string { return str(p.V, "packed_at") }
func (p PackObject) Note() string     { return str(p.V, "note") }
func (p PackObject) Origin() Origin {
	o := p.V.Get("origin")
	return Origin{Actor: str(o, "actor"), Machine: str(o, "machine"), Harness: str(o, "harness")}
}
func (p PackObject) Lineage() Lineage { return LineageOf(p.V.Get("lineage")) }
func (p PackObject) Passport() Passport {
	return Passport{V: p.V.Get("passport")}
}
func (p PackObject) Asks() []Ask {
	var out []Ask
	for _, v := range p.V.Get("asks").Items() {
		out = append(out, Ask{V: v})
	}
	return out
}
func (p PackObject) LandingChecks() []LandingCheck {
	var out []LandingCheck
	for _, v := range p.V.Get("landing_checks").Items() {
		out = append(out, LandingCheck{V: v})
	}
	return out
}

// Origin says who packed: actor, machine and harness.
type Origin struct {
	Actor   string `json:"actor"`
	Machine string `json:"machine"`
	Harness string `json:"harness"`
}

// Lineage is the chain of passports a task has passed through (§3).
type Lineage struct {
	RootID         string
	HasRootID      bool
	FromVersion    int64
	HasFromVersion bool
	Chain          []string
}

// LineageOf reads a lineage object; absent fields are reported as absent.
func LineageOf(v *ojson.Value) Lineage {
	var l Lineage
	if s, ok := v.Get("root_id").Str(); ok && s != "" {
		l.RootID, l.HasRootID = s, true
	}
	if n, ok := v.Get("from_version").Int(); ok {
		l.FromVersion, l.HasFromVersion = n, true
	}
	for _, e := range v.Get("chain").Items() {
		if s, ok := e.Str(); ok {
			l.Chain = append(l.Chain, s)
		}
	}
	return l
}

// Value returns the lineage as a JSON object in the spec's key order.
func (l Lineage) Value() *ojson.Value {
	v := ojson.NewObject()
	v.Set("root_id", ojson.NewString(l.RootID))
	v.Set("from_version", ojson.NewInt(l.FromVersion))
	v.Set("chain", ojson.NewStrings(append([]string{}, l.Chain...)))
	return v
}

// Extend returns the lineage of a pack made from passport id at version:
// the kept chain plus "<id>@<version>"; root_id never changes (§3, §3.1).
func (l Lineage) Extend(id string, version int64) Lineage {
	out := Lineage{RootID: l.RootID, HasRootID: true, FromVersion: version, HasFromVersion: true}
	out.Chain = append(append([]string{}, l.Chain...), ChainEntry(id, version))
	if out.RootID == "" {
		if len(l.Chain) > 0 {
			out.RootID, _, _ = SplitChainEntry(l.Chain[0])
		} else {
			out.RootID = id
		}
	}
	return out
}

// ReceiptTarget is the passport a receipt answers (§4.4.1, D6): the entry
// before the last in the chain; with a single entry (or none), root_id.
func (l Lineage) ReceiptTarget() string {
	if len(l.Chain) >= 2 {
		id, _, _ := SplitChainEntry(l.Chain[len(l.Chain)-2])
		return id
	}
	return l.RootID
}

// ReceiptTargetRule says, in words, which rule ReceiptTarget used.
func (l Lineage) ReceiptTargetRule() string {
	switch {
	case len(l.Chain) >= 2:
		return "the entry before the last in lineage.chain"
	case len(l.Chain) == 1:
		return "lineage.root_id: the chain has a single entry"
	}
	return "lineage.root_id: the pack carries no chain"
}

// Sender is the passport id of the last chain entry (the pack's sender).
func (l Lineage) Sender() (id string, version int64, ok bool) {
	if len(l.Chain) == 0 {
		return "", 0, false
	}
	return SplitChainEntry(l.Chain[len(l.Chain)-1])
}

// ChainEntry formats "<id>@<version>".
func ChainEntry(id string, version int64) string { return id + "@" + strconv.FormatInt(version, 10) }

// SplitChainEntry parses "<id>@<version>".
func SplitChainEntry(e string) (id string, version int64, ok bool) {
	i := strings.LastIndexByte(e, '@')
	if i < 0 {
		return e, 0, false
	}
	n, err := strconv.ParseInt(e[i+1:], 10, 64)
	if err != nil {
		return e[:i], 0, false
	}
	return e[:i], n, true
}

// Passport is the task state (the 2origin/0.1 state object): goal, current
// state, facts, decisions, artifacts, next steps, and whatever else it holds.
type Passport struct{ V *ojson.Value }

func (p Passport) ID() string           { return str(p.V, "id") }
func (p Passport) Title() string        { return str(p.V, "title") }
func (p Passport) Goal() string         { return str(p.V, "goal") }
func (p Passport) CurrentState() string { return str(p.V, "current_state") }
func (p Passport) Version() int64       { n, _ := p.V.Get("version").Int(); return n }
func (p Passport) NextSteps() []string  { return strings_(p.V.Get("next_steps")) }
func (p Passport) Artifacts() []string  { return strings_(p.V.Get("artifacts")) }
func (p Passport) Facts() []Fact {
	items := p.V.Get("facts").Items()
	if len(items) == 0 {
		return nil
	}
	out := make([]Fact, 0, len(items))
	for _, v := range items {
		out = append(out, Fact{V: v})
	}
	return out
}

func strings_(v *ojson.Value) []string {
	var out []string
	for _, e := range v.Items() {
		if s, ok := e.Str(); ok {
			out = append(out, s)
		}
	}
	return out
}

// Fact is one claim about the task and whether it was proven (§4.2).
type Fact struct{ V *ojson.Value }

func (f Fact) Claim() string      { return str(f.V, "claim") }
func (f Fact) Scope() string      { return str(f.V, "scope") }
func (f Fact) HasScope() bool     { return f.V.Has("scope") }
func (f Fact) VerifiedOn() string { return str(f.V, "verified_on") }

// Evidence is how the writer says the fact was proven (tp's third --fact
// part); Source is the reference's member for the same; SourceActor names
// who asserted an org fact (§4.2, stamped at pack time). All three are the
// sender's words.
func (f Fact) Evidence() string    { return str(f.V, "evidence") }
func (f Fact) Source() string      { return str(f.V, "source") }
func (f Fact) SourceActor() string { return str(f.V, "source_actor") }
func (f Fact) Verified() bool      { b, _ := f.V.Get("verified").Bool(); return b }
func (f Fact) NeedsReverify() bool {
	b, _ := f.V.Get("needs_reverify").Bool()
	return b
}

// KeepsVerified reports whether the fact's ✓ survives a machine boundary:
// only universal and org facts do; a fact with no scope (or any other value)
// counts as machine-scoped (§4.2).
func (f Fact) KeepsVerified() bool {
	s := f.Scope()
	return s == ScopeUniversal || s == ScopeOrg
}

// Sealed reports whether the fact is in its sealed form: not verified, needing
// re-verification.
func (f Fact) Sealed() bool { return !f.Verified() && f.NeedsReverify() }

// Ask is a question the sender still needs answered (§4.3).
type Ask struct{ V *ojson.Value }

func (a Ask) ID() string         { return str(a.V, "id") }
func (a Ask) To() string         { return str(a.V, "to") }
func (a Ask) What() string       { return str(a.V, "what") }
func (a Ask) Why() string        { return str(a.V, "why") }
func (a Ask) Accept() string     { return str(a.V, "accept") }
func (a Ask) Status() string     { return str(a.V, "status") }
func (a Ask) Answer() string     { return str(a.V, "answer") }
func (a Ask) AnsweredBy() string { return str(a.V, "answered_by") }
func (a Ask) AnsweredAt() string { return str(a.V, "answered_at") }

// LandingCheck is what must be true on the receiving machine before work
// resumes (§4.4). How is the sender's suggestion, never an instruction.
type LandingCheck struct{ V *ojson.Value }

func (c LandingCheck) ID() string    { return str(c.V, "id") }
func (c LandingCheck) Check() string { return str(c.V, "check") }
func (c LandingCheck) How() string   { return str(c.V, "how") }
func (c LandingCheck) Required() bool {
	b, _ := c.V.Get("required").Bool()
	return b
}
func (c LandingCheck) Status() string { return str(c.V, "status") }

// NewAsk builds an ask in the spec's key order.
func NewAsk(id, what, why, accept string) Ask {
	v := ojson.NewObject()
	setStr(v, "id", id)
	setStr(v, "to", "peer")
	setStr(v, "what", what)
	setStr(v, "why", why)
	setStr(v, "accept", accept)
	setStr(v, "status", AskOpen)
	v.Set("answer", ojson.NewNull())
	return Ask{V: v}
}

// NewLandingCheck builds a landing check in the spec's key order.
func NewLandingCheck(id, check, how string, required bool) LandingCheck {
	v := ojson.NewObject()
	setStr(v, "id", id)
	setStr(v, "check", check)
	setStr(v, "how", how)
	v.Set("required", ojson.NewBool(required))
	return LandingCheck{V: v}
}

// Path names a place in a pack object for error messages, e.g.
// passport.facts[2].claim.
func Path(parts ...any) string {
	var b strings.Builder
	for _, p := range parts {
		switch x := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", x)
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(x)
		}
	}
	return b.String()
}
