package acts

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// The agent's side of the binding, as one function per job, so the command
// line and the MCP server run the same sequence: find the act, build the
// agent's record from its current state, write it, and read the act again.
// Nothing here builds a settled, reopened or principal note: only the
// principal settles (§10, D19).

// BuildAgentNote returns a note about the act from an agent (§3: a note may
// have any origin; it never changes the act's state, I2).
func BuildAgentNote(st *ActState, s Sender, text string) (Record, error) {
	if strings.TrimSpace(text) == "" {
		return Record{}, fmt.Errorf("a note needs text")
	}
	if err := RefuseCredentials("note", text); err != nil {
		return Record{}, err
	}
	r := s.base(st, TypeNote, "agent", "n")
	r.About = &About{Key: st.Key}
	r.Text = text
	return r, nil
}

// FindAct loads the act with key: from project when given, else from the one
// project of the log that holds the key. Files the log skipped come back
// as problems.
func (l *Log) FindAct(project, key string) (*ActState, []LogProblem, error) {
	if !ValidKey(key) {
		return nil, nil, fmt.Errorf("%q is not a key (§6.1: letters, digits, '.', '_' and '-', at most 128)", key)
	}
	if project == "" {
		found, err := l.FindKey(key)
		if err != nil {
			return nil, nil, err
		}
		switch len(found) {
		case 0:
			return nil, nil, fmt.Errorf("no act with key %s in the record log %s", key, l.Dir)
		case 1:
			project = found[0]
		default:
			return nil, nil, fmt.Errorf("key %s is in the logs of several projects (%s): name the project", key, strings.Join(found, ", "))
		}
	}
	ld, err := l.Load(project)
	if err != nil {
		return nil, nil, err
	}
	var rs []Record
	for _, r := range ld.Records {
		if r.Key == key {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 {
		return nil, ld.Problems, fmt.Errorf("no act with key %s in project %s", key, project)
	}
	st, err := Lifecycle(rs)
	return st, ld.Problems, err
}

// AgentWrite finds the act, writes the one record build makes from it, and
// returns the record and the act's state after it.
func (l *Log) AgentWrite(ctx context.Context, project, key string, build func(*ActState) (Record, error)) (Record, *ActState, error) {
	st, _, err := l.FindAct(project, key)
	if err != nil {
		return Record{}, nil, err
	}
	r, err := build(st)
	if err != nil {
		return Record{}, nil, err
	}
	if r.Origin == "principal" || r.Type == TypeSettled || r.Type == TypeReopened {
		return Record{}, nil, fmt.Errorf("%s: only the principal settles, reopens or writes as principal (Acts 0.3 §10)", r.Type)
	}
	if err := ctx.Err(); err != nil {
		return Record{}, nil, err
	}
	if _, err := l.WriteAll([]Record{r}); err != nil {
		return Record{}, nil, err
	}
	next, _, err := l.FindAct(st.Project, key)
	return r, next, err
}

// WaitOptions bound a wait for the principal's settlement.
type WaitOptions struct {
	Timeout time.Duration // how long to wait; 0 reads the act once
	Poll    time.Duration // how often the log is read; default 250 ms
	// Waiting, when set, is told the act is still open: on the first read
	// that finds it unsettled (even when the timeout has passed by then),
	// then at most every Every (default 10 s), so a client can show that
	// the wait is alive.
	Waiting func(st *ActState, waited time.Duration)
	Every   time.Duration
	// Refresh, when set, brings the log up to date before a read (with the
	// acts dir in git, D20: a pull, so a settlement made on another machine
	// is seen): before the first read, then at most every RefreshEvery
	// (default 10 s). An error ends the wait.
	Refresh      func(context.Context) error
	RefreshEvery time.Duration
}

// WaitSettled reads the act every poll until it is settled, ctx ends or the
// timeout passes; it returns the last state read and whether it settled.
// Only settlements the log accepts count: in a project with principals an
// unsigned or forged settled record is rejected by Load and never ends the
// wait (D19).
func (l *Log) WaitSettled(ctx context.Context, project, key string, o WaitOptions) (*ActState, bool, error) {
	if o.Poll <= 0 {
		o.Poll = 250 * time.Millisecond
	}
	if o.Every <= 0 {
		o.Every = 10 * time.Second
	}
	if o.RefreshEvery <= 0 {
		o.RefreshEvery = 10 * time.Second
	}
	start := time.Now()
	deadline := start.Add(o.Timeout)
	var told, refreshed time.Time
	for {
		if o.Refresh != nil && (refreshed.IsZero() || time.Since(refreshed) >= o.RefreshEvery) {
			refreshed = time.Now()
			if err := o.Refresh(ctx); err != nil {
				return nil, false, err
			}
		}
		st, _, err := l.FindAct(project, key)
		if err != nil {
			return nil, false, err
		}
		if st.Status == StatusSettled {
			return st, true, nil
		}
		if o.Waiting != nil && (told.IsZero() || time.Since(told) >= o.Every) {
			told = time.Now()
			o.Waiting(st, told.Sub(start))
		}
		left := time.Until(deadline)
		if left <= 0 {
			return st, false, nil
		}
		t := time.NewTimer(min(o.Poll, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return st, false, ctx.Err()
		case <-t.C:
		}
	}
}
