package actsession

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/gitexec"
	"github.com/tp-dev/tp/internal/sanitize"
)

// replaceDocument writes data over path durably (internal/durable: temp
// file, fsync, rename, folder fsync). It refuses when the file changed since
// it was read (an agent editing it meanwhile): the records are already
// sent, so the next run stamps without re-raising.
func replaceDocument(path string, old, data []byte, perm fs.FileMode) error {
	changed := errors.New("changed")
	err := durable.WriteFileIf(path, data, perm, func() error {
		if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, old) {
			return changed
		}
		return nil
	})
	if err == changed {
		return acts.WithHint(fmt.Errorf("%s %w", path, errDocumentChanged), "run tp acts sync again")
	}
	var de *durable.Error
	if errors.As(err, &de) && de.Op != "rename" && de.Op != "sync folder" {
		return fmt.Errorf("%w (the document is unchanged)", err)
	}
	return err
}

// syncCommitMessage lists what the run applied and sent.
func syncCommitMessage(project string, rep *SyncReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tp acts sync: %s: %d applied, %d stamped, %d struck, %d re-added\n",
		sanitize.Line(project), len(rep.Applied), rep.Stamped, rep.Struck, rep.Added)
	if len(rep.Applied) > 0 {
		b.WriteString("\nApplied:\n")
		for _, a := range rep.Applied {
			outcome := ""
			if a.Outcome != "" {
				outcome = ": " + a.Outcome
			}
			fmt.Fprintf(&b, "- %s %s (%s%s)\n", a.Type, a.ID, a.Key, outcome)
			if a.Note != "" {
				fmt.Fprintf(&b, "  note: %q\n", a.Note)
			}
		}
	}
	if len(rep.Sent) > 0 {
		b.WriteString("\nSent:\n")
		for _, s := range rep.Sent {
			fmt.Fprintf(&b, "- %s %s\n", s.Type, s.ID)
		}
	}
	return b.String()
}

// gitDirty reports whether the document differs from what its repository
// has committed (or is not tracked yet). The folder may be a landed pack's
// luggage: git runs through gitexec, so nothing its .git names is run.
func gitDirty(ctx context.Context, path string) (bool, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	g, err := gitexec.Open(ctx, dir)
	if err != nil {
		return false, err
	}
	out, err := g.Read(ctx, "status", "--porcelain", "--ignore-submodules=all", "--", base)
	if err != nil {
		return false, err
	}
	return strings.TrimSpace(string(out)) != "", nil
}

// errNotARepository is --commit on a document no git work tree holds: the
// hint is then to run without --commit, not to commit by hand.
var errNotARepository = errors.New("it is not in a git repository")

// gitCommit commits only the document, in the repository that holds it.
func gitCommit(ctx context.Context, path, msg string) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	g, err := gitexec.Open(ctx, dir)
	if err != nil {
		return err
	}
	if out, err := g.Read(ctx, "rev-parse", "--is-inside-work-tree"); err != nil || strings.TrimSpace(string(out)) != "true" {
		return errNotARepository
	}
	if _, err := g.Run(ctx, "add", "--", base); err != nil {
		return err
	}
	_, err = g.Run(ctx, "commit", "--quiet", "--no-verify", "-m", msg, "--", base)
	return err
}
