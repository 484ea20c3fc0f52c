package briefing

import "github.com/tp-dev/tp/internal/ojson"

// Value is b as the ordered JSON value encoding/json gives (member order
// and omitempty as the struct tags say). The fact lists, which grow with
// the passport, are built directly; the rest goes through encoding/json,
// so a field added to Briefing needs nothing here. A briefing of a
// 110,000-fact passport is too big to marshal and parse back whole.
func (b *Briefing) Value() *ojson.Value {
	rest := *b
	rest.VerifiedFacts, rest.UnverifiedFacts = nil, nil
	v, err := ojson.FromGo(&rest)
	if err != nil {
		// Only strings, numbers and bools: encoding/json cannot fail here.
		panic("briefing: " + err.Error())
	}
	v.Set("verified_facts", factsValue(b.VerifiedFacts))
	v.Set("unverified_facts", factsValue(b.UnverifiedFacts))
	return v
}

func factsValue(fs []Fact) *ojson.Value {
	if fs == nil {
		return ojson.NewNull()
	}
	// Made one fact at a time as the document is written, never the
	// whole list (issue 20: 35 MB for a passport of 110,000 facts).
	return ojson.NewArrayFunc(len(fs), func(i int) *ojson.Value {
		f := fs[i]
		ms := make([]ojson.Member, 0, 6)
		ms = append(ms, ojson.Member{Key: "claim", Value: ojson.NewString(f.Claim)}, ojson.Member{Key: "scope", Value: ojson.NewString(f.Scope)})
		for _, m := range [...]struct{ k, v string }{{"evidence", f.Evidence}, {"verified_on", f.VerifiedOn}, {"source_actor", f.SourceActor}} {
			if m.v != "" {
				ms = append(ms, ojson.Member{Key: m.k, Value: ojson.NewString(m.v)})
			}
		}
		return ojson.NewObjectOf(append(ms, ojson.Member{Key: "sealed", Value: ojson.NewBool(f.Sealed)})...)
	})
}
