// Package actsession is the one acts session every front end runs: `tp acts
// …`, the principal's inbox and `tp mcp` (issue 15). A command or a tool call
// opens a Session over the record log and goes pull → read → verify → write
// → commit → push through it:
//
//   - Pull brings the acts dir up to date when it is a git working tree with
//     an upstream (D20);
//   - List and Find read the log (recordlog.Log.Load verifies every
//     principal-side record, D19) and return the acts with the findings: the
//     files that were not read, the records that were not applied and why,
//     the applied records that vanished. A front end shows the findings with
//     the acts; none drops them;
//   - WritePrincipal, WriteAgent and Sync write records (signed by the
//     principal, an agent's, the registrar's), then Commit commits them (one
//     commit per command) and pushes.
//
// The jobs themselves live here too, beside the session: [Sync] is the
// whole registrar job (Acts 0.3 §4: a [SyncRequest] in, a [SyncReport]
// out) — it sends first (one batch), writes the document only after every
// send succeeded, commits it when asked, and acknowledges applied
// settlements only after the write is durable, so a crash at any point
// repeats safely; [Watch] reports records as they are written to the log
// (fsnotify). Neither the Acts format (package acts) nor the record log
// (acts/recordlog) runs git or watches files (internal/layering).
//
// Git runs through internal/gitexec, which sets every program-naming key
// where it wins (D19 revised). What a push or a fetch could not do is a
// warning (Options.Warn), never a lost record: the commit stays here and
// the next command's Pull pushes it.
package actsession

import (
	"context"
	"errors"
	"fmt"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/sanitize"
)

// Options configure a Session.
type Options struct {
	// Offline skips git: no pull, no commit, no push (--offline).
	Offline bool
	// Warn hears what the person should know that does not stop the
	// command: an upstream that could not be reached, a push that failed
	// (the records stay committed here). nil drops them.
	Warn func(error)
	// Via names the front end in commit messages: "tp" (the default) for
	// the command line and the inbox, "tp mcp:" for the MCP server.
	Via string
}

// Session is one command's (or one tool call's) use of the record log.
type Session struct {
	Log *recordlog.Log
	o   Options

	repo   *Repo
	opened bool
}

// New returns a session over l.
func New(l *recordlog.Log, o Options) *Session {
	if o.Via == "" {
		o.Via = "tp"
	}
	return &Session{Log: l, o: o}
}

// Offline reports whether the session runs no git.
func (s *Session) Offline() bool { return s.o.Offline }

func (s *Session) warn(err error) {
	if err != nil && s.o.Warn != nil {
		s.o.Warn(err)
	}
}

// Repo is the acts dir's git repository, or nil: offline, not in a git
// working tree, no upstream, or no git installed (the log stays on this
// disk). It is looked up once per session.
func (s *Session) Repo(ctx context.Context) (*Repo, error) {
	if s.o.Offline {
		return nil, nil
	}
	if !s.opened {
		r, err := OpenRepo(ctx, s.Log.Dir)
		if err != nil {
			return nil, err
		}
		s.repo, s.opened = r, true
	}
	return s.repo, nil
}

// Pull brings the acts dir up to date before the session reads it (D20):
// it commits records left loose by an earlier offline command, fetches and
// merges the upstream, and pushes commits an earlier command could not
// push. An upstream that cannot be reached is a warning: the session works
// on this machine's copy. A merge that conflicts was undone; its error is a
// *GitConflictError (with a hint).
func (s *Session) Pull(ctx context.Context) error {
	r, err := s.Repo(ctx)
	if err != nil || r == nil {
		return err
	}
	warn, err := r.Pull(ctx)
	var ce *GitConflictError
	if errors.As(err, &ce) {
		return &acts.HintError{Err: err, HintText: "--offline works on this machine's copy meanwhile"}
	}
	if err != nil {
		return &acts.HintError{Err: err, HintText: "--offline works on this machine's copy without git"}
	}
	s.warn(warn)
	return nil
}

// Commit commits everything the session wrote under the acts dir as one
// commit whose message is subject and the records it adds, then pushes it.
// Nothing to commit is fine; a push that fails is a warning (the next
// command pushes). A commit message is pushed and kept for good: D5's
// credential table holds for it as for a record.
func (s *Session) Commit(ctx context.Context, subject string) error {
	r, err := s.Repo(ctx)
	if err != nil || r == nil {
		return err
	}
	if err := acts.RefuseCredentials("commit message", subject); err != nil {
		return err
	}
	done, err := r.Commit(ctx, sanitize.Line(subject))
	if err != nil {
		return &acts.HintError{Err: fmt.Errorf("the records are written but not committed: %s", sanitize.Line(err.Error())), HintText: "the next tp acts command commits them"}
	}
	if done {
		s.warn(r.Push(ctx))
	}
	return nil
}
