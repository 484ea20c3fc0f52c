package cli

import (
	"context"
	"fmt"

	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/display"
)

// The acts dir over git (D20) is the acts session's (actsession): commands
// that read pull first; commands that write commit their records (one
// commit per command) and push. --offline skips both. A push that fails is
// a warning, not an error: the records are committed here and the next
// command pushes them.

// actsSession is the command's acts session over l: its warnings go to
// stderr.
func actsSession(io *IO, g *globalOpts, l *recordlog.Log) *actsession.Session {
	return actsession.New(l, actsession.Options{Offline: g.offline, Warn: func(err error) {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(err.Error()))
	}})
}

// actsOpenSession opens the log and its session and pulls.
func actsOpenSession(io *IO, g *globalOpts) (*actsession.Session, error) {
	l, err := openActsLog(io, g)
	if err != nil {
		return nil, err
	}
	s := actsSession(io, g, l)
	if err := s.Pull(context.Background()); err != nil {
		return nil, err
	}
	return s, nil
}

// actsPull brings the acts dir up to date before a command reads it.
func actsPull(io *IO, g *globalOpts, l *recordlog.Log) error {
	return actsSession(io, g, l).Pull(context.Background())
}

// actsCommitPush commits what the command wrote under the acts dir and
// pushes it. Nothing to commit is fine. A failed push is a warning.
func actsCommitPush(io *IO, g *globalOpts, l *recordlog.Log, subject string) error {
	return actsSession(io, g, l).Commit(context.Background(), subject)
}

// actsPrintFindings prints what the log holds that the person must be told
// beside the acts (files not read, records not applied, applied records
// gone), one line each.
func actsPrintFindings(io *IO, fs []actsession.Finding) {
	for _, f := range fs {
		fmt.Fprintf(io.Err, "tp: warning: %s\n", display.Line(f.Text))
	}
}
