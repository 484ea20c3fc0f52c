// Package home is what `tp` with no command is about: the passports in the
// store (with their open asks and pending landing checks), the principal's
// open acts by project, and the packs waiting in a folder — gathered once,
// headless, for the plain and JSON output and for the terminal UI's home
// screen alike.
//
// Every string in a Summary is data as read (titles, project names, file
// names): a renderer sanitises it before a terminal (D11).
package home

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/incoming"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
)

// Sources are where a summary looks; any of them may be zero.
type Sources struct {
	Store *store.Store   // the passport store (D15)
	Acts  *recordlog.Log // the acts record log (D9)
	Dir   string         // the folder whose packs are listed (the current one)
}

// Summary is the home view. The JSON tags are `tp --json`'s shape.
type Summary struct {
	Store         string     `json:"store"`
	Passports     []Passport `json:"passports"`
	OpenAsks      int        `json:"open_asks"`      // over every passport
	PendingChecks int        `json:"pending_checks"` // over every passport
	FailedChecks  int        `json:"failed_checks"`  // over every passport
	ActsDir       string     `json:"acts_dir"`
	Projects      []Project  `json:"projects"` // projects with at least one open act
	OpenActs      int        `json:"open_acts"`
	Dir           string     `json:"dir"`
	Packs         []string   `json:"packs"` // file names in Dir, sorted
	// PackStates say, for each of Packs in order, what it is to this
	// store (issue 17): "to land", a receipt "merged" into a passport, a
	// handoff "landed" as one, or a pack "sent by you" from one. Only a
	// pack to land is offered for landing.
	PackStates []landing.PackState `json:"pack_states"`
	// Incoming are the packs that arrived over A2A (tp a2a serve, D23),
	// newest first: kept in the store's incoming folder, never landed on
	// arrival.
	Incoming []Incoming `json:"incoming"`
	// Problems are what was skipped while gathering, one line each: store
	// files that are not passports, record-log files that are not records,
	// an acts log or a folder that could not be read.
	Problems []string `json:"problems"`
}

// Passport is one stored passport, most recently updated first.
type Passport struct {
	ID            string   `json:"id"`
	Title         string   `json:"title"`
	Version       int64    `json:"version"`
	UpdatedAt     string   `json:"updated_at"`
	RootID        string   `json:"root_id"`
	Chain         []string `json:"chain"` // lineage.chain (§3): the hops before this one
	OpenAsks      int      `json:"open_asks"`
	PendingChecks int      `json:"pending_checks"`
	FailedChecks  int      `json:"failed_checks"`
	// Flagged counts the sentences its packs held that read like
	// instructions, kept with it (landed_from's and each merged
	// receipt's findings, D25).
	Flagged int `json:"flagged"`
}

// Incoming is one pack that arrived over A2A (D23).
type Incoming struct {
	TaskID     string `json:"task_id"`
	Kind       string `json:"kind"`
	Title      string `json:"title"`
	Path       string `json:"path"` // the pack file: tp land lands it as any file
	ReceivedAt string `json:"received_at"`
	// State is waiting (not landed yet), landed (LandedAs names the
	// passport), answered (the receipt is kept for the sender) or withdrawn
	// (the sender cancelled: kept, shown, never deleted).
	State    string `json:"state"`
	LandedAs string `json:"landed_as,omitempty"`
}

// Project is one project's open acts (open, or with the need withdrawn and
// still waiting for a settlement: Acts 0.3 §2).
type Project struct {
	Project string `json:"project"`
	Open    int    `json:"open"`
}

// PackExts are the file names listed as packs: both encodings (§2) and
// the reference's older .tpx.
var PackExts = []string{".taskpack", ".taskpack.json", ".tpx"}

// IsPackName reports whether a file name is one a pack is written as.
func IsPackName(name string) bool {
	for _, e := range PackExts {
		if strings.HasSuffix(name, e) && len(name) > len(e) {
			return true
		}
	}
	return false
}

// Summarize gathers the summary. Only a store that cannot be listed is an
// error: whatever else cannot be read becomes a line in Problems, so the
// home view still shows the rest.
func Summarize(ctx context.Context, src Sources) (*Summary, error) {
	s := &Summary{Passports: []Passport{}, Projects: []Project{}, Packs: []string{}, PackStates: []landing.PackState{}, Incoming: []Incoming{}, Problems: []string{}, Dir: src.Dir}
	var entries []store.Entry
	if src.Store != nil {
		s.Store = src.Store.Dir()
		var skipped []store.Skipped
		var err error
		entries, skipped, err = src.Store.List()
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			chain := model.LineageOf(e.V.Get("lineage")).Chain
			if chain == nil {
				chain = []string{}
			}
			s.Passports = append(s.Passports, Passport{ID: e.ID, Title: e.Title, Version: e.Version, UpdatedAt: e.UpdatedAt,
				RootID: e.RootID, Chain: chain, OpenAsks: e.OpenAsks, PendingChecks: e.PendingChecks, FailedChecks: e.FailedChecks,
				Flagged: landing.FlaggedCount(e.V)})
			s.OpenAsks += e.OpenAsks
			s.PendingChecks += e.PendingChecks
			s.FailedChecks += e.FailedChecks
		}
		for _, sk := range skipped {
			s.Problems = append(s.Problems, "store: skipped "+sk.File+": "+sk.Reason)
		}
		landed := map[string]string{} // pack digest → passport
		for _, e := range entries {
			if d := e.V.Get("landed_from").Get("sha256").Text(); d != "" {
				landed[d] = e.ID
			}
		}
		in, bad, err := incoming.List(src.Store.Dir())
		if err != nil {
			s.Problems = append(s.Problems, "incoming: "+err.Error())
		}
		for _, b := range bad {
			s.Problems = append(s.Problems, "incoming: skipped "+b)
		}
		for _, e := range in {
			it := Incoming{TaskID: e.TaskID, Kind: e.Kind, Title: e.Title, Path: e.Path(), ReceivedAt: e.ReceivedAt, State: "waiting", LandedAs: landed[e.SHA256]}
			switch {
			case e.WithdrawnAt != "":
				it.State = "withdrawn"
			case e.Receipt != "":
				it.State = "answered"
			case it.LandedAs != "":
				it.State = "landed"
			}
			s.Incoming = append(s.Incoming, it)
		}
	}
	if src.Acts != nil {
		s.ActsDir = src.Acts.Dir
		s.Problems = append(s.Problems, openActs(ctx, src.Acts, s)...)
	}
	if src.Dir != "" {
		des, err := os.ReadDir(src.Dir)
		if err != nil {
			s.Problems = append(s.Problems, "packs here: "+err.Error())
		}
		for _, de := range des {
			if de.Type().IsRegular() && IsPackName(de.Name()) {
				s.Packs = append(s.Packs, de.Name())
			}
		}
		sort.Strings(s.Packs)
		paths := make([]string, len(s.Packs))
		for i, n := range s.Packs {
			paths[i] = filepath.Join(src.Dir, n)
		}
		s.PackStates = append(s.PackStates, landing.PackStates(src.Store, entries, paths)...)
	}
	return s, nil
}

// openActs counts every project's open acts into s and returns what could
// not be read.
func openActs(ctx context.Context, l *recordlog.Log, s *Summary) []string {
	var probs []string
	projects, lp, err := l.Projects()
	if err != nil {
		return []string{"acts: " + err.Error()}
	}
	for _, p := range lp {
		probs = append(probs, "acts: "+p.String())
	}
	for _, p := range projects {
		if ctx.Err() != nil {
			return append(probs, "acts: "+ctx.Err().Error())
		}
		ld, err := l.Load(p)
		if err != nil {
			probs = append(probs, "acts: "+p+": "+err.Error())
			continue
		}
		for _, lp := range ld.Problems {
			probs = append(probs, "acts: "+lp.String())
		}
		states, errs := acts.States(ld.Records)
		for _, e := range errs {
			probs = append(probs, "acts: "+p+": "+e.Error())
		}
		open := 0
		for _, st := range states {
			if st.Status != acts.StatusSettled {
				open++
			}
		}
		if open > 0 {
			s.Projects = append(s.Projects, Project{Project: p, Open: open})
			s.OpenActs += open
		}
	}
	sort.Slice(s.Projects, func(i, j int) bool { return s.Projects[i].Project < s.Projects[j].Project })
	return probs
}
