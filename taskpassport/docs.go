// Package taskpassport shapes tp's results as the JSON documents of the
// reference implementation, task-passport 0.3.0 (its CLI and its MCP tools):
// the same top-level members (passport_id, state, state_version, count,
// passports, ready, provider, …), so scripts and harnesses written for the
// reference read tp's answers unchanged. tp's own members may follow them.
//
// It holds no workflow: the values come from the core (internal/store,
// checkpoint, briefing, pack); the MCP server and the task-passport drop-in
// of cmd/tp both use it.
package taskpassport

import (
	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/judge"
	"github.com/tp-dev/tp/pack"
)

// Provider is what the reference reports as its store's kind.
const Provider = "directory"

// Summary is one passport in a listing (the reference's summary()).
type Summary struct {
	PassportID    string `json:"passport_id"`
	Title         string `json:"title"`
	Goal          string `json:"goal"`
	CurrentState  string `json:"current_state"`
	StateVersion  int64  `json:"state_version"`
	UpdatedAt     string `json:"updated_at"`
	LastHarness   string `json:"last_harness"`
	OpenAsks      int    `json:"open_asks"`
	PendingChecks int    `json:"pending_checks"`
}

// List is the reference's list document.
type List struct {
	Count     int             `json:"count"`
	Passports []Summary       `json:"passports"`
	Skipped   []store.Skipped `json:"skipped"`
}

// ListOf summarises a store listing. Unreadable files were skipped by the
// store (a stray .json does not blind the listing) and are reported.
func ListOf(entries []store.Entry, skipped []store.Skipped) List {
	l := List{Count: len(entries), Passports: []Summary{}, Skipped: skipped}
	if l.Skipped == nil {
		l.Skipped = []store.Skipped{}
	}
	for _, e := range entries {
		title := e.Title
		if title == "" {
			title = e.ID
		}
		l.Passports = append(l.Passports, Summary{
			PassportID: e.ID, Title: title, Goal: e.V.Get("goal").Text(),
			CurrentState: e.V.Get("current_state").Text(), StateVersion: e.Version,
			UpdatedAt: e.UpdatedAt, LastHarness: e.V.Get("harness").Text(),
			OpenAsks: e.OpenAsks, PendingChecks: e.PendingChecks,
		})
	}
	return l
}

// Opened is the reference's open document plus tp's briefing.
type Opened struct {
	PassportID      string             `json:"passport_id"`
	StateVersion    int64              `json:"state_version"`
	State           *ojson.Value       `json:"state"`
	CompiledContext string             `json:"compiled_context"`
	HandoffPrompt   string             `json:"handoff_prompt"`
	DataNotice      string             `json:"data_notice"`
	Briefing        *briefing.Briefing `json:"briefing"`
}

// OpenedOf is the open document of a stored passport.
func OpenedOf(st *store.Stored) Opened {
	b := briefing.Of(st.V, st.Version)
	prompt, _ := briefing.Prompt(b.PassportID, "en")
	return Opened{PassportID: b.PassportID, StateVersion: st.Version, State: st.V,
		CompiledContext: b.Markdown(0), HandoffPrompt: prompt, DataNotice: briefing.DataNotice, Briefing: b}
}

// Saved is the reference's document after a save (new, checkpoint).
type Saved struct {
	PassportID    string       `json:"passport_id"`
	StateVersion  int64        `json:"state_version"`
	State         *ojson.Value `json:"state"`
	HandoffPrompt string       `json:"handoff_prompt"`
	Warnings      []string     `json:"warnings,omitempty"`
}

// SavedOf is the document of a saved state.
func SavedOf(v *ojson.Value, warnings []string) Saved {
	id := v.Get("id").Text()
	ver, _ := v.Get("version").Int()
	prompt, _ := briefing.Prompt(id, "en")
	return Saved{PassportID: id, StateVersion: ver, State: v, HandoffPrompt: prompt, Warnings: warnings}
}

// Check is one conformance check as the reference reports it.
type Check struct {
	ID          string `json:"id"`
	Requirement string `json:"requirement"`
	OK          bool   `json:"ok"`
	Detail      string `json:"detail"`
}

// Conformance is the reference's conformance report plus tp's members.
type Conformance struct {
	OK         bool          `json:"ok"`
	Spec       string        `json:"spec"`
	Passed     int           `json:"passed"`
	Total      int           `json:"total"`
	Checks     []Check       `json:"checks"`
	File       string        `json:"file"`
	Encoding   pack.Encoding `json:"encoding,omitempty"`
	Conformant bool          `json:"conformant"`
}

// ConformanceOf reshapes tp's report (C0–C10).
func ConformanceOf(r *judge.Report) Conformance {
	c := Conformance{OK: r.Conformant, Spec: "taskpack/0.1", Passed: r.Passed, Total: r.Total,
		Checks: []Check{}, File: r.File, Encoding: r.Encoding, Conformant: r.Conformant}
	for _, k := range r.Checks {
		c.Checks = append(c.Checks, Check{ID: k.ID, Requirement: k.Requirement, OK: k.Pass, Detail: k.Reason})
	}
	return c
}

// Doctor is the reference's doctor document.
type Doctor struct {
	Ready         bool   `json:"ready"`
	Provider      string `json:"provider"`
	PassportCount int    `json:"passport_count"`
	Store         string `json:"store"`
	Error         string `json:"error,omitempty"`
}
