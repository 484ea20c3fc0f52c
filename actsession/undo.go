package actsession

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sanitize"
)

// The undo window (issue 17): right after the principal settles, the
// settlement can be taken back. While no other machine and no registrar can
// have seen it — not in the upstream's tree, not acknowledged — its records
// are removed (a commit that removes them, if they were committed: history
// is never rewritten). Once it may have been seen, taking it back is a
// signed reopened record, as a reopen is; the record stays, so the
// tamper-evident log (D19: an applied principal-side record that disappears
// is a finding) never loses it.

// Undo outcomes.
const (
	UndoDiscarded = "discarded" // removed: nobody can have seen it
	UndoReopened  = "reopened"  // seen, or it cannot be shown unseen: a signed reopened was written
)

// Seen says whether a principal-side record may have been seen elsewhere,
// and why. Only a record in a git acts dir can be shown unseen: one that
// is neither in the upstream's tree nor acknowledged by a registrar. A
// plain folder may be a synced one (D9), so its records count as seen.
func (s *Session) Seen(ctx context.Context, project, id string) (bool, string, error) {
	l := s.Log
	if _, err := os.Lstat(filepath.Join(l.AckedDir(project), recordlog.EncodeName(id))); err == nil {
		return true, "a registrar applied it (acknowledged)", nil
	}
	r, err := OpenRepo(ctx, l.Dir)
	if err != nil {
		return true, "", err
	}
	if r == nil {
		return true, "the acts dir is not a git working tree with an upstream, so tp cannot tell whether another machine saw it (a synced folder, D9)", nil
	}
	rel, err := filepath.Rel(r.Dir, l.RecordPath(project, id))
	if err != nil {
		return true, "", err
	}
	in, err := r.inUpstream(ctx, filepath.ToSlash(rel))
	if err != nil {
		return true, "", err
	}
	if in {
		return true, "it was pushed to " + r.Upstream, nil
	}
	return false, "not pushed to " + r.Upstream + " and not applied by a registrar", nil
}

// UndoReport says what Undo did.
type UndoReport struct {
	Outcome string         `json:"outcome"` // UndoDiscarded or UndoReopened
	Why     string         `json:"why"`
	IDs     []string       `json:"ids"` // the records removed, or the reopened record written
	State   *acts.ActState `json:"-"`
}

// Undo takes back the settlement ids of project's act key, which this
// machine wrote: removed when nobody can have seen any of them (Seen),
// otherwise reopen builds the signed reopened record that is written
// instead. Only the act's current settlement can be taken back.
func (s *Session) Undo(ctx context.Context, project, key string, ids []string, reopen func(*acts.ActState) (PrincipalWrite, error)) (*UndoReport, error) {
	if len(ids) == 0 {
		return nil, fmt.Errorf("nothing to undo")
	}
	// No pull first: a pull pushes what an earlier command left unpushed,
	// which is what the person is taking back. What this clone pushed is
	// in its remote-tracking branch; another machine cannot have what was
	// never pushed.
	f, err := s.Find(ctx, project, key)
	if err != nil {
		return nil, err
	}
	st := f.State
	if st.Status != acts.StatusSettled || st.SettlementID != ids[0] {
		return nil, fmt.Errorf("act %s: %s is not its current settlement any more; nothing was undone", sanitize.Line(key), sanitize.Line(ids[0]))
	}
	seen, why := false, ""
	for _, id := range ids {
		r, ok := recordOf(f.State, id)
		if !ok || r.Project != project || r.Key != key || !acts.PrincipalSide(r) && r.Type != acts.TypeSettled && r.Type != acts.TypeRelated {
			return nil, fmt.Errorf("act %s: %s is not one of its principal-side records; nothing was undone", sanitize.Line(key), sanitize.Line(id))
		}
		sn, w, err := s.Seen(ctx, project, id)
		if err != nil {
			return nil, err
		}
		if sn {
			seen, why = true, w
			break
		}
		why = w
	}
	if seen {
		w, err := reopen(st)
		if err != nil {
			return nil, err
		}
		rep, err := s.WritePrincipal(ctx, w)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, r := range rep.Records {
			out = append(out, r.ID)
		}
		return &UndoReport{Outcome: UndoReopened, Why: why, IDs: out, State: rep.State}, nil
	}
	all, err := s.discard(ctx, []UndoTarget{{Project: project, Key: key, IDs: ids}}, why)
	if err != nil {
		return nil, err
	}
	return all[0], nil
}

// UndoTarget is one act's settlement to take back: its records' ids, the
// settlement first.
type UndoTarget struct {
	Project, Key string
	IDs          []string
}

// DiscardAll removes several acts' settlements as one (the inbox's batch):
// every one must be the act's current settlement and unseen (Seen), or
// nothing is removed and the error says which; then one commit.
func (s *Session) DiscardAll(ctx context.Context, ts []UndoTarget) ([]*UndoReport, error) {
	var probs []BatchProblem
	why := ""
	for _, t := range ts {
		f, err := s.Find(ctx, t.Project, t.Key)
		if err != nil {
			probs = append(probs, BatchProblem{t.Project, t.Key, err.Error()})
			continue
		}
		if len(t.IDs) == 0 || f.State.Status != acts.StatusSettled || f.State.SettlementID != t.IDs[0] {
			probs = append(probs, BatchProblem{t.Project, t.Key, "that settlement is not its current one any more"})
			continue
		}
		for _, id := range t.IDs {
			seen, w, err := s.Seen(ctx, t.Project, id)
			if err != nil {
				return nil, err
			}
			if seen {
				probs = append(probs, BatchProblem{t.Project, t.Key, w + ": reopen it instead"})
				break
			}
			why = w
		}
	}
	if len(probs) > 0 {
		return nil, &BatchError{Problems: probs}
	}
	return s.discard(ctx, ts, why)
}

// discard removes the targets' records (checked unseen by the caller) and
// commits the removal once.
func (s *Session) discard(ctx context.Context, ts []UndoTarget, why string) ([]*UndoReport, error) {
	var ids []string
	project := ""
	for _, t := range ts {
		project = t.Project
		for _, id := range t.IDs {
			if err := os.Remove(s.Log.RecordPath(t.Project, id)); err != nil {
				return nil, fmt.Errorf("undo: %w", err)
			}
			ids = append(ids, id)
		}
		// Removed on purpose, unseen: not a signed record gone (D19).
		if err := s.Log.ForgetSigned(t.Project, t.IDs); err != nil {
			return nil, fmt.Errorf("undo: %w", err)
		}
	}
	if err := s.Commit(ctx, fmt.Sprintf("%s acts: %s: undo: removed %s (never pushed or applied)", s.o.Via, sanitize.Line(project), sanitize.Line(strings.Join(ids, ", ")))); err != nil {
		return nil, err
	}
	var all []*UndoReport
	for _, t := range ts {
		f, err := s.Find(ctx, t.Project, t.Key)
		if err != nil {
			return nil, err
		}
		all = append(all, &UndoReport{Outcome: UndoDiscarded, Why: why, IDs: t.IDs, State: f.State})
	}
	return all, nil
}

// recordOf finds record id among the act's records.
func recordOf(st *acts.ActState, id string) (acts.Record, bool) {
	for _, group := range [][]acts.Record{st.Settlements, st.Relations, st.Notes} {
		for _, r := range group {
			if r.ID == id {
				return r, true
			}
		}
	}
	return acts.Record{}, false
}

// inUpstream reports whether the upstream's tree, as this clone last saw
// it, holds rel (relative to the acts dir, where git runs).
func (r *Repo) inUpstream(ctx context.Context, rel string) (bool, error) {
	out, err := r.g.Read(ctx, "ls-tree", "--name-only", "@{upstream}", "--", rel)
	if err != nil {
		return false, fmt.Errorf("%s: %w", r.Dir, err)
	}
	return strings.TrimSpace(string(out)) != "", nil
}
