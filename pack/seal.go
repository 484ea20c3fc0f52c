package pack

import (
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// Seal applies §4.2 to a pack object in place: every fact that is not
// universal or org scoped (a fact with no scope counts as machine) leaves in
// its sealed form — verified: false, needs_reverify: true — and verified_on
// names the machine where it was proven: the fact's own verified_on when it
// has one, else origin.machine for a fact that arrives verified. A fact that
// was never verified gets no verified_on (it was proven nowhere), so no
// landing can restore a ✓ it never had; a sealed fact keeps the verified_on
// an earlier hop recorded. Universal and org facts keep their ✓.
//
// Keys already present keep their place and new ones go last, as the
// reference's {...fact, verified, needs_reverify, verified_on} does, so a
// pack sealed here and one sealed there are the same bytes whenever the
// fact was proven. Seal is idempotent; it returns the JSON paths of the
// facts it changed.
func Seal(obj *ojson.Value) []string {
	machine := obj.Get("origin").Get("machine").Text()
	var changed []string
	for i, f := range obj.Get("passport").Get("facts").Items() {
		if !needsSeal(f) {
			continue
		}
		sealFact(f, machine)
		changed = append(changed, model.Path("passport", "facts", i))
	}
	return changed
}

// Sealed is Seal on a copy: obj is left as it was, and the copy shares
// every value Seal would not change (ojson.Shallow): the object, its
// passport and its facts list are copied, and each fact that changes is
// cloned. A pack of 110,000 facts was copied whole to seal it, 40 MB
// (issue 20).
func Sealed(obj *ojson.Value) *ojson.Value {
	out := obj.Shallow()
	state := obj.Get("passport")
	facts := state.Get("facts")
	var items []*ojson.Value
	machine := obj.Get("origin").Get("machine").Text()
	for i, f := range facts.Items() {
		if !needsSeal(f) {
			continue
		}
		if items == nil {
			items = facts.Shallow().Items()
		}
		c := f.Shallow() // sealFact sets the fact's own members only
		sealFact(c, machine)
		items[i] = c
	}
	if items != nil {
		st := state.Shallow()
		st.Set("facts", ojson.NewArray(items...))
		out.Set("passport", st)
	}
	return out
}

// needsSeal reports whether Seal changes f.
func needsSeal(f *ojson.Value) bool {
	if f.Kind() != ojson.Object || (model.Fact{V: f}).KeepsVerified() {
		return false
	}
	verified, isBool := f.Get("verified").Bool()
	needs, _ := f.Get("needs_reverify").Bool()
	// Sealed already: where it was proven, if anywhere, is recorded.
	return !(isBool && !verified && needs)
}

// sealFact puts f in its sealed form; machine is the pack's origin.
func sealFact(f *ojson.Value, machine string) {
	on := f.Get("verified_on").Text()
	verified, _ := f.Get("verified").Bool()
	f.Set("verified", ojson.NewBool(false))
	f.Set("needs_reverify", ojson.NewBool(true))
	if verified && on == "" {
		// Proven, and where is the pack's own machine: the one that
		// wrote the ✓ it is losing here.
		f.Set("verified_on", ojson.NewString(machine))
	}
}

// repairObject applies the lenient repairs of D4 to a pack object in place
// and lists them: sealing, and the defaults the reference gives a missing
// ask id (a<n>) and status (open), and a missing check id (c<n>) and
// required (true).
func repairObject(obj *ojson.Value) []Repair {
	var out []Repair
	for _, p := range Seal(obj) {
		out = append(out, Repair{Rule: RepairSeal, Where: p,
			Detail: "a machine-scoped or unscoped fact was not in its sealed form (verified: false, needs_reverify: true, verified_on); sealed it (§4.2)"})
	}
	for i, a := range obj.Get("asks").Items() {
		if a.Kind() != ojson.Object {
			continue
		}
		where := model.Path("asks", i)
		if id, ok := a.Get("id").Str(); !ok || id == "" {
			a.Set("id", ojson.NewString("a"+itoa(i+1)))
			out = append(out, Repair{Rule: RepairAskID, Where: where, Detail: "ask had no id; called it a" + itoa(i+1)})
		}
		if s, ok := a.Get("status").Str(); !ok || s == "" {
			a.Set("status", ojson.NewString(model.AskOpen))
			out = append(out, Repair{Rule: RepairAskStatus, Where: where, Detail: "ask had no status; took it as open"})
		}
	}
	for i, c := range obj.Get("landing_checks").Items() {
		if c.Kind() != ojson.Object {
			continue
		}
		where := model.Path("landing_checks", i)
		if id, ok := c.Get("id").Str(); !ok || id == "" {
			c.Set("id", ojson.NewString("c"+itoa(i+1)))
			out = append(out, Repair{Rule: RepairCheckID, Where: where, Detail: "landing check had no id; called it c" + itoa(i+1)})
		}
		if _, ok := c.Get("required").Bool(); !ok {
			c.Set("required", ojson.NewBool(true))
			out = append(out, Repair{Rule: RepairCheckRequired, Where: where, Detail: "landing check had no required; took it as required"})
		}
	}
	return out
}

func itoa(i int) string { return ojson.FormatNumber(float64(i)) }

// repairsOf lists the repairs repairObject makes, leaving obj as it was:
// what repairing sets (a fact to seal, an ask, a landing check: each one's
// own members) is copied one level (ojson.Shallow), the rest is shared. A
// copy of the whole object, which it replaces, was 40 MB for a pack of
// 110,000 facts (issue 20).
func repairsOf(obj *ojson.Value) []Repair {
	c := obj.Shallow()
	if p := obj.Get("passport"); p.Obj() != nil && p.Has("facts") {
		ps := p.Shallow()
		facts := p.Get("facts").Shallow()
		items := facts.Items()
		for i, f := range items {
			if needsSeal(f) {
				items[i] = f.Shallow()
			}
		}
		ps.Set("facts", facts)
		c.Set("passport", ps)
	}
	for _, k := range []string{"asks", "landing_checks"} {
		if !obj.Has(k) {
			continue
		}
		list := obj.Get(k).Shallow()
		items := list.Items()
		for i, x := range items {
			items[i] = x.Shallow()
		}
		c.Set(k, list)
	}
	return repairObject(c)
}
