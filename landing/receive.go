package landing

import (
	"context"
	"fmt"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
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
	// Judged, with DryRun, is Path as Judge read it: the dry run plans
	// from it instead of reading the file again (Limits are the ones Judge
	// was given). It is the caller's word that the file has not changed
	// since (a front end keeps it with the file's identity). A landing
	// (no DryRun) ignores it and reads the file, verifying every byte it
	// writes.
	Judged *Judged
}

// Judged is a pack read, verified and scanned once for a dry run: the pack
// object, every luggage byte checked against its digest, the findings of
// the object and of the luggage. It holds nothing of the store and no open
// file, so a dry run of the unchanged file plans from it again against the
// store as it is then (ReceiveRequest.Judged).
type Judged struct {
	p            *pack.Pack // closed: its object and luggage list, not its bytes
	instr, creds []scan.Finding
	luggage      luggageFindings
}

// Judge reads and verifies the pack at path as a dry run does (every
// luggage byte; D10's limits) and scans it (D5, D13).
func Judge(ctx context.Context, path string, limits pack.Limits) (*Judged, error) {
	p, err := pack.Open(path, pack.Options{Limits: limits, NoRaw: true})
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if p.Object.Obj() == nil {
		return nil, &pack.Error{File: p.Path, Rule: pack.RuleObject, Detail: "the pack object is not a JSON object"}
	}
	j := &Judged{p: p}
	j.instr, j.creds = findings(p.Object)
	if j.luggage, err = scanLuggage(ctx, p.Luggage, p.OpenLuggage, nil); err != nil {
		return nil, err
	}
	return j, nil
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
	j := req.Judged
	if !req.DryRun {
		j = nil
	}
	var p *pack.Pack
	if j != nil {
		// A copy of the object: a lookup may build an object's index, so
		// two dry runs of one judged pack never share one.
		c := *j.p
		c.Object = j.p.Object.Clone()
		p = &c
	} else {
		var err error
		if p, err = pack.Open(req.Path, pack.Options{DeferLuggage: !req.DryRun, Limits: req.Limits, NoRaw: true}); err != nil {
			return nil, err
		}
		defer p.Close()
	}
	rep := &ReceiveReport{Object: p.Object}
	var err error
	if (model.PackObject{V: p.Object}).Kind() == model.KindReceipt || req.Into != "" {
		rep.Plan, err = planMerge(ctx, p, st, req.Into, req.Env, j)
	} else {
		rep.Plan, err = planLanding(ctx, p, st, req.Env, j)
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
		// writes and reports them after. A judged pack was read so.
		if j != nil {
			rep.Plan.addLuggageFindings(j.luggage)
		} else if err := rep.Plan.ScanLuggage(ctx, nil); err != nil {
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
