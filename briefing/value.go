package briefing

import "github.com/tp-dev/tp/internal/ojson"

// Value is b as the ordered JSON value encoding/json would give (member
// order and omitempty as the struct tags say), built directly: a briefing
// of a 110,000-fact passport is too big to marshal and parse back.
func (b *Briefing) Value() *ojson.Value {
	v := ojson.NewObject()
	o := v.Obj()
	str := func(o *ojson.Obj, k, s string, omitEmpty bool) {
		if s != "" || !omitEmpty {
			o.Set(k, ojson.NewString(s))
		}
	}
	list := func(n int, item func(i int) *ojson.Value) *ojson.Value {
		a := make([]*ojson.Value, n)
		for i := range a {
			a[i] = item(i)
		}
		return ojson.NewArray(a...)
	}
	facts := func(fs []Fact) *ojson.Value {
		if fs == nil {
			return ojson.NewNull()
		}
		return list(len(fs), func(i int) *ojson.Value {
			f, x := fs[i], ojson.NewObject()
			xo := x.Obj()
			str(xo, "claim", f.Claim, false)
			str(xo, "scope", f.Scope, false)
			str(xo, "evidence", f.Evidence, true)
			str(xo, "verified_on", f.VerifiedOn, true)
			str(xo, "source_actor", f.SourceActor, true)
			xo.Set("sealed", ojson.NewBool(f.Sealed))
			return x
		})
	}
	strs := func(ss []string) *ojson.Value {
		if ss == nil {
			return ojson.NewNull()
		}
		return ojson.NewStrings(ss)
	}
	str(o, "passport_id", b.PassportID, false)
	o.Set("state_version", ojson.NewInt(b.StateVersion))
	str(o, "title", b.Title, false)
	str(o, "goal", b.Goal, false)
	str(o, "current_state", b.CurrentState, false)
	o.Set("verified_facts", facts(b.VerifiedFacts))
	o.Set("unverified_facts", facts(b.UnverifiedFacts))
	if b.Decisions == nil {
		o.Set("decisions", ojson.NewNull())
	} else {
		o.Set("decisions", list(len(b.Decisions), func(i int) *ojson.Value {
			d, x := b.Decisions[i], ojson.NewObject()
			str(x.Obj(), "what", d.What, false)
			str(x.Obj(), "why", d.Why, true)
			return x
		}))
	}
	if b.OpenAsks == nil {
		o.Set("open_asks", ojson.NewNull())
	} else {
		o.Set("open_asks", list(len(b.OpenAsks), func(i int) *ojson.Value {
			a, x := b.OpenAsks[i], ojson.NewObject()
			xo := x.Obj()
			str(xo, "id", a.ID, false)
			str(xo, "to", a.To, true)
			str(xo, "what", a.What, false)
			str(xo, "why", a.Why, true)
			str(xo, "accept", a.Accept, false)
			xo.Set("sent", ojson.NewBool(a.Sent))
			return x
		}))
	}
	if b.PendingChecks == nil {
		o.Set("pending_checks", ojson.NewNull())
	} else {
		o.Set("pending_checks", list(len(b.PendingChecks), func(i int) *ojson.Value {
			c, x := b.PendingChecks[i], ojson.NewObject()
			xo := x.Obj()
			str(xo, "id", c.ID, false)
			str(xo, "check", c.Check, false)
			str(xo, "how", c.How, true)
			return x
		}))
	}
	o.Set("next_steps", strs(b.NextSteps))
	o.Set("artifacts", strs(b.Artifacts))
	str(o, "root_id", b.RootID, false)
	str(o, "files_dir", b.FilesDir, true)
	if b.Files != 0 {
		o.Set("files", ojson.NewInt(int64(b.Files)))
	}
	return v
}
