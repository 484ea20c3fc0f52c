package actsession

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/sanitize"
)

// SyncRequest is one registrar run over a state document (Acts 0.3 §4), as
// the command line, the UI and the MCP server ask for it.
type SyncRequest struct {
	Document string       // path of the state document (a link is written through)
	Project  string       // part of every key (§6.1)
	Profile  acts.Profile // the Markdown binding
	Secret   []byte       // keyed derivation (§10); nil for plain keys
	DryRun   bool         // compute and report; write nothing
	Commit   bool         // commit the document with git before acknowledging
	Now      time.Time
	// Waiting, when set, is called once if another sync of the project
	// holds its lock and this one waits for it.
	Waiting func()
}

// SyncReport says what a run did (or, in a dry run, would do). Strings
// that came from the document or the log are sanitised for a terminal.
type SyncReport struct {
	Document     string         `json:"document"`
	Project      string         `json:"project"`
	Profile      string         `json:"profile"`
	DryRun       bool           `json:"dry_run"`
	Changed      bool           `json:"changed"`
	Written      bool           `json:"written"`
	Committed    bool           `json:"committed"`
	Sent         []SyncSent     `json:"sent"`
	Applied      []SyncApplied  `json:"applied"`
	Acknowledged []string       `json:"acknowledged"`
	Stamped      int            `json:"stamped"`
	Struck       int            `json:"struck"`
	Added        int            `json:"added"`
	Warnings     []acts.Warning `json:"warnings"`
	LogProblems  []string       `json:"log_problems"`
	// Unauthenticated: the project has no principal, so its settlements
	// were applied unsigned (D19). Rejected: principal-side records whose
	// signature did not verify — left in the log, never applied.
	Unauthenticated bool                 `json:"unauthenticated"`
	Rejected        []recordlog.Rejected `json:"rejected"`
	// Vanished are principal-side records this machine applied that are
	// gone from the log (D19 tamper evidence): nothing was sent or changed
	// for their acts.
	Vanished []recordlog.Vanished `json:"vanished"`
	// Delivered are the notes and relations for the project (§4 step 1:
	// delivered, never applied to the document), each shown once.
	Delivered []SyncDelivered `json:"delivered"`
}

// SyncSent is one record the run sent to the log.
type SyncSent struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Key    string `json:"key"`
	Result string `json:"result,omitempty"` // written, duplicate; empty in a dry run
}

// SyncApplied is one settlement the run applied to the document.
type SyncApplied struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Key     string `json:"key"`
	Outcome string `json:"outcome,omitempty"`
	// Note is the settlement's note: delivered to the project with it
	// (§8), never written to the document.
	Note string `json:"note,omitempty"`
}

// SyncDelivered is a note or relation delivered to the project.
type SyncDelivered struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Key      string `json:"key"`
	Text     string `json:"text,omitempty"`
	Relation string `json:"relation,omitempty"`
	Target   string `json:"target,omitempty"`
}

// NoDocument is the error for a state document that cannot be found: it
// names the file and says what the registrar expects there, rather than
// the lstat that failed. Other errors pass through unchanged.
func NoDocument(path string, err error) error {
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return acts.WithHint(fmt.Errorf("%s: no such state document: %w", sanitize.Line(path), fs.ErrNotExist),
		"a state document is the Markdown file whose \"## Tasks\" section lists what only the principal can do, one \"- [ ] [owner] …\" line each (Acts 0.3 §5); check the path, or start one: printf '## Tasks\\n' > FILE")
}

// commitHint is what to do after --commit failed: commit by hand, or, when
// no repository holds the document, run without --commit.
func commitHint(err error) string {
	if errors.Is(err, errNotARepository) {
		return "settlements stay unacknowledged; run sync again without --commit"
	}
	return "settlements stay unacknowledged; commit by hand and run sync again"
}

// syncHooks are seams for this package's tests; Sync passes none.
type syncHooks struct {
	beforeDocWrite func()
}

// Sync runs the registrar over one project's state document, in the order
// that makes a crash at any point safe to repeat (§4): the records are sent
// to the log (durable, as one batch); only then is the document written
// (temp file, fsync, rename; the file mode kept); with Commit it is
// committed with git; only then are the applied settlements acknowledged.
// Running again re-sends the same record ids.
//
// The report is returned whenever the run got as far as computing it, also
// with an error, so that a front end can show what was sent before the
// failure.
func Sync(ctx context.Context, l *recordlog.Log, req SyncRequest) (*SyncReport, error) {
	return syncWith(ctx, l, req, syncHooks{})
}

func syncWith(ctx context.Context, l *recordlog.Log, req SyncRequest, hooks syncHooks) (*SyncReport, error) {
	// A sync holds the whole log in memory for a moment; collecting half as
	// often trades some memory (about 20%) for CPU time (about 25% less).
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	if err := acts.CheckProjectName(req.Project); err != nil {
		return nil, err
	}
	if req.Now.IsZero() {
		req.Now = time.Now()
	}
	if !req.DryRun {
		// One registrar run per project at a time: another run's write
		// must not land over this one's strike after it acknowledged it.
		wait := req.Waiting
		if wait == nil {
			wait = func() {}
		}
		unlock, err := l.LockProject(req.Project, wait)
		if err != nil {
			return nil, err
		}
		defer unlock()
		// Temporary files a killed writer (a sync, a settle) left in the
		// log go now, not never: only those whose writer is gone.
		durable.SweepTemps(l.RecordsDir(req.Project))
		durable.SweepTemps(l.AckedDir(req.Project))
	}
	path, err := filepath.EvalSymlinks(req.Document) // write through a link, keep the link
	if err != nil {
		return nil, NoDocument(req.Document, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", req.Document)
	}
	if info.Size() > recordlog.MaxStateDocument {
		return nil, &recordlog.TooLargeError{Path: req.Document, Limit: recordlog.MaxStateDocument}
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}

	ld, err := l.Load(req.Project)
	if err != nil {
		return nil, err
	}
	states, errs := acts.States(ld.Records)
	probs := make([]string, 0, len(ld.Problems)+len(errs))
	for _, p := range ld.Problems {
		probs = append(probs, sanitize.Line(p.String()))
	}
	for _, e := range errs {
		probs = append(probs, sanitize.Line(e.Error()))
	}
	probs = append(probs, ld.SigningWarnings()...)
	byKey := make(map[string]*acts.ActState, len(states))
	for k, st := range states {
		byKey[k.Key] = st
	}
	// An applied record of theirs vanished (D19): these acts are left as
	// they are — no vanish claim, no strike, no restore — until the person
	// decides. The registrar sees no act for the key, so it sends nothing.
	for k := range ld.Frozen() {
		delete(byKey, k)
	}
	// An applied record of theirs is no longer trusted (D19: its key was
	// removed as compromised, or the history it rests on was rolled back):
	// its line may be gone because that record struck it, so the act is
	// left as it is too, unless a principal has decided again since (a
	// trusted settlement or reopening not applied yet).
	for _, w := range ld.Withheld {
		st, ok := byKey[w.Key]
		if !ok || (st.SettlementID != "" && !ld.Acked[st.SettlementID]) {
			continue
		}
		delete(byKey, w.Key)
		probs = append(probs, sanitize.Line(fmt.Sprintf("act %s is left as it is: this machine applied %s %s, which is no longer trusted (%s); nothing is sent or changed for it until a principal settles or reopens it again", w.Key, w.Type, w.ID, w.Why)))
	}
	// Run reads restore_text from reopened records only (§3); the report
	// names the applied settlements. Neither needs the whole log by id.
	reopened := map[string]acts.Record{}
	settlements := map[string]acts.Record{}
	for _, st := range byKey {
		if st.SettlementID != "" && !ld.Acked[st.SettlementID] {
			settlements[st.SettlementID] = acts.Record{}
		}
	}
	for _, r := range ld.Records {
		if _, ok := settlements[r.ID]; ok {
			settlements[r.ID] = r
			if r.Type == acts.TypeReopened {
				reopened[r.ID] = r
			}
		}
	}
	out, err := acts.Run(acts.RunInput{
		Document: doc, Profile: req.Profile, Project: req.Project,
		Acts: byKey, Acked: ld.Acked, Records: reopened,
		Now: req.Now.UTC().Format(time.RFC3339), By: "registrar:" + req.Project, Secret: req.Secret,
		Source: filepath.Base(req.Document), RefuseCredentials: true,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", req.Document, err)
	}

	rep := &SyncReport{
		Document: req.Document, Project: sanitize.Line(req.Project), Profile: req.Profile.Name, DryRun: req.DryRun,
		Changed: out.Changed, Stamped: out.Stamped, Struck: out.Struck, Added: out.Added,
		Sent: []SyncSent{}, Applied: []SyncApplied{}, Acknowledged: []string{},
		Warnings: []acts.Warning{}, LogProblems: probs, Delivered: []SyncDelivered{},
		Unauthenticated: ld.Unauthenticated(), Rejected: []recordlog.Rejected{}, Vanished: []recordlog.Vanished{},
	}
	for _, v := range ld.Vanished {
		rep.Vanished = append(rep.Vanished, v.Sanitized())
	}
	for _, rj := range ld.Rejected {
		rep.Rejected = append(rep.Rejected, rj.Sanitized())
	}
	for _, r := range out.Deliver {
		rep.Delivered = append(rep.Delivered, SyncDelivered{ID: sanitize.Line(r.ID), Type: r.Type,
			Key: sanitize.Line(r.Key), Text: sanitize.Line(r.NoteText()), Relation: sanitize.Line(r.Relation), Target: sanitize.Line(r.Target)})
	}
	for _, w := range out.Warnings {
		w.Message = sanitize.Line(w.Message)
		w.Key = sanitize.Line(w.Key)
		rep.Warnings = append(rep.Warnings, w)
	}
	for _, id := range out.Applied {
		a := SyncApplied{ID: sanitize.Line(id)}
		if r, ok := settlements[id]; ok {
			a.Type, a.Key, a.Outcome, a.Note = r.Type, r.Key, r.Outcome, sanitize.Line(r.Note)
		}
		rep.Applied = append(rep.Applied, a)
	}

	// 1. Send, as one batch: durable before anything else happens. A failed
	// send stops here: nothing is stamped for it (§4).
	var results []recordlog.WriteOutcome
	var sendErr error
	if !req.DryRun {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		results, sendErr = l.WriteAll(out.Send)
	}
	for i, r := range out.Send {
		s := SyncSent{ID: sanitize.Line(r.ID), Type: r.Type, Key: r.Key}
		if !req.DryRun {
			if i >= len(results) {
				break
			}
			s.Result = results[i].String()
		}
		rep.Sent = append(rep.Sent, s)
	}
	if sendErr != nil {
		failed := "a record"
		if len(results) < len(out.Send) {
			failed = sanitize.Line(out.Send[len(results)].ID)
		}
		return rep, fmt.Errorf("sending %s: %w (the document was not written)", failed, sendErr)
	}
	if req.DryRun {
		return rep, nil
	}
	// From here on the records are sent; a cancelled context stops before
	// the document changes, and the next run stamps without re-raising.
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	// 2. Write the document durably, 3. commit it if asked.
	if !out.Changed && req.Commit && len(out.Applied) > 0 {
		// Nothing to write, but settlements to acknowledge: an earlier run
		// may have written them without committing (its commit failed).
		// With Commit they are durable only once committed.
		dirty, err := gitDirty(ctx, path)
		if err != nil {
			return rep, acts.WithHint(fmt.Errorf("%s: cannot tell whether the document is committed: %w", req.Document, err), "settlements stay unacknowledged; commit by hand and run sync again")
		}
		if dirty {
			if err := gitCommit(ctx, path, syncCommitMessage(req.Project, rep)); err != nil {
				return rep, acts.WithHint(fmt.Errorf("%s is not committed: %w", req.Document, err), commitHint(err))
			}
			rep.Committed = true
		}
	}
	if out.Changed {
		if hooks.beforeDocWrite != nil {
			hooks.beforeDocWrite()
		}
		if err := replaceDocument(path, doc, out.Document, info.Mode().Perm()); err != nil {
			return rep, err
		}
		rep.Written = true
		if req.Commit {
			if err := gitCommit(ctx, path, syncCommitMessage(req.Project, rep)); err != nil {
				return rep, acts.WithHint(fmt.Errorf("%s was written but not committed: %w", req.Document, err), commitHint(err))
			}
			rep.Committed = true
		}
	}
	// 4. Acknowledge what is now durably in the document, and the notes
	// and relations this report delivers.
	acked := append([]string{}, out.Applied...)
	for _, r := range out.Deliver {
		acked = append(acked, r.ID)
	}
	// The ledger first: it is what this machine believes (D19); acked/
	// is for the log's other readers, and a crash between the two only
	// leaves an acknowledgement to write again.
	if err := l.NoteAppliedRecords(ld, out.Applied, out.Deliver); err != nil {
		return rep, err
	}
	if err := l.Ack(req.Project, acked...); err != nil {
		return rep, err
	}
	for _, id := range out.Applied {
		rep.Acknowledged = append(rep.Acknowledged, sanitize.Line(id))
	}
	return rep, nil
}

// errDocumentChanged is returned when the document changed between the
// read and the write of one run.
var errDocumentChanged = errors.New("changed while tp was syncing it; nothing was written")
