package ui

import "github.com/tp-dev/tp/ui/common"

// The core behind the screens, declared in ui/common (see deps.go there).
type (
	Progress       = common.Progress
	Deps           = common.Deps
	Lander         = common.Lander
	Judger         = common.Judger
	Stager         = common.Stager
	Plan           = common.Plan
	Origin         = common.Origin
	Lineage        = common.Lineage
	Integrity      = common.Integrity
	Conformance    = common.Conformance
	Warning        = common.Warning
	Check          = common.Check
	Fact           = common.Fact
	Ask            = common.Ask
	PassportText   = common.PassportText
	LuggageFile    = common.LuggageFile
	Decisions      = common.Decisions
	CheckDecision  = common.CheckDecision
	CheckRun       = common.CheckRun
	Landed         = common.Landed
	MergePlan      = common.MergePlan
	Refusal        = common.Refusal
	AskChange      = common.AskChange
	Merged         = common.Merged
	AsksStore      = common.AsksStore
	AskSheet       = common.AskSheet
	AskEdit        = common.AskEdit
	PassportSource = common.PassportSource
	PassportView   = common.PassportView
	ChecksStore    = common.ChecksStore
	CheckSheet     = common.CheckSheet
	Inbox          = common.Inbox
	Act            = common.Act
	Revision       = common.Revision
	Claim          = common.Claim
	Action         = common.Action
	HomeSource     = common.HomeSource
	HomeData       = common.HomeData
	PassportRow    = common.PassportRow
	ProjectRow     = common.ProjectRow
)

// Action kinds.
const (
	ActSettle = common.ActSettle
	ActReopen = common.ActReopen
	ActNote   = common.ActNote
)
