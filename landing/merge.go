package landing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
)

// MergePreview is what merging a receipt will change in its target
// (§4.4.1, D6), shown before anything is written.
type MergePreview struct {
	Target        string `json:"target"` // the passport the receipt answers (Lineage.ReceiptTarget)
	TargetTitle   string `json:"target_title"`
	TargetVersion int64  `json:"target_version"` // the version read; the save expects it
	// AsksChanged are the target's asks the receipt answers or drops:
	// before → after.
	AsksChanged []AskChange `json:"asks_changed"`
	// AsksAdopted are the receipt's asks with no counterpart in the target:
	// questions aimed back at this side, adopted as open (§4.4.1.3).
	AsksAdopted []PlanAsk `json:"asks_adopted"`
	// AsksUnchanged are ids of the receipt's asks that change nothing.
	AsksUnchanged []string `json:"asks_unchanged"`
	// ChecksReported are the receipt's landing checks: they describe the
	// sender's machine and are reported, never adopted (§4.4.1.5).
	ChecksReported []PlanCheck `json:"checks_reported"`
	// FactsAdded are the receipt's facts the target does not hold yet (by
	// claim), added as sealed as §4.2 says (§4.4.1.4).
	FactsAdded []PlanFact `json:"facts_added"`
	// AlreadyMerged says this receipt (by file digest, or by pack-object
	// digest in the other encoding) was merged before: merging it again
	// changes nothing (D6).
	AlreadyMerged bool `json:"already_merged"`
	// LuggageThere says the receipt's luggage folder exists already (the
	// same receipt was merged in its other encoding): it is not rewritten.
	LuggageThere bool `json:"luggage_there"`
	// Changes counts what the merge writes; 0 means it writes nothing.
	Changes int `json:"changes"`
	// Notes say what the merge report must tell the person: an earlier
	// answer replaced (and kept in answer_history), a body naming another
	// answerer than the receipt's origin (issue 18, D6).
	Notes []string `json:"notes"`

	merged *ojson.Value // the target as it will be saved
}

// AskChange is one ask of the target before and after the merge.
type AskChange struct {
	ID     string   `json:"id"`
	What   string   `json:"what"`
	Before AskState `json:"before"`
	After  AskState `json:"after"`
	// Replaced says the ask was answered (or dropped) before: the earlier
	// answer is kept in the ask's answer_history (issue 18, D6).
	Replaced bool `json:"replaced"`
}

// AnswerHistory is the ask field that keeps the answers a later receipt
// replaced, oldest first, each with replaced_at.
const AnswerHistory = "answer_history"

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// AskState is the part of an ask a receipt may change (§4.4.1.2).
type AskState struct {
	Status     string `json:"status"`
	Answer     string `json:"answer,omitempty"`
	AnsweredBy string `json:"answered_by,omitempty"`
	AnsweredAt string `json:"answered_at,omitempty"`
}

// Merged is what a merge did.
type Merged struct {
	Target   string   `json:"target"`
	Version  int64    `json:"version"`
	Changed  bool     `json:"changed"`
	FilesDir string   `json:"files_dir,omitempty"`
	Files    []string `json:"files"`
	Restored []string `json:"restored"`
	Warnings []string `json:"warnings"`
	// Instructions are the sentences in the receipt's text luggage that
	// read like instructions, found while it was written (§4.5.2:
	// reported, never acted on).
	Instructions []scan.Finding `json:"instructions"`
}

// The rule a receipt's target follows, quoted when --into names another
// passport.
const quoteReceiptRule = `"A receipt answers the passport its sender was landed from: the entry before the last in lineage.chain ... It MAY be merged into that passport only." (TaskPack §4.4.1; D6)`

// PlanMerge makes the plan for a receipt (docs/architecture.md, job 3): it finds
// the target by D6 (Lineage.ReceiptTarget: the entry before the last in the
// chain, or root_id for a chain of one), reads it, and previews the merge.
//
// into is the --into flag: "" lets the receipt name its target; any other
// passport is refused with the rule quoted. A handoff is refused (§4.4.1.1:
// a handoff is never merged). A target missing from the store is an error
// naming the id looked for. Nothing is written.
func PlanMerge(ctx context.Context, p *pack.Pack, st *store.Store, into string, env Env) (*Plan, error) {
	return planMerge(ctx, p, st, into, env, nil)
}

// planMerge is PlanMerge, from j's findings when j is not nil.
func planMerge(ctx context.Context, p *pack.Pack, st *store.Store, into string, env Env, j *Judged) (*Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pl, err := newPlan(p, env, j)
	if err != nil {
		return nil, err
	}
	if pl.Kind != model.KindReceipt {
		return nil, &pack.Error{File: p.Path, Rule: RuleHandoffMerge,
			Detail: "this is a " + pl.Kind + ", and an implementation MUST refuse to merge a handoff at all (§4.4.1); land it without --into to make a new passport"}
	}
	lin := model.PackObject{V: pl.obj}.Lineage()
	target := lin.ReceiptTarget()
	if target == "" {
		return nil, &pack.Error{File: p.Path, Rule: RuleReceiptTarget,
			Detail: "the receipt's lineage names no passport to answer (no chain entry before the sender, no root_id)"}
	}
	into = strings.TrimSpace(into)
	if into != "" && into != target {
		return nil, &pack.Error{File: p.Path, Rule: RuleReceiptTarget,
			Detail: "refusing to merge into " + into + ": this receipt answers " + target + ". " + quoteReceiptRule}
	}
	if err := store.ValidID(target); err != nil {
		return nil, &pack.Error{File: p.Path, Rule: RuleReceiptTarget,
			Detail: "the receipt's lineage names " + strconv.Quote(target) + " as the passport it answers, which is not a passport id"}
	}
	stored, err := st.Get(target)
	if err != nil {
		var nf *store.ErrNotFound
		if errors.As(err, &nf) {
			return nil, &pack.Error{File: p.Path, Rule: RuleTargetMissing,
				Detail: "this receipt answers " + target + " (" + model.LineageOf(p.Object.Get("lineage")).ReceiptTargetRule() + ", D6), which is not in the store " + st.Dir()}
		}
		return nil, err
	}
	if w := chainVersionWarning(lin, target, stored.Version); w != "" {
		pl.Warnings = append(pl.Warnings, w)
	} else if err := neverSent(p, st, lin, target, into, pl); err != nil {
		return nil, err
	}
	if err := pl.receiptKey(st, lin, target, into); err != nil {
		return nil, err
	}
	pl.Merge = preview(stored, pl)
	pl.Warnings = append(pl.Warnings, pl.Merge.Notes...)
	pl.checkOwnLineage(st)
	dir := filepath.Join(st.FilesDir(target), receiptFolder(pl))
	pl.FilesDir = dir
	pl.placeLuggage(dir)
	if _, err := os.Lstat(dir); err == nil && len(pl.luggage) > 0 && !pl.Merge.AlreadyMerged {
		// Another receipt from the same sender version (other luggage:
		// the same content would be merged already) has this folder: this
		// one gets its own, named by its content, and nothing is lost.
		dir = filepath.Join(st.FilesDir(target), receiptFolder(pl)+"-"+pl.ContentSHA256[:12])
		pl.FilesDir = dir
		pl.placeLuggage(dir)
	}
	pl.NextSteps = []Step{} // a receipt never touches next_steps (§4.4.1.2)
	return pl, nil
}

// chainVersionWarning checks the version the receipt's chain names for its
// target (the entry before the last; a chain of one names the target
// itself). The target has been at versions 1 to its current one only, so a
// version outside them is one this passport never sent a pack from: the
// receipt is a hand-made or garbled one, or answers another store's
// passport of the same id. §4.4.1 names the target by id, so the merge
// stays allowed, but never silently: the warning is in the plan (plain,
// --json, the TUI). "" when the version is one the target has been at.
func chainVersionWarning(lin model.Lineage, target string, current int64) string {
	var entry string
	switch {
	case len(lin.Chain) >= 2:
		entry = lin.Chain[len(lin.Chain)-2]
	case len(lin.Chain) == 1:
		entry = lin.Chain[0]
	default:
		return ""
	}
	id, v, ok := model.SplitChainEntry(entry)
	if id != target {
		return "" // a chain of one naming the sender: root_id is the target, with no version to check
	}
	switch {
	case !ok:
		return fmt.Sprintf("the receipt's chain names %s with no version, so nothing says which version of %s it answers (§4.4.1); merge only if it answers this passport", entry, target)
	case v < 1 || v > current:
		return fmt.Sprintf("the receipt's chain names %s, but %s is at version %d here and never sent a pack from version %d (§4.4.1); merge only if it answers this passport", entry, target, current, v)
	}
	return ""
}

// neverSent is issue 18's rule (D6): the store records every pack it makes
// (Store.RecordSent), so a receipt whose chain names a version of the
// target that no record names answers a pack this store never sent. It is
// refused unless --into names the target, and then merged with a warning.
// A passport with no record at all (packed before tp kept records, or
// never) is warned about, not refused.
func neverSent(p *pack.Pack, st *store.Store, lin model.Lineage, target, into string, pl *Plan) error {
	if len(lin.Chain) < 2 {
		return nil // a chain of one names the sender; root_id is the target, with no version
	}
	id, v, ok := model.SplitChainEntry(lin.Chain[len(lin.Chain)-2])
	if !ok || id != target {
		return nil
	}
	sent, recorded, err := st.SentVersion(target, v)
	if err != nil {
		return err
	}
	switch {
	case sent:
		return nil
	case !recorded:
		pl.Warnings = append(pl.Warnings, fmt.Sprintf("this store has no record of packs sent from %s (packed before tp recorded them, or never packed): nothing says it sent version %d, which this receipt answers (§4.4.1, D6)", target, v))
		return nil
	case into == "":
		return &pack.Error{File: p.Path, Rule: RuleNeverSent,
			Detail: fmt.Sprintf("this receipt answers %s@%d, but this store never sent a pack from version %d of %s (%s); merge it only if it answers this passport, with --into %s (§4.4.1, D6)", target, v, v, target, sentVersions(st, target), target)}
	default:
		pl.Warnings = append(pl.Warnings, fmt.Sprintf("merging into %s as --into says, though this store never sent a pack from version %d of it (%s) (§4.4.1, D6)", target, v, sentVersions(st, target)))
		return nil
	}
}

// receiptKey is issue 19's rule (D22): receipts coming home are checked
// against the key the handoff went to. The keys expected for the version a
// receipt answers are the SSH keys its packs were sealed to (--to), and
// otherwise the key that signed the first receipt merged for it (trust on
// first use). A receipt signed by another key, or unsigned, when a key is
// expected is refused unless --into names the target, and then warned
// about. With nothing expected, a signed receipt's key is recorded once it
// is merged.
func (pl *Plan) receiptKey(st *store.Store, lin model.Lineage, target, into string) error {
	if len(lin.Chain) < 2 {
		return nil
	}
	id, v, ok := model.SplitChainEntry(lin.Chain[len(lin.Chain)-2])
	if !ok || id != target {
		return nil
	}
	packs, _, err := st.Sent(target)
	if err != nil {
		return err
	}
	var expected []string
	how := ""
	for _, sp := range packs {
		if sp.Version != v {
			continue
		}
		for _, fp := range sp.SealedTo {
			if !slices.Contains(expected, fp) {
				expected = append(expected, fp)
				how = "sealed to"
			}
		}
		if fp := sp.ReceiptSigner; fp != "" && !slices.Contains(expected, fp) {
			expected = append(expected, fp)
			if how == "" {
				how = "first answered by a receipt signed by"
			}
		}
	}
	signed := pl.Signer.State != SignerUnsigned && pl.Signer.Fingerprint != ""
	if len(expected) == 0 {
		if signed {
			pl.pin, pl.pinVersion = pl.Signer.Fingerprint, v
		}
		return nil
	}
	if signed && slices.Contains(expected, pl.Signer.Fingerprint) {
		return nil
	}
	got := "unsigned"
	if signed {
		got = "signed by " + pl.Signer.Fingerprint
	}
	what := fmt.Sprintf("this receipt answers %s@%d, which was %s %s; the receipt is %s, not the key this handoff went to", target, v, how, strings.Join(expected, ", "), got)
	if into == "" {
		return &pack.Error{File: pl.File, Rule: RuleReceiptKey,
			Detail: what + ": anyone can write a receipt; merge it only if you know who sent it, with --into " + target + " (D22)"}
	}
	pl.Warnings = append(pl.Warnings, "merging as --into says, though "+what+" (D22)")
	return nil
}

func sentVersions(st *store.Store, id string) string {
	packs, _, _ := st.Sent(id)
	seen := map[int64]bool{}
	var vs []string
	for _, p := range packs {
		if !seen[p.Version] {
			seen[p.Version] = true
			vs = append(vs, strconv.FormatInt(p.Version, 10))
		}
	}
	if len(vs) == 0 {
		return "it sent none"
	}
	return "it sent from version " + strings.Join(vs, ", ")
}

// receiptFolder is where a receipt's luggage goes inside the target's files
// folder: one folder per sender version, so receipts never mix.
func receiptFolder(pl *Plan) string {
	name := "receipt-" + pl.Sender.PassportID + "@" + ojson.FormatNumber(float64(pl.Sender.Version))
	if err := store.ValidID(strings.NewReplacer("@", "_").Replace(name)); err != nil {
		name = "receipt-" + pl.SHA256[:min(12, len(pl.SHA256))]
	}
	return name
}

// preview computes the merged target and what changes (D6).
func preview(stored *store.Stored, pl *Plan) *MergePreview {
	mp := &MergePreview{
		Target:         stored.Passport().ID(),
		TargetTitle:    stored.Passport().Title(),
		TargetVersion:  stored.Version,
		AsksChanged:    []AskChange{},
		AsksAdopted:    []PlanAsk{},
		AsksUnchanged:  []string{},
		Notes:          []string{},
		ChecksReported: pl.Checks,
		FactsAdded:     []PlanFact{},
	}
	for _, r := range stored.V.Get("receipts_merged").Items() {
		if sameDigest(r, pl.id()) {
			mp.AlreadyMerged = true
			return mp
		}
	}
	merged := stored.V.Clone()
	obj := pl.obj.Clone()
	pack.Seal(obj) // a receipt's facts cross a machine like any others (§4.4.1.4)
	// An org fact the receipt brings without a source is its sender's (§4.2).
	annotateOrgFacts(obj.Get("passport"), pl.Sender.Actor)

	by := pl.Sender.By()
	at := store.Timestamp(pl.env.now())
	asks := merged.Get("asks")
	if asks.Kind() != ojson.Array {
		asks = ojson.NewArray()
	}
	byID := map[string]*ojson.Value{}
	for _, a := range asks.Items() {
		if id := (model.Ask{V: a}).ID(); id != "" {
			byID[id] = a
		}
	}
	adoptedAny := false
	for _, ra := range obj.Get("asks").Items() {
		if ra.Obj() == nil {
			continue
		}
		r := model.Ask{V: ra}
		t, ok := byID[r.ID()]
		rs := r.Status()
		fresh := ""
		if ok && rs != model.AskAnswered && rs != model.AskDropped &&
			differentQuestion(r.What(), model.Ask{V: t}.What()) {
			// Same id, another question: the sender minted its new ask's id
			// knowing only the asks it held, and the target already uses it
			// (in A→B→C, C's "a1" is not B's "a1" from A). It is a question
			// aimed back (§4.4.1.3), adopted under an id of the target's,
			// never folded into an unrelated ask and lost.
			ok = false
			fresh = unusedAskID(byID)
		}
		if !ok {
			c := ra.Clone()
			c.Obj().Delete(AskedAt)
			if fresh != "" {
				c.Set("id", ojson.NewString(fresh))
				byID[fresh] = c
			}
			c.Set("status", ojson.NewString(model.AskOpen))
			asks.Append(c)
			if fresh == "" {
				byID[r.ID()] = c
			}
			mp.AsksAdopted = append(mp.AsksAdopted, planAsk(model.Ask{V: c}))
			adoptedAny = true
			continue
		}
		// Only an answer or a drop travels home: a receipt still holding an
		// ask open says nothing new, and must not reopen one answered here.
		if rs != model.AskAnswered && rs != model.AskDropped {
			mp.AsksUnchanged = append(mp.AsksUnchanged, r.ID())
			continue
		}
		before := askState(model.Ask{V: t})
		// Only the answer and the status travel from the body (§4.4.1.2):
		// who answered is the receipt's own origin and when is the merge
		// (issue 18, D6) — a body can name anyone.
		if answerText(ra.Get("answer")) == before.Answer && rs == before.Status {
			mp.AsksUnchanged = append(mp.AsksUnchanged, r.ID())
			continue
		}
		prev := t.Clone()
		for _, k := range []string{"answer", "status"} {
			if ra.Has(k) {
				t.Set(k, ra.Get(k).Clone())
			}
		}
		t.Set("answered_by", ojson.NewString(by))
		t.Set("answered_at", ojson.NewString(at))
		if claimed := r.AnsweredBy(); claimed != "" && claimed != by {
			mp.Notes = append(mp.Notes, fmt.Sprintf("ask %s: the receipt's body says it was answered by %s; recorded as answered by %s, who packed the receipt (D6)", r.ID(), claimed, by))
		}
		after := askState(model.Ask{V: t})
		ch := AskChange{ID: r.ID(), What: model.Ask{V: t}.What(), Before: before, After: after}
		if before.Status == model.AskAnswered || before.Status == model.AskDropped {
			// An earlier answer is replaced, never lost: it goes into the
			// ask's history, and the merge report says so.
			old := ojson.NewObject()
			for _, k := range []string{"answer", "status", "answered_by", "answered_at"} {
				if prev.Has(k) {
					old.Set(k, prev.Get(k).Clone())
				}
			}
			old.Set("replaced_at", ojson.NewString(at))
			hist := t.Get(AnswerHistory)
			if hist.Kind() != ojson.Array {
				hist = ojson.NewArray()
			}
			hist.Append(old)
			t.Set(AnswerHistory, hist)
			ch.Replaced = true
			mp.Notes = append(mp.Notes, fmt.Sprintf("ask %s was %s before (by %s at %s); the new answer replaces it, and the earlier one is kept in the ask's %s", r.ID(), before.Status, orUnknown(before.AnsweredBy), orUnknown(before.AnsweredAt), AnswerHistory))
		}
		mp.AsksChanged = append(mp.AsksChanged, ch)
	}
	if adoptedAny && !merged.Has("asks") {
		merged.Set("asks", asks)
	}

	claims := map[string]bool{}
	for _, f := range (model.Passport{V: merged}).Facts() {
		claims[f.Claim()] = true
	}
	facts := merged.Get("facts")
	for i, f := range (model.PackObject{V: obj}).Passport().Facts() {
		if f.V.Obj() == nil || claims[f.Claim()] {
			continue
		}
		claims[f.Claim()] = true
		if facts.Kind() != ojson.Array {
			facts = ojson.NewArray()
			merged.Set("facts", facts)
		}
		facts.Append(f.V.Clone())
		mp.FactsAdded = append(mp.FactsAdded, PlanFact{Index: i, Claim: f.Claim(), Scope: f.Scope(), Verified: f.Verified(),
			Sealed: f.Sealed(), VerifiedOn: f.VerifiedOn(), Evidence: f.Evidence(), Source: f.Source(), SourceActor: f.SourceActor(), ThisMachine: f.Sealed() && f.VerifiedOn() != "" && f.VerifiedOn() == pl.env.Machine})
	}
	mp.Changes = len(mp.AsksChanged) + len(mp.AsksAdopted) + len(mp.FactsAdded) + len(pl.luggage)
	mp.merged = merged
	return mp
}

func askState(a model.Ask) AskState {
	return AskState{Status: a.Status(), Answer: answerText(a.V.Get("answer")), AnsweredBy: a.AnsweredBy(), AnsweredAt: a.AnsweredAt()}
}

// Merge merges a receipt into its target (§4.4.1, D6) as plan previewed:
// answers and statuses onto the matching asks, unknown asks adopted as open,
// new facts added sealed (d.TrustOwnFacts restores only this machine's),
// landing checks reported and not adopted; goal, current_state and
// next_steps are never touched. The receipt's digest is appended to the
// target's receipts_merged, so merging the same file again changes nothing
// (and writes nothing). The save expects the version the plan read: a
// passport changed in between is a *store.ConflictError, never a lost update.
// Luggage goes to <target>.files/receipt-<sender>@<version>/ (or
// d.FilesOut), written like Land's, before the save; a failed save removes it.
func Merge(ctx context.Context, p *pack.Pack, plan *Plan, st *store.Store, d Decisions) (*Merged, error) {
	if plan == nil || plan.Merge == nil {
		return nil, errors.New("merge: no merge plan (make one with PlanMerge)")
	}
	mp := plan.Merge
	out := &Merged{Target: mp.Target, Version: mp.TargetVersion, Files: []string{}, Restored: []string{}, Warnings: []string{}, Instructions: []scan.Finding{}}
	if mp.AlreadyMerged || mp.Changes == 0 {
		return out, nil
	}
	if len(d.CheckStatus) > 0 {
		return nil, errMergeChecks(plan)
	}
	if len(d.Answers) > 0 {
		return nil, &pack.Error{File: plan.File, Rule: RuleDecision, Detail: "answer asks with tp asks after the merge, not while merging"}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	env := plan.env
	now := env.now()
	merged := mp.merged.Clone()
	// answered_at is the merge's time (D6), stamped now that it happens.
	for _, ch := range mp.AsksChanged {
		for _, a := range merged.Get("asks").Items() {
			if (model.Ask{V: a}).ID() == ch.ID {
				a.Set("answered_at", ojson.NewString(store.Timestamp(now)))
			}
		}
	}

	if d.TrustOwnFacts && env.Machine != "" && plan.OwnLineage == "" {
		for _, f := range mp.FactsAdded {
			if f.ThisMachine {
				out.Warnings = append(out.Warnings, "--trust-own-facts: "+NotOwnLineage)
				break
			}
		}
	}
	if d.TrustOwnFacts && env.Machine != "" && plan.OwnLineage != "" {
		facts := merged.Get("facts").Items()
		added := map[string]bool{}
		for _, f := range mp.FactsAdded {
			added[f.Claim] = true
		}
		for _, f := range facts {
			fact := model.Fact{V: f}
			if !added[fact.Claim()] || !fact.Sealed() || fact.VerifiedOn() != env.Machine {
				continue
			}
			f.Set("verified", ojson.NewBool(true))
			f.Set("needs_reverify", ojson.NewBool(false))
			out.Restored = append(out.Restored, fact.Claim())
		}
		if len(out.Restored) > 0 {
			out.Warnings = append(out.Warnings, TrustWarning)
		}
	}

	if len(plan.luggage) > 0 && !mp.LuggageThere {
		dest := plan.FilesDir
		if d.FilesOut != "" {
			abs, err := filepath.Abs(d.FilesOut)
			if err != nil {
				return nil, err
			}
			dest = abs
		} else {
			made, err := realFolder(st.FilesDir(mp.Target))
			if err != nil {
				return nil, err
			}
			if made {
				// Removed again if the merge fails (only while empty).
				defer func() {
					if !out.Changed {
						os.Remove(st.FilesDir(mp.Target))
					}
				}()
			}
		}
		if d.FilesOut == "" {
			sweepStaleMerges(st.FilesDir(mp.Target), time.Now()) // file times are the real clock's
		}
		open := plan.open
		if p != nil {
			open = p.OpenLuggage
		}
		files, found, err := extract(ctx, plan.luggage, plan.landAs, open, dest, d.Progress)
		err = namePack(err, plan.File)
		if err != nil {
			return nil, err
		}
		out.FilesDir, out.Files = dest, files
		out.Warnings = append(out.Warnings, found.warningsAfter("merged")...)
		out.Instructions = append(out.Instructions, found.instr...)
	}

	// The receipt's record keeps what in it reads like instructions (the
	// object's and its luggage's text), so every later open of the passport
	// shows it with its sender, as a landed passport keeps its own (D25).
	rec := ojson.NewObject()
	rec.Set("sha256", ojson.NewString(plan.SHA256))
	rec.Set("object_sha256", ojson.NewString(plan.ObjectSHA256))
	rec.Set("content_sha256", ojson.NewString(plan.ContentSHA256))
	rec.Set("merged_at", ojson.NewString(store.Timestamp(now)))
	rec.Set("from", ojson.NewString(model.ChainEntry(plan.Sender.PassportID, plan.Sender.Version)))
	if fs := append(slices.Clone(plan.Instructions), out.Instructions...); len(fs) > 0 {
		rec.Set(Findings, findingsValue(fs))
	}
	list := merged.Get("receipts_merged")
	if list.Kind() != ojson.Array {
		list = ojson.NewArray()
		merged.Set("receipts_merged", list)
	}
	list.Append(rec)

	saved, err := st.Save(merged, mp.TargetVersion)
	if err != nil {
		if out.FilesDir != "" {
			os.RemoveAll(out.FilesDir)
		}
		return nil, err
	}
	out.Version, _ = saved.Get("version").Int()
	out.Changed = true
	if plan.pin != "" {
		if err := st.PinReceiptSigner(mp.Target, plan.pinVersion, plan.pin); err != nil {
			out.Warnings = append(out.Warnings, "merged, but the key that signed this receipt was not recorded for the receipts to come: "+err.Error())
		}
	}
	return out, nil
}

// realFolder makes sure the target's files folder is a folder of its own,
// not a link to somewhere else (D10: never follow an existing link).
// It reports whether it made the folder.
func realFolder(dir string) (bool, error) {
	info, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return true, os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return false, err
	}
	if !info.IsDir() {
		return false, &pack.Error{Entry: dir, Rule: pack.RuleSymlink, Detail: "the passport's files folder is not a plain folder (a link?); not writing through it"}
	}
	return false, nil
}

// unusedAskID is the first "aN" no ask in byID uses.
func unusedAskID(byID map[string]*ojson.Value) string {
	for n := 1; ; n++ {
		if id := "a" + strconv.Itoa(n); byID[id] == nil {
			return id
		}
	}
}

func errMergeChecks(plan *Plan) error {
	return &pack.Error{File: plan.File, Rule: RuleDecision,
		Detail: "a receipt's landing checks describe the sender's machine; they are reported, not adopted, so there is nothing to attest (§4.4.1)"}
}

// differentQuestion reports two asks sharing an id that are plainly not the
// same question: both say what they ask, and the words differ. An ask that
// says nothing (a hand-made record) is taken to be the one its id names.
func differentQuestion(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	return a != "" && b != "" && a != b
}
