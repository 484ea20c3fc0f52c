package landing

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
)

func verdictIDs(v Verdict) (checks, asks []string) {
	checks, asks = []string{}, []string{}
	for _, c := range v.UnmetChecks {
		checks = append(checks, c.ID)
	}
	for _, a := range v.OpenAsks {
		asks = append(asks, a.ID)
	}
	return checks, asks
}

// D23's receiver verdict: a landing is accepted only when every required
// landing check is attested passed and no ask is left open; otherwise it
// needs input and names exactly what is unmet. The reference handoff has
// two required checks (c1, c2) and two open asks (a1, a2).
func TestReceiveVerdict(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	file := packtest.WriteTemp(t, "h.taskpack", packtest.BagOf(t, packtest.RefObject(t)))
	both := map[string]string{"c1": model.CheckPassed, "c2": model.CheckPassed}
	answers := map[string]string{"a1": "close.csv", "a2": "yes, from Mei (HR)"}
	for _, tc := range []struct {
		name              string
		d                 Decisions
		verdict           string
		unmetIDs, openIDs []string
	}{
		{"nothing decided", Decisions{}, VerdictNeedsInput, []string{"c1", "c2"}, []string{"a1", "a2"}},
		{"checks passed, asks open", Decisions{CheckStatus: both}, VerdictNeedsInput, []string{}, []string{"a1", "a2"}},
		{"a skipped check is unmet", Decisions{CheckStatus: map[string]string{"c1": model.CheckPassed, "c2": model.CheckSkipped}, Answers: answers},
			VerdictNeedsInput, []string{"c2"}, []string{}},
		{"a failed check is unmet", Decisions{CheckStatus: map[string]string{"c1": model.CheckFailed, "c2": model.CheckPassed}, Answers: answers},
			VerdictNeedsInput, []string{"c1"}, []string{}},
		{"one ask answered", Decisions{CheckStatus: both, Answers: map[string]string{"a2": "yes"}}, VerdictNeedsInput, []string{}, []string{"a1"}},
		{"all met", Decisions{CheckStatus: both, Answers: answers}, VerdictAccepted, []string{}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Receive(ctx, st, ReceiveRequest{Path: file, DryRun: true, Decisions: tc.d, Env: Env{Machine: "m", Actor: "a"}})
			if err != nil {
				t.Fatal(err)
			}
			v := rep.Verdict
			checks, asks := verdictIDs(v)
			if v.Verdict != tc.verdict || !slices.Equal(checks, tc.unmetIDs) || !slices.Equal(asks, tc.openIDs) {
				t.Errorf("verdict %s unmet %v open %v, want %s %v %v", v.Verdict, checks, asks, tc.verdict, tc.unmetIDs, tc.openIDs)
			}
		})
	}
}

// PackVerdict judges a pack as it travels: a receipt's checks are the
// sender's and never unmet here (§4.4.1.5); an optional check never makes
// a pack need input; an ask answered in the pack is not open.
func TestPackVerdict(t *testing.T) {
	for _, tc := range []struct {
		name              string
		edit              func(o *ojson.Value)
		verdict           string
		unmetIDs, openIDs []string
	}{
		{"reference handoff", func(o *ojson.Value) {}, VerdictNeedsInput, []string{"c1", "c2"}, []string{"a1", "a2"}},
		{"receipt: checks are the sender's", func(o *ojson.Value) {
			o.Set("kind", ojson.NewString(model.KindReceipt))
			o.Set("asks", ojson.NewArray())
		}, VerdictAccepted, []string{}, []string{}},
		{"optional checks, answered asks", func(o *ojson.Value) {
			for _, c := range o.Get("landing_checks").Items() {
				c.Set("required", ojson.NewBool(false))
			}
			for _, a := range o.Get("asks").Items() {
				a.Set("status", ojson.NewString(model.AskAnswered))
				a.Set("answer", ojson.NewString("done"))
			}
		}, VerdictAccepted, []string{}, []string{}},
		{"a check the pack says passed", func(o *ojson.Value) {
			o.Get("landing_checks").Items()[0].Set("status", ojson.NewString(model.CheckPassed))
			o.Set("asks", ojson.NewArray())
		}, VerdictNeedsInput, []string{"c2"}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := PackVerdict(packtest.Mutate(t, tc.edit))
			checks, asks := verdictIDs(v)
			if v.Verdict != tc.verdict || !slices.Equal(checks, tc.unmetIDs) || !slices.Equal(asks, tc.openIDs) {
				t.Errorf("verdict %s unmet %v open %v, want %s %v %v", v.Verdict, checks, asks, tc.verdict, tc.unmetIDs, tc.openIDs)
			}
		})
	}
}
