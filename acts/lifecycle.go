package acts

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// ConflictError is two records with the same id and different content
// (D8): refused loudly, because one of them is a forgery or a bug and the
// receiver cannot tell which.
type ConflictError struct {
	ID string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("conflicting records: two records share id %q with different content", e.ID)
}

// Lifecycle computes the state of one act from the set of its records
// (spec §2, core §6 as D8 and D16 read them). The result depends on
// the set only, never on the order of records:
//
//   - a record repeated with the same id and content is a duplicate and is
//     discarded; the same id with different content is a *ConflictError;
//   - need records (raised, amended, withdrawn) form one chain through
//     supersedes, settlement records (settled, reopened) another. Each chain
//     starts at its records without supersedes and follows, from the current
//     record, the records that name it; where two records name the same one
//     (a fork), or there are two starts, the later by ts, then id, is current.
//     A chain whose start this receiver never got (every record names
//     another, e.g. a lone reopened whose settled was lost) starts at the
//     records whose supersedes name only records absent from the set: the
//     principal side's latest word is applied, not dropped as stale.
//     Records left off the path are stale: kept in Stale, not applied;
//   - the act is settled when the current settlement record is a settled,
//     open otherwise (reopened makes it open again); a withdrawn need keeps
//     the settlement open (§2): only Need changes;
//   - claims, relations and notes are collected and never change the state.
//
// Every record must carry the same key and project.
func Lifecycle(records []Record) (*ActState, error) {
	if len(records) == 0 {
		return nil, fmt.Errorf("lifecycle: no records")
	}
	set, err := dedupe(records)
	if err != nil {
		return nil, err
	}
	st := &ActState{Key: set[0].Key, Project: set[0].Project, Status: StatusOpen, Need: NeedActive}
	var need, settle []Record
	for _, r := range set {
		if r.Key != st.Key {
			return nil, fmt.Errorf("lifecycle: record %q is for key %q, not %q", r.ID, r.Key, st.Key)
		}
		if r.Project != st.Project {
			return nil, fmt.Errorf("lifecycle: record %q is for project %q, not %q", r.ID, r.Project, st.Project)
		}
		switch r.Type {
		case TypeRaised, TypeAmended, TypeWithdrawn:
			need = append(need, r)
		case TypeSettled, TypeReopened:
			settle = append(settle, r)
		case TypeClaimed:
			st.Claims = append(st.Claims, r)
		case TypeRelated:
			st.Relations = append(st.Relations, r)
		case TypeNote:
			st.Notes = append(st.Notes, r)
		default:
			return nil, fmt.Errorf("lifecycle: record %q has unknown type %q", r.ID, r.Type)
		}
	}

	needPath, needStale := chain(need)
	setPath, setStale := chain(settle)
	st.History = needPath
	st.Settlements = setPath
	st.Stale = append(needStale, setStale...)
	sortRecords(st.Stale)

	for _, r := range needPath {
		if r.Terms != nil {
			st.Text, st.Due, st.TermsRev = r.Terms.Text, r.Terms.Due, r.TermsRev
		}
	}
	if n := len(needPath); n > 0 {
		cur := needPath[n-1]
		st.NeedID = cur.ID
		if cur.Type == TypeWithdrawn {
			st.Need = NeedWithdrawn
		}
	}
	for _, r := range setPath {
		if r.Type == TypeReopened {
			st.Reopens++
		}
	}
	if n := len(setPath); n > 0 {
		cur := setPath[n-1]
		st.SettlementID = cur.ID
		if cur.Type == TypeSettled {
			st.Status, st.Outcome, st.SettledRev = StatusSettled, cur.Outcome, cur.TermsRev
		}
	}
	sortRecords(st.Claims)
	sortRecords(st.Relations)
	sortRecords(st.Notes)
	return st, nil
}

// dedupe discards exact duplicates and refuses conflicting ones; the result
// is sorted by id so everything after it is independent of input order.
func dedupe(records []Record) ([]Record, error) {
	byID := make(map[string]int, len(records))
	out := make([]Record, 0, len(records))
	for _, r := range records {
		if i, ok := byID[r.ID]; ok {
			// Only colliding ids pay for the content comparison.
			if Fingerprint(out[i]) != Fingerprint(r) {
				return nil, &ConflictError{ID: r.ID}
			}
			continue
		}
		byID[r.ID] = len(out)
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// fingerprint is the record's content, independent of how it was spelled
// (nil and empty lists alike, thanks to omitempty).
func Fingerprint(r Record) string {
	b, _ := json.Marshal(r)
	return string(b)
}

// later reports whether a is later than b: by ts, then id (D16). ts is
// compared as an instant (so "10:00:00+01:00" is before "09:30:00Z"); where
// either does not parse, as strings. Either way it is a total order on the
// set, so the result never depends on arrival order.
func later(a, b Record) bool {
	if a.TS != b.TS {
		ta, ea := time.Parse(time.RFC3339Nano, a.TS)
		tb, eb := time.Parse(time.RFC3339Nano, b.TS)
		switch {
		case ea != nil || eb != nil:
			return a.TS > b.TS
		case !ta.Equal(tb):
			return ta.After(tb)
		}
	}
	return a.ID > b.ID
}

func sortRecords(rs []Record) {
	sort.Slice(rs, func(i, j int) bool { return later(rs[j], rs[i]) })
}

// chain walks one supersedes chain and returns its path, oldest first, and
// the records off the path (stale).
func chain(rs []Record) (path, stale []Record) {
	if len(rs) == 0 {
		return nil, nil
	}
	// children[id] are the records that name id in supersedes.
	children := make(map[string][]int, len(rs))
	var roots []int
	for i, r := range rs {
		if len(r.Supersedes) == 0 {
			roots = append(roots, i)
			continue
		}
		for _, s := range r.Supersedes {
			children[s] = append(children[s], i)
		}
	}
	if len(roots) == 0 {
		// The chain's start never arrived: start at the records that name
		// only records the set lacks (a gap in the transport, not a fork).
		// Where the set has a start, such records stay stale (D8).
		have := make(map[string]bool, len(rs))
		for _, r := range rs {
			have[r.ID] = true
		}
		for i, r := range rs {
			dangling := true
			for _, s := range r.Supersedes {
				if have[s] {
					dangling = false
					break
				}
			}
			if dangling {
				roots = append(roots, i)
			}
		}
	}
	onPath := make([]bool, len(rs))
	cur := latest(rs, roots, onPath)
	for cur >= 0 {
		onPath[cur] = true
		path = append(path, rs[cur])
		cur = latest(rs, children[rs[cur].ID], onPath)
	}
	for i, r := range rs {
		if !onPath[i] {
			stale = append(stale, r)
		}
	}
	return path, stale
}

// latest picks the latest candidate not already on the path (a cycle of
// supersedes cannot loop), or -1.
func latest(rs []Record, cands []int, onPath []bool) int {
	best := -1
	for _, c := range cands {
		if onPath[c] {
			continue
		}
		if best < 0 || later(rs[c], rs[best]) {
			best = c
		}
	}
	return best
}

// ProjectKey addresses one act: keys are unique per principal side, but a
// log may hold several projects and nothing stops two from colliding.
type ProjectKey struct {
	Project string
	Key     string
}

// ActError is one act whose lifecycle could not be computed (its records
// conflict, D8).
type ActError struct {
	Project, Key string
	Err          error
}

func (e *ActError) Error() string {
	return fmt.Sprintf("project %q key %q: %v", e.Project, e.Key, e.Err)
}
func (e *ActError) Unwrap() error { return e.Err }

// States computes the lifecycle of every act in records. An act whose
// records conflict is left out and its error returned in errs (one bad act
// never hides the others).
func States(records []Record) (states map[ProjectKey]*ActState, errs []error) {
	// Sort a copy by act and slice it, rather than grouping into a map of
	// growing slices: large logs spend less time allocating.
	sorted := append([]Record(nil), records...)
	sort.Slice(sorted, func(i, j int) bool {
		a, b := &sorted[i], &sorted[j]
		if a.Project != b.Project {
			return a.Project < b.Project
		}
		return a.Key < b.Key
	})
	states = make(map[ProjectKey]*ActState)
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j].Project == sorted[i].Project && sorted[j].Key == sorted[i].Key {
			j++
		}
		k := ProjectKey{Project: sorted[i].Project, Key: sorted[i].Key}
		st, err := Lifecycle(sorted[i:j:j])
		if err != nil {
			errs = append(errs, &ActError{Project: k.Project, Key: k.Key, Err: err})
		} else {
			states[k] = st
		}
		i = j
	}
	return states, errs
}
