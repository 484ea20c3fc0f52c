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
	"path/filepath"

	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/judge"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
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
	// Flagged counts the sentences its packs held that read like
	// instructions (D25): task_passport_open quotes each, with who sent it.
	Flagged int `json:"flagged"`
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
			OpenAsks: e.OpenAsks, PendingChecks: e.PendingChecks, Flagged: landing.FlaggedCount(e.V),
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
	b := briefing.OfStored(st)
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
	// Warning says when another store is named here too (TP_STORE and
	// TASK_PASSPORT_STORE apart): one task must have exactly one
	// authoritative store, as the reference warns.
	Warning    string `json:"warning,omitempty"`
	OtherStore string `json:"other_store,omitempty"`
	Skipped    int    `json:"skipped"` // files in the store that are not readable passports
}

// Packed is the reference's pack document (its CLI's), then tp's members:
// the pack's kind and the asks recorded at home (TaskPack 0.1 §4.3).
type Packed struct {
	OK            bool     `json:"ok"`
	Pack          string   `json:"pack"`
	Encoding      string   `json:"encoding"` // bagit-zip or flat
	PassportID    string   `json:"passport_id"`
	StateVersion  int64    `json:"state_version"`
	Entries       []string `json:"entries"`
	Asks          int      `json:"asks"`
	LandingChecks int      `json:"landing_checks"`
	Luggage       []string `json:"luggage"` // the base name of each file given
	Kind          string   `json:"kind"`
	HomeVersion   int64    `json:"home_version"`
	AsksRecorded  []string `json:"asks_recorded"`
}

// EncodingName is an encoding as the reference names it: bagit-zip or flat.
func EncodingName(enc pack.Encoding) string {
	if enc == pack.EncodingFlat {
		return "flat"
	}
	return "bagit-zip"
}

// PackedOf is the document of a pack written to out from the files given.
func PackedOf(rep *landing.PackReport, out string, files []string) Packed {
	po := model.PackObject{V: rep.Built.Source.Object}
	d := Packed{OK: true, Pack: out, Encoding: EncodingName(rep.Encoding), PassportID: rep.PassportID, StateVersion: rep.Version,
		Entries: pack.BagEntries(rep.Built.Source), Asks: len(po.Asks()), LandingChecks: len(po.LandingChecks()),
		Luggage: []string{}, Kind: po.Kind(), HomeVersion: rep.HomeVersion, AsksRecorded: append([]string{}, rep.Recorded...)}
	for _, f := range files {
		d.Luggage = append(d.Luggage, filepath.Base(f))
	}
	return d
}

// LandedDry is the reference's document for land --dry-run.
type LandedDry struct {
	OK         bool         `json:"ok"`
	DryRun     bool         `json:"dry_run"`
	From       *ojson.Value `json:"from"`
	Lineage    *ojson.Value `json:"lineage"`
	Title      string       `json:"title"`
	Luggage    []string     `json:"luggage"`
	Kind       string       `json:"kind"`
	DataNotice string       `json:"data_notice"`
}

// Landed is the reference's document after a landing, then tp's members:
// the pack's kind and, for a receipt, that it merged into the passport that
// asked (passport_id) instead of making a new one.
type Landed struct {
	OK                    bool         `json:"ok"`
	PassportID            string       `json:"passport_id"`
	Lineage               *ojson.Value `json:"lineage"`
	From                  *ojson.Value `json:"from"`
	Luggage               []string     `json:"luggage"` // where each luggage file was written
	NeedsReverify         int          `json:"needs_reverify"`
	LandingChecksRequired int          `json:"landing_checks_required"`
	OpenAsks              int          `json:"open_asks"`
	HandoffPrompt         string       `json:"handoff_prompt"`
	Kind                  string       `json:"kind"`
	Merged                bool         `json:"merged"`
	DataNotice            string       `json:"data_notice"`
}

// LandedOf is the document of a landing or a dry run. saved is the passport
// as landed or merged (nil for a dry run): needs_reverify, the required
// landing checks and the open asks are counted in it, as the reference
// counts them in the state it saved.
func LandedOf(rep *landing.ReceiveReport, saved *store.Stored) any {
	obj := rep.Object
	if saved == nil {
		d := LandedDry{OK: true, DryRun: true, From: orNull(obj.Get("origin")), Lineage: orNull(obj.Get("lineage")),
			Title: obj.Get("passport").Get("title").Text(), Luggage: []string{}, Kind: rep.Plan.Kind, DataNotice: briefing.DataNotice}
		for _, l := range rep.Plan.Luggage {
			d.Luggage = append(d.Luggage, l.Name)
		}
		return d
	}
	d := Landed{OK: true, PassportID: saved.Passport().ID(), Lineage: orNull(obj.Get("lineage")), From: orNull(obj.Get("origin")),
		Luggage: []string{}, Kind: rep.Plan.Kind, DataNotice: briefing.DataNotice}
	switch {
	case rep.Landed != nil:
		d.Luggage = append(d.Luggage, rep.Landed.Files...)
	case rep.Merged != nil:
		d.Merged = true
		d.Luggage = append(d.Luggage, rep.Merged.Files...)
	}
	for _, f := range saved.V.Get("facts").Items() {
		if b, _ := f.Get("needs_reverify").Bool(); b {
			d.NeedsReverify++
		}
	}
	for _, c := range saved.V.Get("landing_checks").Items() {
		if b, _ := c.Get("required").Bool(); b {
			d.LandingChecksRequired++
		}
	}
	for _, a := range saved.V.Get("asks").Items() {
		if (model.Ask{V: a}).Status() == model.AskOpen {
			d.OpenAsks++
		}
	}
	d.HandoffPrompt, _ = briefing.Prompt(d.PassportID, "en")
	return d
}

// orNull keeps a member the pack did not carry as JSON null.
func orNull(v *ojson.Value) *ojson.Value {
	if v == nil {
		return ojson.NewNull()
	}
	return v
}
