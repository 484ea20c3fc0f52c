package actsession

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sanitize"
)

// PrincipalWrite is acts.PrincipalWrite: one act's records written as the
// principal side (settle, reopen, note, and the agents' claim and withdraw
// from the command line).
type PrincipalWrite = recordlog.PrincipalWrite

// WritePrincipal signs, writes and reloads (recordlog.WriteAsPrincipal), then
// commits and pushes (D20). A signer that may not sign for the project
// writes nothing.
func (s *Session) WritePrincipal(ctx context.Context, req PrincipalWrite) (*recordlog.PrincipalWriteReport, error) {
	rep, err := recordlog.WriteAsPrincipal(ctx, s.Log, req)
	if err != nil {
		return nil, err
	}
	if err := s.Commit(ctx, s.recordsSubject(req.Records)); err != nil {
		return nil, err
	}
	return rep, nil
}

// WriteAgent finds the act, writes the one record build makes from its
// state (an agent's claim, withdrawal or note; never a principal-side
// record, Acts 0.3 §10), commits and pushes, and returns the record and the
// act as read after it.
func (s *Session) WriteAgent(ctx context.Context, project, key string, build func(*acts.ActState) (acts.Record, error)) (acts.Record, *Found, error) {
	f, err := s.Find(ctx, project, key)
	if err != nil {
		return acts.Record{}, nil, err
	}
	r, err := build(f.State)
	if err != nil {
		return acts.Record{}, nil, err
	}
	if acts.PrincipalSide(r) || r.Type == acts.TypeSettled || r.Type == acts.TypeReopened {
		return acts.Record{}, nil, fmt.Errorf("%s: only the principal settles, reopens or writes as principal (Acts 0.3 §10)", r.Type)
	}
	if err := ctx.Err(); err != nil {
		return acts.Record{}, nil, err
	}
	if _, err := s.Log.WriteAll([]acts.Record{r}); err != nil {
		return acts.Record{}, nil, err
	}
	if err := s.Commit(ctx, s.recordsSubject([]acts.Record{r})); err != nil {
		return acts.Record{}, nil, err
	}
	next, err := s.Find(ctx, f.State.Project, key)
	return r, next, err
}

// Sync runs the registrar over a state document (Sync), then commits
// what it sent and acknowledged (one commit) and pushes. A dry run commits
// nothing. It does not pull: a front end calls Pull first.
func (s *Session) Sync(ctx context.Context, req SyncRequest) (*SyncReport, error) {
	rep, err := Sync(ctx, s.Log, req)
	if err == nil && !req.DryRun {
		err = s.Commit(ctx, fmt.Sprintf("%s acts sync: %s: %d sent, %d applied", s.o.Via, sanitize.Line(req.Project), len(rep.Sent), len(rep.Applied)))
	}
	return rep, err
}

// recordsSubject names a command's records for its commit (D20).
func (s *Session) recordsSubject(rs []acts.Record) string {
	if len(rs) == 0 {
		return s.o.Via + " acts"
	}
	var parts []string
	for _, r := range rs {
		parts = append(parts, r.Type+" "+r.ID)
	}
	return fmt.Sprintf("%s acts: %s: %s", s.o.Via, sanitize.Line(rs[0].Project), sanitize.Line(strings.Join(parts, ", ")))
}

// WaitOptions bound a wait for the principal's settlement.
type WaitOptions struct {
	Timeout time.Duration // how long to wait; 0 reads the act once
	Poll    time.Duration // how often the log is read; default 250 ms
	// Waiting, when set, is told the act is still open: on the first read
	// that finds it unsettled (even when the timeout has passed by then),
	// then at most every Every (default 10 s), so a client can show that
	// the wait is alive.
	Waiting func(st *acts.ActState, waited time.Duration)
	Every   time.Duration
	// PullEvery is how often the wait pulls (D20: a settlement made on
	// another machine is seen): before the first read, then at most this
	// often (default 10 s). A pull that fails ends the wait.
	PullEvery time.Duration
}

// Wait reads the act every poll until it is settled, ctx ends or the
// timeout passes; it returns the last read and whether it settled. Only
// settlements the log applies count: a settlement whose signature fails
// never ends the wait, and it is among the findings returned (D19).
func (s *Session) Wait(ctx context.Context, project, key string, o WaitOptions) (*Found, bool, error) {
	if o.Poll <= 0 {
		o.Poll = 250 * time.Millisecond
	}
	if o.Every <= 0 {
		o.Every = 10 * time.Second
	}
	if o.PullEvery <= 0 {
		o.PullEvery = 10 * time.Second
	}
	start := time.Now()
	deadline := start.Add(o.Timeout)
	var told, pulled time.Time
	for {
		if pulled.IsZero() || time.Since(pulled) >= o.PullEvery {
			pulled = time.Now()
			if err := s.Pull(ctx); err != nil {
				return nil, false, err
			}
		}
		f, err := s.Find(ctx, project, key)
		if err != nil {
			return nil, false, err
		}
		if f.State.Status == acts.StatusSettled {
			return f, true, nil
		}
		if o.Waiting != nil && (told.IsZero() || time.Since(told) >= o.Every) {
			told = time.Now()
			o.Waiting(f.State, told.Sub(start))
		}
		left := time.Until(deadline)
		if left <= 0 {
			return f, false, nil
		}
		t := time.NewTimer(min(o.Poll, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return f, false, ctx.Err()
		case <-t.C:
		}
	}
}
