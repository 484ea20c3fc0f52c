package landing

import (
	"context"
	"fmt"
	"io"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
)

// Env is who and where the landing happens (D14) and the clock.
type Env struct {
	Machine string           // this machine: hostname unless TP_MACHINE
	Actor   string           // the person landing: --actor, TP_ACTOR, git user.name, $USER
	Now     func() time.Time // nil means time.Now
}

func (e Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e Env) by() string { return e.Actor + "@" + e.Machine }

// Plan is the landing plan (TaskPack §3.1, §4.2–§4.5; docs/architecture.md, jobs 2
// and 3): everything a person must see before a pack lands, as data. Every
// string in it that came from the pack is the pack's own text, unsanitised:
// a renderer passes each one through internal/sanitize (D11) and quotes it as
// the sender's. The JSON tags are the --json shape.
//
// A plan is made by PlanLanding (a handoff) or PlanMerge (a receipt; then
// Merge is set) and consumed by Land or Merge with the person's Decisions.
// Making a plan writes nothing.
type Plan struct {
	File     string        `json:"file"`
	Encoding pack.Encoding `json:"encoding"`
	Kind     string        `json:"kind"`
	SHA256   string        `json:"sha256"` // of the pack file: how "already landed" is recognised
	// ObjectSHA256 is the digest of the pack object in its canonical form
	// (D1): the same in both encodings (C9), so the same pack converted is
	// recognised too.
	ObjectSHA256 string `json:"object_sha256"`
	// ContentSHA256 is what the pack is: its object (as ObjectSHA256) and
	// every luggage file's name and digest. The same in both encodings; two
	// receipts packed from one passport version with different luggage, or
	// a handoff re-sent with corrected luggage, differ here (issue 11).
	ContentSHA256 string `json:"content_sha256"`

	// ID is the new local passport id a handoff lands as (§3.1); empty for
	// a receipt, which lands into Merge.Target.
	ID       string `json:"id,omitempty"`
	FilesDir string `json:"files_dir,omitempty"` // where the luggage goes

	// Signer is who signed the pack (D22), shown first: unsigned, a key the
	// person trusts (with the name they gave it), or one they have not seen.
	Signer    Signer      `json:"signer"`
	Sender    Sender      `json:"sender"`
	Lineage   PlanLineage `json:"lineage"`
	Title     string      `json:"title"`
	Goal      string      `json:"goal"`
	Note      string      `json:"note"`
	Integrity Integrity   `json:"integrity"`

	// Checks are the landing checks, required ones first (§4.4).
	Checks []PlanCheck `json:"landing_checks"`
	// Facts are every fact with its seal (§4.2).
	Facts []PlanFact `json:"facts"`
	// OwnLineage is the chain entry this store sent a pack from (or whose
	// content identity it produced); "" when the lineage passes through no
	// pack of this store's, and --trust-own-facts then restores nothing
	// (TaskPack 0.1 §4.2, issue 18).
	OwnLineage string `json:"own_lineage,omitempty"`
	// Asks are the pack's asks (§4.3).
	Asks []PlanAsk `json:"asks"`
	// Instructions are instruction fields and text that reads like an
	// instruction (§4.5, D13): reported, quoted, never acted on.
	Instructions []scan.Finding `json:"instructions"`
	// Credentials are credential-like strings and transcript-like text
	// (D5). Landing warns; it does not refuse.
	Credentials []scan.Finding `json:"credentials"`
	// Repairs are what the lenient read had to fix (D4).
	Repairs []pack.Repair `json:"repairs"`
	// Luggage is each file and where it will be written.
	Luggage []PlanLuggage `json:"luggage"`
	// GitDirs are luggage folders holding git metadata (".git/"): data,
	// but a folder whose config can make git run programs (GitDirs).
	GitDirs []string `json:"git_dirs"`
	// NextSteps are in the order §4.4 demands: required landing checks,
	// re-verification of sealed facts, open asks, then the sender's own
	// next steps. Land writes them as the passport's next_steps.
	NextSteps []Step `json:"next_steps"`
	// AlreadyLandedAs names the passport this very file (by SHA256) was
	// landed as before; Land refuses unless Decisions.Again.
	AlreadyLandedAs string `json:"already_landed_as,omitempty"`
	// Warnings are one line each for a person (lineage gaps, stray store
	// files, anything else worth knowing before landing).
	Warnings []string `json:"warnings"`

	// Merge is set on a receipt's plan: what the merge will change.
	Merge *MergePreview `json:"merge,omitempty"`

	obj     *ojson.Value // the pack object as read (repaired by the lenient read)
	luggage []pack.Luggage
	// landAs: the luggage names that land under another name (D10-git).
	landAs map[string]string
	open   func(name string) (io.ReadCloser, error)
	env    Env
	// pin is the receipt signer to record for the version answered once
	// the merge is saved (D22: trust on first use); "" for none.
	pin        string
	pinVersion int64
	// stepsFor is what NextSteps were made for, when steps made them: Land
	// takes them instead of making the same list again (issue 20: 55,000
	// steps for a pack of 110,000 facts).
	stepsFor *stepKey
}

// stepKey is what of the Decisions the next steps depend on, copied.
type stepKey struct {
	checks, answers map[string]string
	trust           bool
}

func keyOf(d Decisions) *stepKey {
	return &stepKey{checks: maps.Clone(d.CheckStatus), answers: maps.Clone(d.Answers), trust: d.TrustOwnFacts}
}

func (k *stepKey) same(d Decisions) bool {
	return k != nil && k.trust == d.TrustOwnFacts && maps.Equal(k.checks, d.CheckStatus) && maps.Equal(k.answers, d.Answers)
}

// setSteps makes NextSteps for d, unless they were made for the same
// decisions already: planning makes them for none, and Decide with none
// (every headless landing without --check) made all 55,000 of a big pack's
// again, 10 MB of garbage at the top of the landing's heap (issue 20).
func (pl *Plan) setSteps(d Decisions) {
	if pl.NextSteps != nil && pl.stepsFor.same(d) {
		return
	}
	pl.NextSteps, pl.stepsFor = pl.steps(d), keyOf(d)
}

// stepsOf are the next steps for d: NextSteps when they were made for the
// same decisions, else made now.
func (pl *Plan) stepsOf(d Decisions) []Step {
	if pl.stepsFor.same(d) {
		return pl.NextSteps
	}
	return pl.steps(d)
}

// Sender is who packed and from which passport (§3).
type Sender struct {
	Actor      string `json:"actor"`
	Machine    string `json:"machine"`
	Harness    string `json:"harness"`
	PassportID string `json:"passport_id"`
	Version    int64  `json:"version"`
	PackedAt   string `json:"packed_at"`
}

// By is "<actor>@<machine>", how the sender's suggestions are attributed (D12).
func (s Sender) By() string { return s.Actor + "@" + s.Machine }

// PlanLineage is the pack's lineage (§3) and, for a receipt, its target.
type PlanLineage struct {
	RootID      string   `json:"root_id"`
	FromVersion int64    `json:"from_version"`
	Chain       []string `json:"chain"`
}

// Integrity says how the pack's bytes were vouched for.
type Integrity struct {
	Verified     bool   `json:"verified"`
	How          string `json:"how"`
	LuggageFiles int    `json:"luggage_files"`
	LuggageBytes int64  `json:"luggage_bytes"`
	Unvouched    int    `json:"unvouched"` // flat attachments that declared no sha256
}

// PlanCheck is one landing check (§4.4). How is the sender's suggestion,
// never an instruction: SuggestedBy says whose, and nothing headless runs it.
type PlanCheck struct {
	ID          string `json:"id"`
	Check       string `json:"check"`
	How         string `json:"how"`
	SuggestedBy string `json:"suggested_by"` // "suggested by <actor>@<machine>"
	Required    bool   `json:"required"`
	Status      string `json:"status"` // pending unless decided
}

// PlanFact is one fact and its seal (§4.2).
type PlanFact struct {
	Index      int    `json:"index"`
	Claim      string `json:"claim"`
	Scope      string `json:"scope"` // as written; "" when the fact has none (counts as machine)
	Verified   bool   `json:"verified"`
	Sealed     bool   `json:"sealed"`
	VerifiedOn string `json:"verified_on,omitempty"`
	// Evidence, Source and SourceActor are the fact's own words on how it
	// was proven and who asserted it (the sender's, shown as such).
	Evidence    string `json:"evidence,omitempty"`
	Source      string `json:"source,omitempty"`
	SourceActor string `json:"source_actor,omitempty"`
	// ThisMachine says verified_on names this machine: only then may
	// --trust-own-facts restore the ✓ (§4.2).
	ThisMachine bool `json:"this_machine"`
	// Restorable says --trust-own-facts will restore it: verified_on names
	// this machine and the pack's lineage passes through a pack this store
	// made (Plan.OwnLineage; issue 18). NotRestorable says why a fact
	// verified on this machine is not.
	Restorable    bool   `json:"restorable"`
	NotRestorable string `json:"not_restorable,omitempty"`
}

// PlanAsk is one ask (§4.3).
type PlanAsk struct {
	ID         string `json:"id"`
	To         string `json:"to"`
	What       string `json:"what"`
	Why        string `json:"why"`
	Accept     string `json:"accept"`
	Status     string `json:"status"`
	Answer     string `json:"answer,omitempty"`
	AnsweredBy string `json:"answered_by,omitempty"`
	AnsweredAt string `json:"answered_at,omitempty"`
}

// PlanLuggage is one luggage file and where it lands.
type PlanLuggage struct {
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
	To     string `json:"to"`
	// LandsAs is the name the file lands under when it is not Name: a
	// repository's metadata, disarmed (D10-git).
	LandsAs string `json:"lands_as,omitempty"`
}

// Step kinds, in the order §4.4 demands.
const (
	StepCheck    = "landing-check"
	StepReverify = "re-verify"
	StepAsk      = "ask"
	StepSender   = "sender"
)

// Step is one next step of the landed passport.
type Step struct {
	Kind string `json:"kind"`
	Ref  string `json:"ref,omitempty"` // check id, fact index, ask id
	Text string `json:"text"`
}

// PlanLanding makes the landing plan for a handoff (docs/architecture.md, job 2). It
// mints the new local id (§3.1) and says where the luggage will go
// (st.FilesDir of that id; Decisions.FilesOut moves it). A receipt is
// refused here: it is merged, never landed as a new passport (§4.4.1) — use
// PlanMerge.
func PlanLanding(ctx context.Context, p *pack.Pack, st *store.Store, env Env) (*Plan, error) {
	return planLanding(ctx, p, st, env, nil)
}

// planLanding is PlanLanding, from j's findings when j is not nil.
func planLanding(ctx context.Context, p *pack.Pack, st *store.Store, env Env, j *Judged) (*Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pl, err := newPlan(p, env, j)
	if err != nil {
		return nil, err
	}
	if pl.Kind != model.KindHandoff {
		return nil, &pack.Error{File: p.Path, Rule: RuleReceiptNotLanded,
			Detail: "this is a " + pl.Kind + "; a receipt is merged into the passport that asked (tp land without --into finds it), never landed as a new passport (§4.4.1)"}
	}
	id, err := st.NewID()
	if err != nil {
		return nil, err
	}
	pl.ID = id
	pl.FilesDir = st.FilesDir(id)
	pl.placeLuggage(pl.FilesDir)
	landed, warn := findLanded(st, pl.id())
	pl.AlreadyLandedAs = landed
	pl.Warnings = append(pl.Warnings, warn...)
	pl.checkOwnLineage(st)
	pl.setSteps(Decisions{})
	return pl, nil
}

// NotOwnLineage is why a fact verified on this machine is not restored.
const NotOwnLineage = "not restored: the pack's lineage passes through no pack this store made, so verified_on is only the sender's word (TaskPack 0.1 §4.2: restoring belongs to packs the receiver made itself)"

// checkOwnLineage sets OwnLineage to the first chain entry (<id>@<version>)
// this store recorded sending a pack from, or whose content identity it
// produced, and marks which facts --trust-own-facts may restore.
func (pl *Plan) checkOwnLineage(st *store.Store) {
	pl.OwnLineage, pl.stepsFor = "", nil // which facts are restorable may change
	for _, e := range pl.Lineage.Chain {
		id, v, ok := model.SplitChainEntry(e)
		if !ok || store.ValidID(id) != nil {
			continue
		}
		packs, _, err := st.Sent(id)
		if err != nil {
			continue
		}
		for _, p := range packs {
			if p.Version == v || p.ContentSHA256 == pl.ContentSHA256 {
				pl.OwnLineage = e
				break
			}
		}
		if pl.OwnLineage != "" {
			break
		}
	}
	mark := func(fs []PlanFact) {
		for i := range fs {
			f := &fs[i]
			f.Restorable = f.ThisMachine && pl.OwnLineage != ""
			f.NotRestorable = ""
			if f.ThisMachine && !f.Restorable {
				f.NotRestorable = NotOwnLineage
			}
		}
	}
	mark(pl.Facts)
	if pl.Merge != nil {
		mark(pl.Merge.FactsAdded)
	}
}

// Rules this file and merge.go add to the ones in refuse.go.
const (
	RuleReceiptNotLanded = "§4.4.1 receipt-not-landed" // a receipt given to a handoff landing
	RuleHandoffMerge     = "§4.4.1 handoff-not-merged" // a handoff given to a merge
	RuleReceiptTarget    = "§4.4.1 receipt-target"     // --into names another passport, or no target
	RuleTargetMissing    = "§4.4.1 target-missing"     // the target is not in the store
	RuleAlreadyLanded    = "already-landed"            // the same file landed before
	RuleNeverSent        = "§4.4.1 never-sent"         // a receipt answers a version this store never sent
	RuleReceiptKey       = "D22 receipt-key"           // a receipt not signed by the key its handoff went to
	RuleDecision         = "decision"                  // a decision naming no check or ask
)

// newPlan fills the parts of a plan that handoffs and receipts share: the
// object's findings are j's when j is not nil (a pack judged before).
func newPlan(p *pack.Pack, env Env, j *Judged) (*Plan, error) {
	obj := p.Object
	if obj.Obj() == nil {
		return nil, &pack.Error{File: p.Path, Rule: pack.RuleObject, Detail: "the pack object is not a JSON object"}
	}
	po := model.PackObject{V: obj}
	lin := po.Lineage()
	o := po.Origin()
	pp := po.Passport()
	pl := &Plan{
		File:          p.Path,
		Encoding:      p.Encoding,
		Kind:          po.Kind(),
		SHA256:        p.Digest,
		ObjectSHA256:  p.ObjectSHA256,
		ContentSHA256: contentDigest(p.ObjectSHA256, p.Luggage),
		Title:         pp.Title(),
		Goal:          pp.Goal(),
		Note:          po.Note(),
		Lineage:       PlanLineage{RootID: lin.RootID, FromVersion: lin.FromVersion, Chain: lin.Chain},
		Repairs:       append([]pack.Repair{}, p.Repairs...),
		Signer:        signerOf(p.Signature),
		obj:           obj,
		luggage:       p.Luggage,
		open:          p.OpenLuggage,
		env:           env,
	}
	if pl.Lineage.Chain == nil {
		pl.Lineage.Chain = []string{}
	}
	pl.Sender = Sender{Actor: o.Actor, Machine: o.Machine, Harness: o.Harness, PackedAt: po.PackedAt()}
	if id, v, ok := lin.Sender(); ok {
		pl.Sender.PassportID, pl.Sender.Version = id, v
	} else {
		pl.Sender.PassportID, pl.Sender.Version = pp.ID(), pp.Version()
	}
	if !lin.HasRootID {
		pl.Warnings = append(pl.Warnings, "lineage has no root_id (§3): the chain this task came through is incomplete")
	}
	if !lin.HasFromVersion {
		pl.Warnings = append(pl.Warnings, "lineage has no from_version (§3)")
	}
	if len(lin.Chain) == 0 {
		pl.Warnings = append(pl.Warnings, "lineage has no chain (§3): the sender is not named")
	}

	pl.Integrity = Integrity{Verified: p.LuggageVerified, LuggageFiles: len(p.Luggage)}
	switch {
	case p.Encoding == pack.EncodingBag && !p.LuggageVerified:
		pl.Integrity.How = "BagIt manifests (sha256) checked; each luggage file is verified against them as it lands, and nothing lands if one does not match"
	case p.Encoding == pack.EncodingBag:
		pl.Integrity.How = "BagIt manifests (sha256) verified"
	default:
		pl.Integrity.How = "attachment sha256 digests verified"
	}
	for _, l := range p.Luggage {
		pl.Integrity.LuggageBytes += l.Size
		if l.SHA256 == "" {
			pl.Integrity.Unvouched++
		}
	}
	if pl.Integrity.Unvouched > 0 {
		pl.Integrity.How += "; " + plural.N(pl.Integrity.Unvouched, "attachment") + " declared no sha256 and " + plural.Word(pl.Integrity.Unvouched, "is", "are") + " vouched for by nobody"
	}

	by := "suggested by " + pl.Sender.By()
	var req, opt []PlanCheck
	for _, c := range po.LandingChecks() {
		pc := PlanCheck{ID: c.ID(), Check: c.Check(), How: c.How(), SuggestedBy: by, Required: c.Required(), Status: model.CheckPending}
		if pc.Required {
			req = append(req, pc)
		} else {
			opt = append(opt, pc)
		}
	}
	pl.Checks = append(append([]PlanCheck{}, req...), opt...)

	pl.Facts = make([]PlanFact, 0, len(pp.V.Get("facts").Items()))
	for i, f := range pp.Facts() {
		pf := PlanFact{Index: i, Claim: f.Claim(), Scope: f.Scope(), Verified: f.Verified(), Sealed: f.Sealed(), VerifiedOn: f.VerifiedOn(),
			Evidence: f.Evidence(), Source: f.Source(), SourceActor: f.SourceActor()}
		pf.ThisMachine = pf.Sealed && pf.VerifiedOn != "" && pf.VerifiedOn == env.Machine
		pl.Facts = append(pl.Facts, pf)
	}
	for _, a := range po.Asks() {
		pl.Asks = append(pl.Asks, planAsk(a))
	}
	if j != nil {
		// Copies: the plan appends to them, and j is shared.
		pl.Instructions, pl.Credentials = slices.Clone(j.instr), slices.Clone(j.creds)
	} else {
		pl.Instructions, pl.Credentials = findings(obj)
	}
	for _, l := range p.Luggage {
		// A luggage name is as visible as its bytes (issue 18, D5).
		for _, x := range scan.Credentials(l.Name) {
			x.Where = "data/files/" + l.Name + " (its name)"
			pl.Credentials = append(pl.Credentials, x)
		}
	}
	names := make([]string, len(p.Luggage))
	for i, l := range p.Luggage {
		names[i] = l.Name
	}
	pl.GitDirs, pl.landAs = pack.RepoMetadata(names)
	if len(pl.GitDirs) > 0 {
		pl.Warnings = append(pl.Warnings, gitDirWarning(pl.GitDirs, pl.landAs, names))
	} else {
		pl.GitDirs = []string{}
	}
	if pl.Checks == nil {
		pl.Checks = []PlanCheck{}
	}
	if pl.Facts == nil {
		pl.Facts = []PlanFact{}
	}
	if pl.Asks == nil {
		pl.Asks = []PlanAsk{}
	}
	if pl.Repairs == nil {
		pl.Repairs = []pack.Repair{}
	}
	if pl.Warnings == nil {
		pl.Warnings = []string{}
	}
	pl.Luggage = []PlanLuggage{}
	return pl, nil
}

func planAsk(a model.Ask) PlanAsk {
	return PlanAsk{ID: a.ID(), To: a.To(), What: a.What(), Why: a.Why(), Accept: a.Accept(),
		Status: a.Status(), Answer: answerText(a.V.Get("answer")), AnsweredBy: a.AnsweredBy(), AnsweredAt: a.AnsweredAt()}
}

// answerText shows an answer that may be any JSON value.
func answerText(v *ojson.Value) string {
	switch v.Kind() {
	case ojson.Null:
		return ""
	case ojson.String:
		return v.Text()
	}
	return string(ojson.Compact(v))
}

// placeLuggage says where each luggage file will be written.
func (pl *Plan) placeLuggage(dir string) {
	pl.Luggage = pl.Luggage[:0]
	for _, l := range pl.luggage {
		as := pl.landAs[l.Name]
		on := l.Name
		if as != "" {
			on = as
		}
		pl.Luggage = append(pl.Luggage, PlanLuggage{Name: l.Name, Bytes: l.Size, SHA256: l.SHA256, LandsAs: as,
			To: filepath.Join(dir, filepath.FromSlash(path.Clean(on)))})
	}
}

// steps orders the next steps as §4.4 demands: required landing checks
// first (those not yet attested passed or skipped), then re-verification of
// each fact still sealed, then open asks, then the sender's own steps.
func (pl *Plan) steps(d Decisions) []Step {
	// Sized for every step it can make: a pack of 110,000 facts makes
	// 55,000 re-verification steps, and growing the list was half of
	// what the steps cost (issue 20); sized for every fact, it was
	// 2.6 MB more than the sealed half needs.
	sealed := 0
	for i := range pl.Facts {
		if pl.Facts[i].Sealed {
			sealed++
		}
	}
	out := make([]Step, 0, len(pl.Checks)+sealed+len(pl.Asks)+len((model.PackObject{V: pl.obj}).Passport().V.Get("next_steps").Items()))
	for _, c := range pl.Checks {
		if !c.Required {
			continue
		}
		if s := d.CheckStatus[c.ID]; s == model.CheckPassed || s == model.CheckSkipped {
			continue
		}
		out = append(out, Step{Kind: StepCheck, Ref: c.ID, Text: store.CheckStepText(c.ID, c.Check)})
	}
	out = pl.reverifySteps(out, d.TrustOwnFacts)
	for _, a := range pl.Asks {
		if a.Status != model.AskOpen {
			continue
		}
		if _, answered := d.Answers[a.ID]; answered {
			continue
		}
		out = append(out, Step{Kind: StepAsk, Ref: a.ID, Text: store.AskStepText(a.ID, a.What, a.Accept)})
	}
	for _, s := range (model.PackObject{V: pl.obj}).Passport().NextSteps() {
		out = append(out, Step{Kind: StepSender, Text: s})
	}
	return out
}

// reverifySteps appends a re-verification step for each fact still sealed
// (restore: --trust-own-facts, which restores the restorable ones). Their
// texts and refs are cut from one string built for all of them: a pack of
// 110,000 facts makes 55,000 steps, and two allocations a step (each with
// its size class's slack) were 110,000 objects for the collector to trace
// while the landing runs (issue 20).
func (pl *Plan) reverifySteps(out []Step, restore bool) []Step {
	const before, mid = "Re-verify before relying on it (proven only on ", "): "
	reverify := func(f *PlanFact) bool { return f.Sealed && !(restore && f.Restorable) }
	on := func(f *PlanFact) string {
		if f.VerifiedOn == "" {
			return "another machine"
		}
		return f.VerifiedOn
	}
	size := 0
	for i := range pl.Facts {
		if f := &pl.Facts[i]; reverify(f) {
			size += len(before) + len(on(f)) + len(mid) + len(f.Claim) + decimalLen(f.Index)
		}
	}
	if size == 0 {
		return out
	}
	var b strings.Builder
	b.Grow(size)
	var num [20]byte
	for i := range pl.Facts {
		if f := &pl.Facts[i]; reverify(f) {
			b.Write(strconv.AppendInt(num[:0], int64(f.Index), 10))
			b.WriteString(before)
			b.WriteString(on(f))
			b.WriteString(mid)
			b.WriteString(f.Claim)
		}
	}
	all, at := b.String(), 0
	for i := range pl.Facts {
		if f := &pl.Facts[i]; reverify(f) {
			ref := at + decimalLen(f.Index)
			end := ref + len(before) + len(on(f)) + len(mid) + len(f.Claim)
			out = append(out, Step{Kind: StepReverify, Ref: all[at:ref], Text: all[ref:end]})
			at = end
		}
	}
	return out
}

// decimalLen is the length of strconv.Itoa(n).
func decimalLen(n int) int {
	l := 1
	if n < 0 {
		l, n = 2, -n
	}
	for ; n >= 10; n /= 10 {
		l++
	}
	return l
}

// Decide shows the person's decisions in the plan before landing: each
// attested check's status, and the next steps as they will be written
// (a check attested passed or skipped, a restored fact, an ask answered
// leaves the list). A TUI calls it as the person decides; Land applies the
// same decisions whether or not Decide was called.
func (pl *Plan) Decide(d Decisions) {
	for i, c := range pl.Checks {
		pl.Checks[i].Status = model.CheckPending
		if s, ok := d.CheckStatus[c.ID]; ok && s != "" {
			pl.Checks[i].Status = s
		}
	}
	if pl.Merge == nil {
		pl.setSteps(d)
	}
}

// ScanLuggage reads every luggage file once and adds what it holds to the
// plan: credential-like strings to pl.Credentials, instruction-like
// sentences in its text to pl.Instructions, a warning for a transcript
// (D5, D13: landing warns, it does not refuse). Land and Merge scan while
// they write, so a landing does not need it; a dry run or a UI that shows
// the whole picture before the person decides calls it. It streams with
// bounded memory, honours ctx, and reports the bytes read to progress
// (when not nil).
func (pl *Plan) ScanLuggage(ctx context.Context, progress func(done, total int64)) error {
	lf, err := scanLuggage(ctx, pl.luggage, pl.open, progress)
	if err != nil {
		return err
	}
	pl.addLuggageFindings(lf)
	return nil
}

// luggageFindings are what the luggage's bytes hold that a plan lists:
// credential-like strings, instruction-like sentences in text, and a
// warning for each transcript.
type luggageFindings struct {
	creds, instr []scan.Finding
	warnings     []string
}

// scanLuggage reads every luggage file once through open (ScanLuggage).
func scanLuggage(ctx context.Context, luggage []pack.Luggage, open func(string) (io.ReadCloser, error), progress func(done, total int64)) (luggageFindings, error) {
	var lf luggageFindings
	if len(luggage) == 0 {
		return lf, nil // no buffer to allocate and clear, per dry run (issue 16)
	}
	var done, total int64
	for _, l := range luggage {
		total += l.Size
	}
	buf := make([]byte, 1<<20)
	for _, l := range luggage {
		r, err := open(l.Name)
		if err != nil {
			return lf, err
		}
		sc := scan.NewLuggageScanner(l.Name)
		for {
			if err := ctx.Err(); err != nil {
				r.Close()
				sc.Findings() // ends a look inside a gzip
				return lf, err
			}
			n, rerr := r.Read(buf)
			sc.Write(buf[:n])
			if done += int64(n); progress != nil && n > 0 {
				progress(done, total)
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				r.Close()
				sc.Findings()
				return lf, rerr
			}
		}
		r.Close()
		lf.add(sc)
	}
	return lf, nil
}

// add finishes sc's scan and adds what it found: its credentials; from
// text luggage, a warning for a transcript and every finding listed with
// the object's instructions (issue 18, D5, D13). A dry run and a landing
// (which scans while it writes) report the same through it.
func (lf *luggageFindings) add(sc *scan.LuggageScanner) {
	lf.creds = append(lf.creds, sc.Findings()...)
	for _, f := range sc.TextFindings() {
		if f.Class == scan.Transcript {
			lf.warnings = append(lf.warnings, "luggage "+f.Where+" looks like a chat transcript ("+f.Rule+"); a conformant writer refuses it (§4.1, D5)")
		}
		lf.instr = append(lf.instr, f)
	}
}

// warningsAfter is what a landing or merge that wrote the luggage tells the
// person: each credential-like string (D5: landing warns, it does not
// refuse; done says what was done anyway) and each transcript.
func (lf luggageFindings) warningsAfter(done string) []string {
	var out []string
	for _, f := range lf.creds {
		out = append(out, "luggage "+f.Where+" looks like it carries a credential ("+f.Rule+"); "+done+" anyway (D5: landing warns)")
	}
	return append(out, lf.warnings...)
}

// addLuggageFindings adds what scanLuggage found to the plan, and the keys
// split out of every credential it lists.
func (pl *Plan) addLuggageFindings(lf luggageFindings) {
	pl.Credentials = append(pl.Credentials, lf.creds...)
	pl.Warnings = append(pl.Warnings, lf.warnings...)
	pl.Instructions = append(pl.Instructions, lf.instr...)
	pl.Credentials = append(pl.Credentials, scan.SplitKeys(pl.Credentials)...)
}

// packID is how a pack is recognised in the store: the file's digest, and
// its content's (the other encoding of the same pack).
type packID struct {
	file, object, content string
	luggage               bool // the pack carries luggage
}

func (pl *Plan) id() packID {
	return packID{file: pl.SHA256, object: pl.ObjectSHA256, content: pl.ContentSHA256, luggage: len(pl.luggage) > 0}
}

// contentDigest is a pack's identity whatever its encoding: the digest of
// its object's digest and of each luggage file's name and digest, by name.
// The luggage folder name never decides it.
func contentDigest(object string, luggage []pack.Luggage) string {
	return pack.ContentSHA256Of(object, luggage)
}

// sameDigest reports whether a landed_from or receipts_merged record names
// this pack: by file digest, or by content digest (the other encoding). A
// record written before content digests were recorded names only the
// object: it is this pack only when the pack carries no luggage, since
// nothing says what luggage it came with.
func sameDigest(rec *ojson.Value, id packID) bool {
	if id.file != "" && rec.Get("sha256").Text() == id.file {
		return true
	}
	if c, ok := rec.Get("content_sha256").Str(); ok && c != "" {
		return id.content != "" && c == id.content
	}
	return !id.luggage && id.object != "" && rec.Get("object_sha256").Text() == id.object
}

// sameObjectOnly reports a record of a pack with this object but other
// luggage: a new pack, which the plan names as such.
func sameObjectOnly(rec *ojson.Value, id packID) bool {
	return id.object != "" && rec.Get("object_sha256").Text() == id.object && !sameDigest(rec, id)
}

// findLanded finds the passport a pack with this digest was landed as,
// from the store's memory of where each passport came from (EachLanded),
// which reads only the passports that changed since it last looked.
func findLanded(st *store.Store, id packID) (string, []string) {
	if id.file == "" && id.object == "" {
		return "", nil
	}
	var found string
	var similar []string
	skipped, err := st.EachLanded(func(e store.Landed) bool {
		if sameDigest(e.From, id) {
			found = e.ID
			return false
		}
		if sameObjectOnly(e.From, id) {
			similar = append(similar, e.ID)
		}
		return true
	})
	var warn []string
	if err != nil {
		warn = append(warn, "could not look for an earlier landing of this file: "+err.Error())
	}
	if len(skipped) > 0 {
		warn = append(warn, "the store has "+plural.N(len(skipped), "unreadable file")+", skipped while looking for an earlier landing")
	}
	if found != "" {
		return found, warn
	}
	if len(similar) > 0 {
		warn = append(warn, fmt.Sprintf("a pack with this same passport object was landed before as %s, with other luggage: this one is a new pack and lands as a new passport", strings.Join(similar, ", ")))
	}
	return "", warn
}

// findings sorts the pattern table's findings (D5, D13) over the whole pack
// object into what reads like instructions and what looks like a
// credential or a transcript. Landing reports them all and refuses none.
func findings(obj *ojson.Value) (instr, creds []scan.Finding) {
	instr, creds = []scan.Finding{}, []scan.Finding{}
	for _, f := range scan.Object(obj) {
		switch f.Class {
		case scan.InstructionField, scan.Instruction:
			instr = append(instr, f)
		default:
			creds = append(creds, f)
		}
	}
	return instr, creds
}

// gitDirWarning is the plan's one line for luggage carrying git metadata.
// gitDirWarning says which repository metadata the luggage holds and the
// names it lands under (D10-git): each renamed marker once.
func gitDirWarning(dirs []string, landAs map[string]string, names []string) string {
	var how []string
	done := map[string]bool{}
	for _, n := range names {
		as, ok := landAs[n]
		if !ok {
			continue
		}
		np, ap := strings.Split(n, "/"), strings.Split(as, "/")
		for i := range np {
			if np[i] == ap[i] {
				continue
			}
			from, to := strings.Join(np[:i+1], "/"), strings.Join(ap[:i+1], "/")
			if i < len(np)-1 {
				from, to = from+"/", to+"/"
			}
			if !done[from] {
				done[from] = true
				how = append(how, from+" lands as "+to)
			}
		}
	}
	return "luggage carries repository metadata (" + strings.Join(dirs, ", ") + "): its config and hooks can make git run programs in that folder, and a shell prompt runs git in every folder it enters; so it lands disarmed, the same bytes under other names: " +
		strings.Join(how, "; ") + ". Read its config and hooks before you rename them back to use the repository (D10-git)"
}
