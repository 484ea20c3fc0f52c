package store

import (
	"github.com/tp-dev/tp/internal/ojson"
)

// GeneratedSteps is the member of landed_from listing the next steps a
// landing wrote for its receiver (TaskPack §4.4: required landing checks,
// re-verification of sealed facts, asks to answer), exactly as written. They
// belong to that hop: a pack made onward leaves them out (landing.Build), and
// attesting a check or answering an ask here takes its step off the list.
const GeneratedSteps = "generated_next_steps"

// CheckStepText is the next step a landing writes for a required landing
// check that is not yet attested passed or skipped.
func CheckStepText(id, check string) string {
	return "Required landing check " + id + ": " + check
}

// AskStepText is the next step a landing writes for an open ask.
func AskStepText(id, what, accept string) string {
	t := "Answer ask " + id + ": " + what
	if accept != "" {
		t += " (answered when: " + accept + ")"
	}
	return t
}

// doneStep removes step from v's next_steps when a landing generated it
// (it is listed in landed_from.generated_next_steps): the check it asked
// for was attested, or the ask answered or dropped. A step the person wrote
// or edited is theirs and stays.
func doneStep(v *ojson.Value, step string) {
	generated := false
	for _, g := range v.Get("landed_from").Get(GeneratedSteps).Items() {
		if s, ok := g.Str(); ok && s == step {
			generated = true
			break
		}
	}
	steps := v.Get("next_steps")
	if !generated || steps.Kind() != ojson.Array {
		return
	}
	items := steps.Items()
	for i, s := range items {
		if t, ok := s.Str(); ok && t == step {
			keep := append(append([]*ojson.Value{}, items[:i]...), items[i+1:]...)
			v.Set("next_steps", ojson.NewArray(keep...))
			return
		}
	}
}
