package store

import (
	"fmt"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// The functions below change a stored passport's asks (§4.3) and landing
// checks (§4.4) in place. They do no I/O: commands and the UI call them
// inside Store.Update.

// Asks returns the passport's asks (the objects in its "asks" list).
func Asks(v *ojson.Value) []model.Ask {
	var out []model.Ask
	for _, a := range v.Get("asks").Items() {
		if a.Kind() == ojson.Object {
			out = append(out, model.Ask{V: a})
		}
	}
	return out
}

// Checks returns the passport's landing checks.
func Checks(v *ojson.Value) []model.LandingCheck {
	var out []model.LandingCheck
	for _, c := range v.Get("landing_checks").Items() {
		if c.Kind() == ojson.Object {
			out = append(out, model.LandingCheck{V: c})
		}
	}
	return out
}

// AskStatus is the ask's status as the reference reads it: "answered" and
// "dropped" stand, anything else is "open".
func AskStatus(a model.Ask) string {
	switch s := a.Status(); s {
	case model.AskAnswered, model.AskDropped:
		return s
	}
	return model.AskOpen
}

// CheckStatuses are the statuses a landing check can carry, in order.
var CheckStatuses = []string{model.CheckPending, model.CheckPassed, model.CheckFailed, model.CheckSkipped}

// CheckStatus is the check's status; a check without one (the reference
// lands checks without a status) or with an unknown one is pending.
func CheckStatus(c model.LandingCheck) string {
	s := c.Status()
	for _, ok := range CheckStatuses {
		if s == ok {
			return s
		}
	}
	return model.CheckPending
}

// ParseCheckStatus accepts exactly one of CheckStatuses.
func ParseCheckStatus(s string) (string, error) {
	for _, ok := range CheckStatuses {
		if s == ok {
			return s, nil
		}
	}
	return "", fmt.Errorf("check status %q is not one of %s", s, strings.Join(CheckStatuses, ", "))
}

func findAsk(v *ojson.Value, id string) (model.Ask, error) {
	var ids []string
	for _, a := range Asks(v) {
		if a.ID() == id {
			return a, nil
		}
		ids = append(ids, a.ID())
	}
	return model.Ask{}, fmt.Errorf("passport %s has no ask %q (%s)", v.Get("id").Text(), id, known("asks", ids))
}

// FindCheck is landing check id of passport state v, or an error naming
// the checks it has.
func FindCheck(v *ojson.Value, id string) (model.LandingCheck, error) {
	var ids []string
	for _, c := range Checks(v) {
		if c.ID() == id {
			return c, nil
		}
		ids = append(ids, c.ID())
	}
	return model.LandingCheck{}, fmt.Errorf("passport %s has no landing check %q (%s)", v.Get("id").Text(), id, known("checks", ids))
}

func known(what string, ids []string) string {
	if len(ids) == 0 {
		return "it has no " + what
	}
	return what + ": " + strings.Join(ids, ", ")
}

// AnswerAsk records an answer to ask id: answer, status "answered",
// answered_by (by = "<actor>@<machine>") and answered_at. Answering again
// replaces the answer.
func AnswerAsk(v *ojson.Value, id, answer, by string, at time.Time) error {
	if strings.TrimSpace(answer) == "" {
		return fmt.Errorf("the answer to ask %q is empty", id)
	}
	a, err := findAsk(v, id)
	if err != nil {
		return err
	}
	a.V.Set("status", ojson.NewString(model.AskAnswered))
	a.V.Set("answer", ojson.NewString(answer))
	a.V.Set("answered_by", ojson.NewString(by))
	a.V.Set("answered_at", ojson.NewString(Timestamp(at)))
	doneStep(v, AskStepText(id, a.What(), a.Accept()))
	return nil
}

// DropAsk marks ask id "dropped": no longer needed, kept on record.
func DropAsk(v *ojson.Value, id string) error {
	a, err := findAsk(v, id)
	if err != nil {
		return err
	}
	a.V.Set("status", ojson.NewString(model.AskDropped))
	doneStep(v, AskStepText(id, a.What(), a.Accept()))
	return nil
}

// SetCheck records what the person attests about landing check id: status
// (one of CheckStatuses), checked_by and checked_at. Setting it back to
// pending removes the attestation.
func SetCheck(v *ojson.Value, id, status, by string, at time.Time) error {
	status, err := ParseCheckStatus(status)
	if err != nil {
		return err
	}
	c, err := FindCheck(v, id)
	if err != nil {
		return err
	}
	c.V.Set("status", ojson.NewString(status))
	if status == model.CheckPending {
		c.V.Obj().Delete("checked_at")
		c.V.Obj().Delete("checked_by")
		return nil
	}
	c.V.Set("checked_at", ojson.NewString(Timestamp(at)))
	c.V.Set("checked_by", ojson.NewString(by))
	if status == model.CheckPassed || status == model.CheckSkipped {
		doneStep(v, CheckStepText(id, c.Check()))
	}
	return nil
}

// CheckRunRecord is what the person ran for a landing check after confirming
// it (D12). It is recorded beside the status they attest, never instead of it:
// an exit status of 0 does not make a check pass.
type CheckRunRecord struct {
	Command string
	Edited  bool
	Exit    int
	By      string
	At      time.Time
}

// RecordCheckRun stores run as the check's "run" member.
func RecordCheckRun(v *ojson.Value, id string, run CheckRunRecord) error {
	c, err := FindCheck(v, id)
	if err != nil {
		return err
	}
	r := ojson.NewObject()
	r.Set("command", ojson.NewString(run.Command))
	r.Set("edited", ojson.NewBool(run.Edited))
	r.Set("exit_code", ojson.NewInt(int64(run.Exit)))
	r.Set("ran_by", ojson.NewString(run.By))
	r.Set("ran_at", ojson.NewString(Timestamp(run.At)))
	c.V.Set("run", r)
	return nil
}
