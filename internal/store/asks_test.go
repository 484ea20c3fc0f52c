package store

import (
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
)

const withAsks = `{"id":"TP-ASKS-0000","asks":[
 {"id":"a1","to":"peer","what":"w1","why":"y1","accept":"ok1","status":"open","answer":null,"x-future":1},
 {"id":"a2","to":"peer","what":"w2","why":"y2","accept":"ok2","status":"open","answer":null},
 "not an ask"],
 "landing_checks":[{"id":"c1","check":"k1","how":"make test","required":true},
 {"id":"c2","check":"k2","how":"","required":false,"status":"passed","checked_at":"x","checked_by":"y"}]}`

var at = time.Date(2026, 8, 16, 13, 10, 20, 123, time.UTC)

func TestAnswerAsk(t *testing.T) {
	t.Parallel()
	v := parse(t, withAsks)
	if err := AnswerAsk(v, "a1", "yes, 42", "ann@box", at); err != nil {
		t.Fatal(err)
	}
	want := `{"id":"a1","to":"peer","what":"w1","why":"y1","accept":"ok1","status":"answered","answer":"yes, 42","x-future":1,"answered_by":"ann@box","answered_at":"2026-08-16T13:10:20Z"}`
	if got := string(ojson.Compact(v.Get("asks").Items()[0])); got != want {
		t.Errorf("answered ask\n%s\nwant\n%s", got, want)
	}
	if got := AskStatus(Asks(v)[1]); got != "open" {
		t.Errorf("a2 = %s, want untouched", got)
	}
	err := AnswerAsk(v, "a9", "x", "ann@box", at)
	if err == nil || !strings.Contains(err.Error(), `"a9"`) || !strings.Contains(err.Error(), "a1, a2") || !strings.Contains(err.Error(), "TP-ASKS-0000") {
		t.Errorf("unknown ask: %v", err)
	}
	if err := AnswerAsk(v, "a2", "  ", "ann@box", at); err == nil {
		t.Error("an empty answer was recorded")
	}
	if err := AnswerAsk(parse(t, `{"id":"X"}`), "a1", "x", "b", at); err == nil || !strings.Contains(err.Error(), "no asks") {
		t.Errorf("passport without asks: %v", err)
	}
}

func TestDropAsk(t *testing.T) {
	t.Parallel()
	v := parse(t, withAsks)
	if err := DropAsk(v, "a2"); err != nil {
		t.Fatal(err)
	}
	if got := AskStatus(Asks(v)[1]); got != "dropped" {
		t.Errorf("status %s", got)
	}
	if err := DropAsk(v, "nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown ask: %v", err)
	}
}

func TestAskStatus(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{`{}`: "open", `{"status":"answered"}`: "answered",
		`{"status":"dropped"}`: "dropped", `{"status":"weird"}`: "open", `{"status":"open"}`: "open"} {
		if got := AskStatus(Asks(parse(t, `{"asks":[`+in+`]}`))[0]); got != want {
			t.Errorf("AskStatus(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestSetCheck(t *testing.T) {
	t.Parallel()
	v := parse(t, withAsks)
	if got := CheckStatus(Checks(v)[0]); got != "pending" {
		t.Errorf("a check without status is %s, want pending", got)
	}
	for _, st := range []string{"passed", "failed", "skipped"} {
		if err := SetCheck(v, "c1", st, "ann@box", at); err != nil {
			t.Fatal(err)
		}
		c := Checks(v)[0]
		if CheckStatus(c) != st || c.V.Get("checked_by").Text() != "ann@box" || c.V.Get("checked_at").Text() != "2026-08-16T13:10:20Z" {
			t.Errorf("after %s: %s", st, ojson.Compact(c.V))
		}
	}
	if err := SetCheck(v, "c2", "pending", "ann@box", at); err != nil {
		t.Fatal(err)
	}
	if got := string(ojson.Compact(Checks(v)[1].V)); got != `{"id":"c2","check":"k2","how":"","required":false,"status":"pending"}` {
		t.Errorf("back to pending: %s", got)
	}
	for _, bad := range []string{"done", "PASSED", "", "ok"} {
		err := SetCheck(v, "c1", bad, "ann@box", at)
		if err == nil || !strings.Contains(err.Error(), "pending, passed, failed, skipped") {
			t.Errorf("status %q: %v", bad, err)
		}
	}
	if err := SetCheck(v, "c7", "passed", "a", at); err == nil || !strings.Contains(err.Error(), `"c7"`) || !strings.Contains(err.Error(), "c1, c2") {
		t.Errorf("unknown check: %v", err)
	}
}

// Attesting a check passed or skipped, answering or dropping an ask takes
// the step a landing generated for it off next_steps; a step the person
// wrote (or a generated one they edited) stays, and failed leaves the check's.
func TestDoneStepsLeaveNextSteps(t *testing.T) {
	t.Parallel()
	v := parse(t, withAsks)
	gen := []string{CheckStepText("c1", "k1"), AskStepText("a1", "w1", "ok1"), AskStepText("a2", "w2", "ok2")}
	steps := append(append([]string{}, gen...), "Answer ask a2: w2 — my own note", "ship it")
	v.Set("next_steps", ojson.NewStrings(steps))
	lf := ojson.NewObject()
	lf.Set(GeneratedSteps, ojson.NewStrings(gen))
	v.Set("landed_from", lf)
	stepsNow := func() string { return string(ojson.Compact(v.Get("next_steps"))) }

	if err := SetCheck(v, "c1", "failed", "ann@box", at); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stepsNow(), "Required landing check c1: k1") {
		t.Errorf("a failed check's step left: %s", stepsNow())
	}
	if err := SetCheck(v, "c1", "passed", "ann@box", at); err != nil {
		t.Fatal(err)
	}
	if err := AnswerAsk(v, "a1", "42", "ann@box", at); err != nil {
		t.Fatal(err)
	}
	if err := DropAsk(v, "a2"); err != nil {
		t.Fatal(err)
	}
	if got, want := stepsNow(), `["Answer ask a2: w2 — my own note","ship it"]`; got != want {
		t.Errorf("next_steps = %s, want %s", got, want)
	}

	// Not landed (no generated list): next_steps are the person's, untouched.
	w := parse(t, withAsks)
	w.Set("next_steps", ojson.NewStrings(gen))
	if err := SetCheck(w, "c1", "passed", "ann@box", at); err != nil {
		t.Fatal(err)
	}
	if got := len(w.Get("next_steps").Items()); got != 3 {
		t.Errorf("a step nobody generated was removed: %s", ojson.Compact(w.Get("next_steps")))
	}
}
