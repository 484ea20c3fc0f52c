package landing

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/pack/scan"
)

// AskEdit is one change to a stored passport's ask (TaskPack 0.1 §4.3): an
// answer, or a drop.
type AskEdit struct {
	ID     string
	Drop   bool
	Answer string // when not Drop
}

// AsksRequest answers and drops asks of one passport, all together.
type AsksRequest struct {
	ID    string
	Edits []AskEdit
	By    string    // answered_by: actor@machine (D14)
	Now   time.Time // answered_at; zero means time.Now()
}

// EditReport is the passport as saved (or as stored, when there was
// nothing to change) and its version.
type EditReport struct {
	Passport *ojson.Value
	Version  int64
}

// EditAsks records every answer and drop with one expected-version save
// that is re-applied on a conflict, or none of them. With no edits it
// reads the passport.
func EditAsks(ctx context.Context, s *store.Store, req AsksRequest) (*EditReport, error) {
	seen := map[string]bool{}
	for _, e := range req.Edits {
		if seen[e.ID] {
			return nil, fmt.Errorf("ask %q is changed twice in one save", e.ID)
		}
		seen[e.ID] = true
		if !e.Drop {
			if err := RefuseCredentialAnswer(e.ID, e.Answer); err != nil {
				return nil, err
			}
		}
	}
	now := nowOr(req.Now)
	return apply(ctx, s, req.ID, len(req.Edits) > 0, func(v *ojson.Value) error {
		for _, e := range req.Edits {
			var err error
			if e.Drop {
				err = store.DropAsk(v, e.ID)
			} else {
				err = store.AnswerAsk(v, e.ID, e.Answer, req.By, now)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// CredentialError is an answer refused because D5's table finds a
// credential in it: an answer travels home in a receipt and stays in the
// passport (a later checkpoint would keep it), so nothing is written.
type CredentialError struct {
	Ask  string
	Rule string
}

func (e *CredentialError) Error() string {
	return fmt.Sprintf("the answer to ask %s refused: it looks like a credential (%s); a secret never goes into a passport (TaskPack 0.1 §4.1, D5): nothing was written", e.Ask, e.Rule)
}

// RefuseCredentialAnswer is a *CredentialError when answer holds a
// credential by D5's table.
func RefuseCredentialAnswer(id, answer string) error {
	if f := scan.Credentials(answer); len(f) > 0 {
		return &CredentialError{Ask: id, Rule: f[0].Rule}
	}
	return nil
}

// CheckEdit is what a person attests about one landing check (TaskPack 0.1
// §4.4), and the command they confirmed and ran for it, if any (D12).
type CheckEdit struct {
	ID     string
	Status string // passed, failed, skipped or pending; empty keeps it
	// Ran says the person ran Command (the sender's how, or their edit of
	// it) and it exited with Exit; the record says whether it was edited.
	Ran     bool
	Command string
	Exit    int
	At      time.Time // when it ran (run.ran_at); zero means now
}

// ChecksRequest records statuses and runs of one passport's checks.
type ChecksRequest struct {
	ID    string
	Edits []CheckEdit
	By    string    // checked_by: actor@machine (D14)
	Now   time.Time // checked_at; zero means time.Now()
}

// EditChecks records every status and run with one expected-version save
// that is re-applied on a conflict, or none of them. With no edits it
// reads the passport.
func EditChecks(ctx context.Context, s *store.Store, req ChecksRequest) (*EditReport, error) {
	edits := append([]CheckEdit(nil), req.Edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].ID < edits[j].ID })
	for i := 1; i < len(edits); i++ {
		if edits[i].ID == edits[i-1].ID {
			return nil, fmt.Errorf("check %q is changed twice in one save", edits[i].ID)
		}
	}
	now := nowOr(req.Now)
	return apply(ctx, s, req.ID, len(edits) > 0, func(v *ojson.Value) error {
		hows := map[string]string{}
		for _, x := range store.Checks(v) {
			hows[x.ID()] = x.How()
		}
		for _, e := range edits {
			if e.Status != "" {
				if err := store.SetCheck(v, e.ID, e.Status, req.By, now); err != nil {
					return err
				}
			}
			if e.Ran {
				at := now
				if !e.At.IsZero() {
					at = e.At
				}
				run := store.CheckRunRecord{Command: e.Command, Edited: e.Command != hows[e.ID], Exit: e.Exit, By: req.By, At: at}
				if err := store.RecordCheckRun(v, e.ID, run); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// apply reads the passport, or saves it after edit (store.Apply).
func apply(ctx context.Context, s *store.Store, id string, write bool, edit func(*ojson.Value) error) (*EditReport, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !write {
		st, err := s.Get(id)
		if err != nil {
			return nil, err
		}
		return &EditReport{Passport: st.V, Version: st.Version}, nil
	}
	v, err := s.Apply(id, edit)
	if err != nil {
		return nil, err
	}
	version, _ := v.Get("version").Int()
	return &EditReport{Passport: v, Version: version}, nil
}

func nowOr(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}
