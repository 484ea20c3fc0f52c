package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/sanitize"
)

// The acts dir over git (D20): commands that read pull first; commands that
// write commit their records (one commit per command) and push. --offline
// skips both. A push that fails is a warning, not an error: the records are
// committed here and the next command pushes them.

func actsRepo(g *globalOpts, l *acts.Log) (*acts.Repo, error) {
	if g.offline {
		return nil, nil
	}
	return acts.OpenRepo(context.Background(), l.Dir)
}

// actsPull brings the acts dir up to date before a command reads it.
func actsPull(io *IO, g *globalOpts, l *acts.Log) error {
	r, err := actsRepo(g, l)
	if err != nil || r == nil {
		return err
	}
	warn, err := r.Pull(context.Background())
	var ce *acts.GitConflictError
	if errors.As(err, &ce) {
		return withHint(errors.New(sanitize.Line(err.Error())), "tp acts --offline … works on this machine's copy meanwhile")
	}
	if err != nil {
		return withHint(errors.New(sanitize.Line(err.Error())), "--offline works on this machine's copy without git")
	}
	if warn != nil {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", sanitize.Line(warn.Error()))
	}
	return nil
}

// actsCommitPush commits what the command wrote under the acts dir and
// pushes it. Nothing to commit is fine. A failed push is a warning.
func actsCommitPush(io *IO, g *globalOpts, l *acts.Log, subject string) error {
	r, err := actsRepo(g, l)
	if err != nil || r == nil {
		return err
	}
	ctx := context.Background()
	done, err := r.Commit(ctx, subject)
	if err != nil {
		return withHint(fmt.Errorf("the records are written but not committed: %s", sanitize.Line(err.Error())), "the next tp acts command commits them")
	}
	if !done {
		return nil
	}
	if err := r.Push(ctx); err != nil {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", sanitize.Line(err.Error()))
	}
	return nil
}
