package backend

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/ui/common"
)

// Principal builds the principal side's records for one action on one act
// (Acts 0.3 §3: settled with authority and terms_rev, related same_as,
// reopened with restore_text, note with about). It is the acts core's
// function; the inbox only calls it.
type Principal func(st *acts.ActState, a common.Action) ([]acts.Record, error)

// Inbox is common.Inbox over the record log.
type Inbox struct {
	Log   *acts.Log
	Build Principal
	// Sign, when set, signs the principal-side records of rs in place for
	// project (D19) and returns a notice for the person (trust on first
	// use). With register false it only describes a registration (the
	// preview); with true it makes it (just before the write). rs may be
	// nil (register only).
	Sign func(project string, rs []acts.Record, register bool) (notice string, err error)
	// Commit commits and pushes what Apply writes when the acts dir is a
	// git work tree with an upstream (D20); Warn, when set, hears a push
	// that failed (the records stay committed here).
	Commit bool
	Warn   func(error)

	// previewed keeps the records shown for an action, so the records
	// written are exactly the ones the person saw (ids and timestamps
	// included), not a fresh build.
	mu        sync.Mutex
	previewed map[common.Action][]acts.Record
}

// LoadActs reads every project's records and computes each act's state.
func (in *Inbox) LoadActs(ctx context.Context) ([]common.Act, error) {
	projects, _, err := in.Log.Projects()
	if err != nil {
		return nil, err
	}
	var out []common.Act
	var problems []string
	for _, p := range projects {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ld, err := in.Log.Load(p)
		if err != nil {
			return nil, err
		}
		states, errs := acts.States(ld.Records)
		for _, e := range errs {
			problems = append(problems, e.Error())
		}
		keys := make([]acts.ProjectKey, 0, len(states))
		for k := range states {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].Key < keys[j].Key })
		for _, k := range keys {
			out = append(out, actOf(states[k]))
		}
	}
	// Due first, then by project and key: what needs the principal soonest.
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
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
	if len(problems) > 0 && len(out) == 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
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
	ld, err := in.Log.Load(a.Project)
	if err != nil {
		return nil, err
	}
	var rs []acts.Record
	for _, r := range ld.Records {
		if r.Key == a.Key {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("no act %s in project %s", a.Key, a.Project)
	}
	return acts.Lifecycle(rs)
}

func (in *Inbox) records(a common.Action) ([]acts.Record, *acts.ActState, error) {
	if in.Build == nil {
		return nil, nil, errors.New("settling is not available in this build (no principal-side record builder)")
	}
	st, err := in.state(a)
	if err != nil {
		return nil, nil, err
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
	// One write sequence for the CLI and the inbox (acts.WriteAsPrincipal);
	// previewed records are signed already and are written as shown.
	rep, err := acts.WriteAsPrincipal(ctx, in.Log, acts.PrincipalWrite{
		Project: a.Project, Key: a.Key, Records: rs,
		Signer: acts.AuthorizerFunc(func(_ *acts.Log, project string, rs []acts.Record, register bool) (*acts.FirstPrincipal, error) {
			_, err := in.sign(project, rs, register)
			return nil, err
		}),
		Register: true, Signed: ok, Commit: in.Commit,
	})
	if err != nil {
		return nil, err
	}
	if rep.PushWarning != nil && in.Warn != nil {
		in.Warn(rep.PushWarning)
	}
	act := actOf(rep.State)
	return &act, nil
}
