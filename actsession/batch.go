package actsession

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
	"golang.org/x/crypto/ssh"
)

// Writing many acts' principal-side records at once (issue 17): the inbox's
// marked acts and `tp acts settle KEY…`. All or nothing: every act is
// checked against the log as it is now before anything is signed; the key
// is looked up once and every record signed in one pass; the records are
// written together, and one commit and one push carry them. If one act
// cannot be written, nothing is, and the error names each act and why.

// BatchProblem is one act of a batch that cannot be written, and why.
type BatchProblem struct {
	Project string `json:"project"`
	Key     string `json:"key"`
	Why     string `json:"why"`
}

func (p BatchProblem) String() string {
	return sanitize.Line(p.Project) + " " + sanitize.Line(p.Key) + ": " + sanitize.Line(p.Why)
}

// BatchError refuses a whole batch: nothing was written.
type BatchError struct{ Problems []BatchProblem }

func (e *BatchError) Error() string {
	var parts []string
	for _, p := range e.Problems {
		parts = append(parts, p.String())
	}
	n := len(e.Problems)
	acts := "act cannot"
	if n != 1 {
		acts = "acts cannot"
	}
	return fmt.Sprintf("%d %s be written, so none was (all or nothing): %s", n, acts, strings.Join(parts, "; "))
}

// BatchReport says what WritePrincipalBatch wrote, one report per write in
// the order given.
type BatchReport struct {
	Writes []*recordlog.PrincipalWriteReport
	// Registered are the first principals registered on the way (trust
	// on first use, D19), one per project that had none.
	Registered []*recordlog.FirstPrincipal
}

// WritePrincipalBatch writes ws as one: checked, signed in one pass (the
// first write's Signer signs for all, once per project; its key is looked
// up once when it is an recordlog.PrincipalKey), written, committed once and
// pushed. Each write's records must have been built from the act's state
// as the log holds it now: a settlement whose act was settled, reopened or
// revised since is refused, as is an act named twice, a record whose id is
// taken, or a project whose principals this key is not.
func (s *Session) WritePrincipalBatch(ctx context.Context, ws []PrincipalWrite) (*BatchReport, error) {
	if len(ws) == 0 {
		return &BatchReport{}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var probs []BatchProblem
	seen := map[string]bool{}
	for _, w := range ws {
		id := w.Project + "\x00" + w.Key
		if seen[id] {
			probs = append(probs, BatchProblem{w.Project, w.Key, "named twice in one batch"})
			continue
		}
		seen[id] = true
		if why := s.stale(ctx, w); why != "" {
			probs = append(probs, BatchProblem{w.Project, w.Key, why})
		}
	}
	if len(probs) > 0 {
		return nil, &BatchError{Problems: probs}
	}

	// One signer, one key look-up: every project's authority is checked
	// before any registration or signature is made.
	signer := ws[0].Signer
	if pk, ok := signer.(recordlog.PrincipalKey); ok {
		pk.Find = OnceKey(pk.Find)
		signer = pk
	}
	var projects []string
	byProject := map[string][]acts.Record{}
	for i := range ws {
		p := ws[i].Project
		if _, ok := byProject[p]; !ok {
			projects = append(projects, p)
		}
		for j := range ws[i].Records {
			if acts.PrincipalSide(ws[i].Records[j]) {
				byProject[p] = append(byProject[p], ws[i].Records[j])
			}
		}
	}
	sort.Strings(projects)
	signed := allSignedBatch(ws)
	if signer == nil {
		for _, p := range projects {
			if len(byProject[p]) > 0 {
				return nil, fmt.Errorf("project %s: principal-side records need a signer (D19); nothing was written", sanitize.Line(p))
			}
		}
	}
	if signer != nil {
		for _, p := range projects {
			if len(byProject[p]) == 0 {
				continue
			}
			if _, err := signer.SignRecords(s.Log, p, nil, false); err != nil {
				return nil, err
			}
		}
	}
	rep := &BatchReport{}
	if signer != nil {
		for _, p := range projects {
			rs := byProject[p]
			if len(rs) == 0 {
				continue
			}
			// Records are signed in place: byProject holds copies, so sign
			// those and put them back below.
			if signed {
				rs = nil // shown signed in a preview: written as shown
			}
			t, err := signer.SignRecords(s.Log, p, rs, ws[0].Register)
			if err != nil {
				return nil, err
			}
			if t != nil && ws[0].Register {
				rep.Registered = append(rep.Registered, t)
			}
		}
	}
	// Put the signatures back into the writes' records, in order.
	next := map[string]int{}
	var all []acts.Record
	for i := range ws {
		p := ws[i].Project
		for j := range ws[i].Records {
			if acts.PrincipalSide(ws[i].Records[j]) {
				ws[i].Records[j] = byProject[p][next[p]]
				next[p]++
			}
			all = append(all, ws[i].Records[j])
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	outcomes, err := s.Log.WriteAll(all)
	if err != nil {
		s.unwrite(all, outcomes)
		return nil, fmt.Errorf("%w; nothing of the batch was kept", err)
	}
	for _, p := range projects {
		if err := s.Log.NoteSigned(p, byProject[p]); err != nil {
			return nil, err
		}
	}
	if err := s.Commit(ctx, s.batchSubject(all)); err != nil {
		return nil, err
	}
	k := 0
	for _, w := range ws {
		f, err := s.Find(ctx, w.Project, w.Key)
		if err != nil {
			return nil, err
		}
		rep.Writes = append(rep.Writes, &recordlog.PrincipalWriteReport{Records: w.Records, Outcomes: outcomes[k : k+len(w.Records)], State: f.State})
		k += len(w.Records)
	}
	return rep, nil
}

// stale says why w's records no longer fit the act as the log holds it, or
// "" when they do.
func (s *Session) stale(ctx context.Context, w PrincipalWrite) string {
	f, err := s.Find(ctx, w.Project, w.Key)
	if err != nil {
		return err.Error()
	}
	st := f.State
	for _, r := range w.Records {
		if r.Project != w.Project || r.Key != w.Key {
			return fmt.Sprintf("record %s is for %s %s, not this act", r.ID, r.Project, r.Key)
		}
		if _, err := os.Lstat(s.Log.RecordPath(r.Project, r.ID)); err == nil {
			return fmt.Sprintf("record %s is in the log already (a conflict or a write done twice)", r.ID)
		}
		switch r.Type {
		case acts.TypeSettled, acts.TypeReopened:
			head := ""
			if len(r.Supersedes) > 0 {
				head = r.Supersedes[0]
			}
			switch {
			case r.Type == acts.TypeSettled && st.Status == acts.StatusSettled:
				return "already settled (" + st.Outcome + ")"
			case r.Type == acts.TypeReopened && st.Status != acts.StatusSettled:
				return "not settled: nothing to reopen"
			case head != st.SettlementID:
				return "its settlement changed since this was built"
			}
			if r.Type == acts.TypeSettled && r.TermsRev != st.TermsRev {
				return fmt.Sprintf("the terms were revised (rev %d → %d) since this was built: look at them again", r.TermsRev, st.TermsRev)
			}
		}
	}
	return ""
}

// unwrite removes the records a failed batch wrote: they were never
// committed, pushed or applied anywhere (the batch stops before that).
func (s *Session) unwrite(all []acts.Record, outcomes []recordlog.WriteOutcome) {
	for i, o := range outcomes {
		if i < len(all) && o == recordlog.Written {
			os.Remove(s.Log.RecordPath(all[i].Project, all[i].ID))
		}
	}
}

// batchSubject names a batch's records for its one commit (D20).
func (s *Session) batchSubject(rs []acts.Record) string {
	if len(rs) <= 6 {
		return s.recordsSubject(rs)
	}
	projects := map[string]bool{}
	for _, r := range rs {
		projects[r.Project] = true
	}
	return fmt.Sprintf("%s acts: %d records in %d projects: %s and %d more", s.o.Via, len(rs), len(projects), sanitize.Line(s.recordsSubject(rs[:3])), len(rs)-3)
}

func allSignedBatch(ws []PrincipalWrite) bool {
	for _, w := range ws {
		if !w.Signed {
			return false
		}
		for _, r := range w.Records {
			if acts.PrincipalSide(r) && r.Sig == "" {
				return false
			}
		}
	}
	return true
}

// OnceKey looks the signing key up on first use and hands the same key to
// every later call: one ssh-agent or key-file use per batch (or per inbox).
// A look-up that failed is tried again next time (the person may have
// added the key meanwhile).
func OnceKey(find recordlog.KeyFinder) recordlog.KeyFinder {
	var mu sync.Mutex
	var done bool
	var found sshsign.Found
	return func(prefer func(ssh.PublicKey) bool) (sshsign.Found, error) {
		mu.Lock()
		defer mu.Unlock()
		if done {
			return found, nil
		}
		f, err := find(prefer)
		if err != nil {
			return f, err
		}
		done, found = true, f
		return found, nil
	}
}
