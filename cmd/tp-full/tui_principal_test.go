package main

import (
	"github.com/tp-dev/tp/cmd/cli"
	"strings"
	"testing"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/ui/common"
)

// The inbox writes the records the commands write: settled with authority
// (§8) and same_as for already_done, a note, and nothing for an unknown
// action.
func TestPrincipalRecords(t *testing.T) {
	t.Parallel()
	io := &cli.IO{Env: func(k string) string { return map[string]string{"TP_ACTOR": "me", "TP_MACHINE": "box"}[k] }}
	build := principalRecords(io)
	open := &acts.ActState{Key: "task-demo-1", Project: "demo", Status: acts.StatusOpen, Need: acts.NeedActive,
		TermsRev: 1, Text: "Renew the domain", NeedID: "r:task-demo-1"}
	recs, err := build(open, common.Action{Kind: common.ActSettle, Outcome: "already_done", SameAs: "task-demo-2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Type != acts.TypeSettled || recs[0].Authority == nil || recs[1].Relation != "same_as" {
		t.Fatalf("settle already_done = %+v", recs)
	}
	recs, err = build(open, common.Action{Kind: common.ActNote, Note: "in hand"})
	if err != nil || len(recs) != 1 || recs[0].NoteText() != "in hand" {
		t.Fatalf("note = %+v, %v", recs, err)
	}
	if _, err := build(open, common.Action{Kind: "\x1b[2Jexplode"}); err == nil || strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("unknown action: %v", err)
	}
}
