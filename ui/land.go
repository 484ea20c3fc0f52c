package ui

import "github.com/tp-dev/tp/ui/landing"

// The landing walkthrough and the receipt screen live in ui/landing; these
// names keep them where cmd/tp and the home screen open them.
type (
	// Landing is the landing walkthrough (`tp land FILE`).
	Landing = landing.Landing
	// Receipt previews and merges a receipt.
	Receipt = landing.Receipt
	// PlanMsg is sent by the landing screen when the core has built the plan.
	PlanMsg = landing.PlanMsg
)

// Landing phases.
const (
	PhaseLoading   = landing.PhaseLoading
	PhaseWalk      = landing.PhaseWalk
	PhaseLanding   = landing.PhaseLanding
	PhaseDone      = landing.PhaseDone
	PhaseFailed    = landing.PhaseFailed
	PhaseCancelled = landing.PhaseCancelled
)

// NewLanding returns the walkthrough for file.
func NewLanding(c *Common, file string) *Landing { return landing.New(c, file) }

// NewLandingWithPlan starts the walkthrough on an already built plan.
func NewLandingWithPlan(c *Common, plan *Plan) *Landing { return landing.NewWithPlan(c, plan) }

// NewReceipt returns the receipt screen for a plan of kind receipt.
func NewReceipt(c *Common, plan *Plan) *Receipt { return landing.NewReceipt(c, plan) }
