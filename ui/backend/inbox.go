package backend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/ui/common"
)

// Principal builds the principal side's records for one action on one act
// (Acts 0.3 §3: settled with authority and terms_rev, related same_as,
// reopened with restore_text, note with about). It is the acts core's
// function; the inbox only calls it.
type Principal func(st *acts.ActState, a common.Action) ([]acts.Record, error)

// Inbox is common.Inbox over the acts session (actsession): the same
// list, find, write, commit and push the command line runs.
type Inbox struct {
	Session *actsession.Session
	Build   Principal
	// Sign, when set, signs the principal-side records of rs in place for
	// project (D19) and returns a notice for the person (trust on first
	// use). With register false it only describes a registration (the
	// preview); with true it makes it (just before the write). rs may be
	// nil (register only).
	Sign func(project string, rs []acts.Record, register bool) (notice string, err error)

	// previewed keeps the records shown for an action, so the records
	// written are exactly the ones the person saw (ids and timestamps
	// included), not a fresh build.
	mu        sync.Mutex
	previewed map[common.Action][]acts.Record
	batch     *previewedBatch
	// last is the last settlement written: per act, its records' ids.
	last []written
}

type written struct {
	project, key string
	ids          []string
}

// previewedBatch is the records a batch preview showed, for exactly those
// actions.
type previewedBatch struct {
	actions []common.Action
	records [][]acts.Record
}

// LoadActs lists every project's acts (the session's List) with the
// findings `tp acts list` prints: files not read, records not applied and
// why (a signature that did not verify, D19), applied records gone.
func (in *Inbox) LoadActs(ctx context.Context) (common.ActList, error) {
	ls, err := in.Session.List(ctx, "")
	if err != nil {
		return common.ActList{}, err
	}
	var out common.ActList
	for _, st := range ls.Acts {
		out.Acts = append(out.Acts, actOf(st))
	}
	for _, f := range ls.Findings {
		out.Findings = append(out.Findings, f.Text)
	}
	// Due first, then by project and key: what needs the principal soonest.
	sort.SliceStable(out.Acts, func(i, j int) bool {
		a, b := out.Acts[i], out.Acts[j]
		if (a.Due != "") != (b.Due != "") {
			return a.Due != ""
		}
		if a.Due != b.Due {
			return a.Due < b.Due
		}
		if a.Project != b.Project {
			return a.Project < b.Project
		}
		return a.Key < b.Key
	})
	return out, nil
}

func actOf(st *acts.ActState) common.Act {
	a := common.Act{Key: st.Key, Project: st.Project, Status: st.Status, Outcome: st.Outcome,
		Withdrawn: st.Need == acts.NeedWithdrawn, Text: st.Text, Due: st.Due, TermsRev: st.TermsRev, SettledRev: st.SettledRev}
	for _, r := range st.History {
		rev := common.Revision{Type: r.Type, TS: r.TS, Rev: r.TermsRev}
		if r.Terms != nil {
			rev.Text = r.Terms.Text
		}
		a.History = append(a.History, rev)
	}
	for _, c := range st.Claims {
		cl := common.Claim{By: c.By, Outcome: c.Outcome, TS: c.TS}
		if c.Evidence != nil {
			cl.Basis = c.Evidence.Basis
		}
		a.Claims = append(a.Claims, cl)
	}
	for _, n := range st.Notes {
		a.Notes = append(a.Notes, n.NoteText())
	}
	if n := len(st.Settlements); n > 0 {
		if by := st.Settlements[n-1].SignedBy; by != nil {
			a.SignedBy = by.Principal + " " + by.Fingerprint
			if by.Adopted {
				a.SignedBy += " (adopted: unsigned, from before the project had a principal)"
			}
		}
	}
	return a
}

func (in *Inbox) state(a common.Action) (*acts.ActState, error) {
	f, err := in.Session.Find(context.Background(), a.Project, a.Key)
	if err != nil {
		return nil, err
	}
	return f.State, nil
}

func (in *Inbox) records(a common.Action) ([]acts.Record, *acts.ActState, error) {
	if in.Build == nil {
		return nil, nil, errors.New("settling is not available in this build (no principal-side record builder)")
	}
	st, err := in.state(a)
	if err != nil {
		return nil, nil, err
	}
	if a.Kind == common.ActSettle && st.Status != acts.StatusSettled {
		// What is signed is the terms the screen showed (D19-terms).
		if err := acts.CheckTermsRead(st, a.TermsRev); err != nil {
			return nil, nil, err
		}
	}
	rs, err := in.Build(st, a)
	return rs, st, err
}

func (in *Inbox) sign(project string, rs []acts.Record, register bool) (string, error) {
	if in.Sign == nil {
		return "", nil
	}
	return in.Sign(project, rs, register)
}

// Preview returns the records the action would write, as canonical JSON.
func (in *Inbox) Preview(ctx context.Context, a common.Action) (string, error) {
	rs, _, err := in.records(a)
	if err != nil {
		return "", err
	}
	notice, err := in.sign(a.Project, rs, false)
	if err != nil {
		return "", err
	}
	in.mu.Lock()
	if in.previewed == nil {
		in.previewed = map[common.Action][]acts.Record{}
	}
	in.previewed[a] = rs
	in.mu.Unlock()
	var b strings.Builder
	if notice != "" {
		b.WriteString(notice + "\n\n")
	}
	for _, r := range rs {
		j, err := ojson.MarshalCanonical(r)
		if err != nil {
			return "", err
		}
		b.Write(j)
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// Apply writes the records and returns the act's new state.
func (in *Inbox) Apply(ctx context.Context, a common.Action) (*common.Act, error) {
	in.mu.Lock()
	rs, ok := in.previewed[a]
	delete(in.previewed, a)
	in.mu.Unlock()
	if !ok {
		var err error
		if rs, _, err = in.records(a); err != nil {
			return nil, err
		}
	}
	// One write sequence for the CLI and the inbox (the session's
	// WritePrincipal); previewed records are signed already and are written
	// as shown.
	rep, err := in.Session.WritePrincipal(ctx, actsession.PrincipalWrite{
		Project: a.Project, Key: a.Key, Records: rs,
		Signer: recordlog.AuthorizerFunc(func(_ *recordlog.Log, project string, rs []acts.Record, register bool) (*recordlog.FirstPrincipal, error) {
			_, err := in.sign(project, rs, register)
			return nil, err
		}),
		Register: true, Signed: ok,
	})
	if err != nil {
		return nil, err
	}
	in.remember([]common.Action{a}, [][]acts.Record{rep.Records})
	act := actOf(rep.State)
	return &act, nil
}

// remember keeps the settlements just written for u.
func (in *Inbox) remember(as []common.Action, rss [][]acts.Record) {
	var last []written
	for i, a := range as {
		if a.Kind != common.ActSettle {
			in.mu.Lock()
			in.last = nil
			in.mu.Unlock()
			return
		}
		w := written{project: a.Project, key: a.Key}
		for _, r := range rss[i] {
			w.ids = append(w.ids, r.ID)
		}
		last = append(last, w)
	}
	in.mu.Lock()
	in.last = last
	in.mu.Unlock()
}

// UndoInfo says what u would do to the last settlement (common.Inbox).
func (in *Inbox) UndoInfo(ctx context.Context) (common.UndoInfo, error) {
	in.mu.Lock()
	last := in.last
	in.mu.Unlock()
	var info common.UndoInfo
	for _, w := range last {
		info.Acts = append(info.Acts, common.Action{Kind: common.ActReopen, Project: w.project, Key: w.key})
		for _, id := range w.ids {
			seen, why, err := in.Session.Seen(ctx, w.project, id)
			if err != nil {
				return common.UndoInfo{}, err
			}
			if seen && !info.Seen {
				info.Seen, info.Why = true, why
			}
			if !seen && info.Why == "" {
				info.Why = why
			}
		}
	}
	return info, nil
}

// Discard removes the last settlement while nobody can have seen it
// (actsession.Session.Undo); one seen meanwhile is refused, nothing
// removed.
func (in *Inbox) Discard(ctx context.Context) ([]*common.Act, error) {
	info, err := in.UndoInfo(ctx)
	if err != nil {
		return nil, err
	}
	if info.Seen {
		return nil, fmt.Errorf("the settlement was seen meanwhile (%s): it can only be reopened; nothing was removed", info.Why)
	}
	in.mu.Lock()
	last := in.last
	in.last = nil
	in.mu.Unlock()
	// One removal, one commit; all or nothing.
	var ts []actsession.UndoTarget
	for _, w := range last {
		ts = append(ts, actsession.UndoTarget{Project: w.project, Key: w.key, IDs: w.ids})
	}
	reps, err := in.Session.DiscardAll(ctx, ts)
	if err != nil {
		return nil, err
	}
	var out []*common.Act
	for _, r := range reps {
		act := actOf(r.State)
		out = append(out, &act)
	}
	return out, nil
}

// buildAll builds every action's records from the log as it is now; an
// act that cannot be written (settled already, not found) is a problem of
// the batch, and every problem is reported together.
func (in *Inbox) buildAll(as []common.Action) ([][]acts.Record, error) {
	var probs []actsession.BatchProblem
	out := make([][]acts.Record, len(as))
	seen := map[string]bool{}
	for i, a := range as {
		id := a.Project + "\x00" + a.Key
		if seen[id] {
			probs = append(probs, actsession.BatchProblem{Project: a.Project, Key: a.Key, Why: "named twice in one batch"})
			continue
		}
		seen[id] = true
		rs, _, err := in.records(a)
		if err != nil {
			probs = append(probs, actsession.BatchProblem{Project: a.Project, Key: a.Key, Why: err.Error()})
			continue
		}
		out[i] = rs
	}
	if len(probs) > 0 {
		return nil, &actsession.BatchError{Problems: probs}
	}
	return out, nil
}

// PreviewAll builds every action's records, signs them (one pass per
// project; the key is the one Sign finds) and returns them all as
// canonical JSON, each act's under a heading.
func (in *Inbox) PreviewAll(ctx context.Context, as []common.Action) (string, error) {
	rss, err := in.buildAll(as)
	if err != nil {
		return "", err
	}
	var projects []string
	byProject := map[string][]*acts.Record{}
	for i := range rss {
		for j := range rss[i] {
			p := as[i].Project
			if _, ok := byProject[p]; !ok {
				projects = append(projects, p)
			}
			byProject[p] = append(byProject[p], &rss[i][j])
		}
	}
	sort.Strings(projects)
	var notices []string
	for _, p := range projects {
		// Signed in one slice per project, then copied back.
		flat := make([]acts.Record, len(byProject[p]))
		for i, r := range byProject[p] {
			flat[i] = *r
		}
		notice, err := in.sign(p, flat, false)
		if err != nil {
			return "", err
		}
		if notice != "" {
			notices = append(notices, notice)
		}
		for i, r := range byProject[p] {
			*r = flat[i]
		}
	}
	in.mu.Lock()
	in.batch = &previewedBatch{actions: append([]common.Action(nil), as...), records: rss}
	in.mu.Unlock()
	var b strings.Builder
	for _, n := range notices {
		b.WriteString(n + "\n\n")
	}
	for i, rs := range rss {
		fmt.Fprintf(&b, "── %d of %d: %s %s ──\n", i+1, len(rss), as[i].Project, as[i].Key)
		for _, r := range rs {
			j, err := ojson.MarshalCanonical(r)
			if err != nil {
				return "", err
			}
			b.Write(j)
		}
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// ApplyAll writes what PreviewAll showed for exactly these actions (or a
// fresh build) as one batch (actsession.WritePrincipalBatch).
func (in *Inbox) ApplyAll(ctx context.Context, as []common.Action) ([]*common.Act, error) {
	in.mu.Lock()
	pb := in.batch
	in.batch = nil
	in.mu.Unlock()
	var rss [][]acts.Record
	signed := pb != nil && slices.Equal(pb.actions, as)
	if signed {
		rss = pb.records
	} else {
		var err error
		if rss, err = in.buildAll(as); err != nil {
			return nil, err
		}
	}
	signer := recordlog.AuthorizerFunc(func(_ *recordlog.Log, project string, rs []acts.Record, register bool) (*recordlog.FirstPrincipal, error) {
		_, err := in.sign(project, rs, register)
		return nil, err
	})
	ws := make([]actsession.PrincipalWrite, len(as))
	for i, a := range as {
		ws[i] = actsession.PrincipalWrite{Project: a.Project, Key: a.Key, Records: rss[i], Signer: signer, Register: true, Signed: signed}
	}
	rep, err := in.Session.WritePrincipalBatch(ctx, ws)
	if err != nil {
		return nil, err
	}
	written := make([][]acts.Record, len(rep.Writes))
	for i, w := range rep.Writes {
		written[i] = w.Records
	}
	in.remember(as, written)
	out := make([]*common.Act, len(rep.Writes))
	for i, w := range rep.Writes {
		act := actOf(w.State)
		out[i] = &act
	}
	return out, nil
}
