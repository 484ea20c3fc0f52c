package landing

import (
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// The receiver verdict (D23): what a landing leaves open for the person who
// took the pack in. A2A's input-required is needs_input.
const (
	VerdictAccepted   = "accepted"
	VerdictNeedsInput = "needs_input"
)

// Verdict is the receiver verdict (D23): accepted when every required
// landing check is attested passed and no ask is left open; needs_input
// otherwise, naming each unmet check and each open ask. A check skipped or
// failed is unmet: only passed meets a requirement. It is data for the
// sender as much as for the person (tp land --json, the MCP land tool, the
// A2A Task's state).
type Verdict struct {
	Verdict     string      `json:"verdict"`
	UnmetChecks []PlanCheck `json:"unmet_checks"`
	OpenAsks    []PlanAsk   `json:"open_asks"`
}

// Verdict is the receiver verdict of this plan with d decided: for a
// handoff, its required checks not attested passed and its asks left open
// and unanswered by d; for a receipt, the asks it aims back at this side
// (adopted open, §4.4.1.3) — its checks describe the sender's machine and
// are never this side's to meet (§4.4.1.5).
func (pl *Plan) Verdict(d Decisions) Verdict {
	if pl.Merge != nil {
		return verdictOf(nil, pl.Merge.AsksAdopted, Decisions{})
	}
	return verdictOf(pl.Checks, pl.Asks, d)
}

// PackVerdict is the verdict of a pack object as it travels, before anyone
// landed it: every required check unmet unless the pack says it passed,
// every ask open that the pack says is open. tp a2a export states a Task
// from it.
func PackVerdict(obj *ojson.Value) Verdict {
	po := model.PackObject{V: obj}
	var checks []PlanCheck
	for _, c := range po.LandingChecks() {
		s := c.Status()
		if s == "" {
			s = model.CheckPending
		}
		checks = append(checks, PlanCheck{ID: c.ID(), Check: c.Check(), How: c.How(), Required: c.Required(), Status: s})
	}
	var asks []PlanAsk
	for _, a := range po.Asks() {
		asks = append(asks, planAsk(a))
	}
	if po.Kind() == model.KindReceipt {
		// A receipt's checks are the sender's (§4.4.1.5).
		checks = nil
	}
	return verdictOf(checks, asks, Decisions{})
}

func verdictOf(checks []PlanCheck, asks []PlanAsk, d Decisions) Verdict {
	v := Verdict{Verdict: VerdictAccepted, UnmetChecks: []PlanCheck{}, OpenAsks: []PlanAsk{}}
	for _, c := range checks {
		if !c.Required {
			continue
		}
		s := c.Status
		if ds, ok := d.CheckStatus[c.ID]; ok && ds != "" {
			s = ds
		}
		if s != model.CheckPassed {
			c.Status = s
			v.UnmetChecks = append(v.UnmetChecks, c)
		}
	}
	for _, a := range asks {
		if a.Status != model.AskOpen && (a.Status != "" || a.Answer != "") {
			continue
		}
		if _, answered := d.Answers[a.ID]; answered {
			continue
		}
		v.OpenAsks = append(v.OpenAsks, a)
	}
	if len(v.UnmetChecks) > 0 || len(v.OpenAsks) > 0 {
		v.Verdict = VerdictNeedsInput
	}
	return v
}
