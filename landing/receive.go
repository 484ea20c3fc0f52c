package landing

import (
	"context"
	"fmt"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// ReceiveRequest is a pack file taken in by a front end that decides
// everything before it starts (the MCP server, the task-passport drop-in):
// no person looks at the plan between planning and landing.
type ReceiveRequest struct {
	Path string
	// Name is what the pack is called in the plan and the records when it
	// is not Path: the sealed file a decrypted copy came from (D22).
	Name      string
	Into      string // a receipt's target when it is not the one D6 finds; "" for D6's
	DryRun    bool   // plan and read every byte; write nothing
	Decisions Decisions
	Env       Env
	Limits    pack.Limits // zero: the defaults (D10)
	// Senders is the person's ring of trusted pack senders (D22): the
	// plan's signer is looked up in it. nil: every signer is unknown.
	Senders Senders
	// TrustSender trusts an unknown signer under this name once the pack
	// has landed (the person's explicit word, --trust-sender). A dry run
	// trusts nothing.
	TrustSender string
	// Show, when set, is given the decided plan before anything is written
	// (after a dry run has read every byte): a front end that shows the
	// plan first (tp land) prints it here. An error stops the job with
	// nothing written.
	Show func(*Plan) error
}

// ReceiveReport says what was planned and done.
type ReceiveReport struct {
	// Object is the pack object as read (after the lenient repairs the
	// plan lists): its origin, lineage and passport, for front ends that
	// show them as the pack carried them.
	Object *ojson.Value
	Plan   *Plan
	Landed *Landed // a handoff landed as a new passport
	Merged *Merged // a receipt merged into the passport that asked
	// Verdict is the receiver verdict (D23) with the request's decisions:
	// what the landing leaves open (a dry run says what it would).
	Verdict Verdict
}

// Receive opens a pack and plans its landing — a receipt (or any pack with
// Into) as a merge, a handoff as a new passport — then, unless DryRun,
// lands or merges it with req.Decisions. A dry run reads every luggage byte
// first (to list credential-like strings); a landing verifies the luggage
// as it extracts it. A file landed before is refused unless
// Decisions.Again. Nothing is written when an error is returned.
func Receive(ctx context.Context, st *store.Store, req ReceiveRequest) (*ReceiveReport, error) {
	if req.TrustSender != "" && !sshsign.ValidPrincipal(req.TrustSender) {
		return nil, &pack.Error{File: req.Path, Rule: RuleDecision, Detail: fmt.Sprintf("--trust-sender %q: a name is one word, no spaces, commas, quotes, '#' or wildcards", req.TrustSender)}
	}
	p, err := pack.Open(req.Path, pack.Options{DeferLuggage: !req.DryRun, Limits: req.Limits, NoRaw: true})
	if err != nil {
		return nil, err
	}
	defer p.Close()
	rep := &ReceiveReport{Object: p.Object}
	if (model.PackObject{V: p.Object}).Kind() == model.KindReceipt || req.Into != "" {
		rep.Plan, err = PlanMerge(ctx, p, st, req.Into, req.Env)
	} else {
		rep.Plan, err = PlanLanding(ctx, p, st, req.Env)
	}
	if err != nil {
		return nil, err
	}
	// Refuse before a plan is shown that will not be carried out: a
	// decision naming nothing in the pack, or a file landed before (a dry
	// run shows the plan with a note instead).
	if err := req.Decisions.Validate(rep.Plan); err != nil {
		return nil, err
	}
	if pl := rep.Plan; pl.Merge == nil && pl.AlreadyLandedAs != "" && !req.Decisions.Again && !req.DryRun {
		return nil, &pack.Error{File: pl.File, Rule: RuleAlreadyLanded, Detail: "this file was already landed as " + pl.AlreadyLandedAs}
	}
	if req.Name != "" {
		rep.Plan.File = req.Name
	}
	rep.Plan.ResolveSigner(req.Senders)
	if req.TrustSender != "" && rep.Plan.Signer.State == SignerUnsigned {
		return nil, &pack.Error{File: rep.Plan.File, Rule: RuleDecision, Detail: "--trust-sender: the pack is unsigned, so there is no key to trust"}
	}
	rep.Plan.Decide(req.Decisions)
	rep.Verdict = rep.Plan.Verdict(req.Decisions)
	if req.DryRun {
		// Nothing will be written, so read the luggage now to list every
		// credential-like string in it; a landing finds them while it
		// writes and reports them after.
		if err := rep.Plan.ScanLuggage(ctx); err != nil {
			return nil, err
		}
	}
	if req.Show != nil {
		if err := req.Show(rep.Plan); err != nil {
			return nil, err
		}
	}
	if req.DryRun {
		return rep, nil
	}
	if rep.Plan.Merge != nil {
		rep.Merged, err = Merge(ctx, p, rep.Plan, st, req.Decisions)
	} else {
		rep.Landed, err = Land(ctx, p, rep.Plan, st, req.Decisions)
	}
	if err != nil {
		return nil, err
	}
	if req.TrustSender != "" {
		// After the landing: a pack that did not land trusts nobody.
		if err := rep.Plan.TrustSigner(req.Senders, req.TrustSender, req.Env.now()); err != nil {
			return rep, fmt.Errorf("landed, but the sender was not trusted: %w", err)
		}
	}
	return rep, nil
}
