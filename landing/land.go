package landing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
)

// Decisions are what the person landing chose, gathered by the TUI or taken
// from flags. The zero value lands with every check pending, every fact as
// sealed, and the luggage in the store.
type Decisions struct {
	// CheckStatus records what the person attests for a landing check, by
	// id: passed, failed or skipped (pending is the default). tp never runs
	// a check's how to find out (D12).
	CheckStatus map[string]string
	// CheckRuns records, by check id, a command the person confirmed and
	// ran for a check (D12: the result is recorded on the check as the
	// person attests it). Only the UI fills it: no headless path runs a how.
	CheckRuns map[string]CheckRun
	// TrustOwnFacts restores the ✓ of sealed facts whose verified_on is
	// this machine (§4.2) — and no other. It is the person's explicit
	// choice; Landed.Warnings carries §4.2's warning when it restored any.
	TrustOwnFacts bool
	// Answers answers asks of the landed pack by id (answered_by is
	// Env.Actor@Env.Machine, answered_at now).
	Answers map[string]string
	// Again lands a file that was landed before (Plan.AlreadyLandedAs).
	Again bool
	// FilesOut puts the luggage in this folder instead of <store>/<id>.files.
	// It must not exist yet.
	FilesOut string
	// Staged, when set, is the luggage Stage unpacked for this plan (with
	// the same FilesOut): Land moves it into place instead of extracting
	// the luggage again. If the landing fails, it stays staged.
	Staged *Staged
	// Progress, when set, is called as luggage bytes are written: first
	// with done 0, then after each chunk, never two calls at once (the
	// files land on a few goroutines; the calls are serialised). It must
	// return quickly; a UI sends the numbers on to its own loop.
	Progress func(done, total int64)
}

// CheckRun is a command the person confirmed and ran for a landing check.
type CheckRun struct {
	Command string    // exactly what ran (the sender's how, or the person's edit)
	Edited  bool      // the person changed the sender's how before running it
	Exit    int       // exit status; -1 when it could not start or was stopped
	At      time.Time // when it ran; zero means now (the landing's time)
}

func (r CheckRun) record(by string, at time.Time) store.CheckRunRecord {
	if !r.At.IsZero() {
		at = r.At
	}
	return store.CheckRunRecord{Command: r.Command, Edited: r.Edited, Exit: r.Exit, By: by, At: at}
}

// Landed is what a landing did.
type Landed struct {
	ID       string   `json:"id"`
	Version  int64    `json:"version"`
	Path     string   `json:"path"`      // the passport file
	FilesDir string   `json:"files_dir"` // "" when the pack carried no luggage
	Files    []string `json:"files"`     // where each luggage file was written
	Restored []string `json:"restored"`  // claims whose ✓ --trust-own-facts restored
	// Warnings are for the person: §4.2's warning when a ✓ was restored,
	// credential-like luggage (D5: landing warns, it does not refuse).
	Warnings  []string `json:"warnings"`
	NextSteps []Step   `json:"next_steps"`
	// Credentials are credential-like strings found in the luggage while
	// it was written (D5: landing warns, it does not refuse).
	Credentials []scan.Finding `json:"credentials"`
	// Instructions are the sentences in text luggage that read like
	// instructions, found while it was written (§4.5.2: reported, never
	// acted on); landed_from.findings keeps them with the object's.
	Instructions []scan.Finding `json:"instructions"`
}

// addLuggageFindings reports what the luggage held, found while it was
// written: credential-like strings (D5: landing warns), a transcript, and
// the sentences of text luggage that read like instructions, which the
// landed passport keeps beside the object's in landed_from.findings, so
// that every open shows them (issue 16) as the dry run listed them.
func (out *Landed) addLuggageFindings(lf luggageFindings, plan *Plan, state *ojson.Value) {
	out.Credentials = append(out.Credentials, lf.creds...)
	out.Warnings = append(out.Warnings, lf.warningsAfter("landed")...)
	if len(lf.instr) == 0 {
		return
	}
	out.Instructions = append(out.Instructions, lf.instr...)
	if from := state.Get("landed_from"); from.Kind() == ojson.Object {
		from.Set(Findings, findingsValue(append(slices.Clone(plan.Instructions), lf.instr...)))
	}
}

// TrustWarning is §4.2's warning, shown whenever --trust-own-facts restores
// a ✓.
const TrustWarning = "verified_on is written by whoever wrote the pack: matching this machine proves the pack says the fact was proven here, not that it was. Restoring the ✓ trusts the pack's whole journey; it belongs to packs you made yourself (§4.2)."

// Land lands a handoff as a new local passport (§3.1, §4.2–§4.5;
// docs/architecture.md, job 2): plan.ID as the id, the pack's lineage kept, facts as sealed
// (TrustOwnFacts restores only this machine's), asks stored, landing checks
// stored with a status (pending unless attested in d), next steps ordered
// as the plan says, and landed_from recording the file's digest.
//
// The luggage is streamed into a temporary folder inside the store (or next
// to Decisions.FilesOut) — only inside it, never following an existing
// link, without execute bits — and renamed into place when every byte is
// written and verified; the passport is saved last. Any failure or
// cancellation on the way removes what was written: no half passport, no
// files folder. A file landed before is refused unless d.Again.
//
// p is the pack the plan was made from (its luggage is streamed from it);
// st is the store the plan was made against.
func Land(ctx context.Context, p *pack.Pack, plan *Plan, st *store.Store, d Decisions) (*Landed, error) {
	if plan == nil || plan.obj == nil {
		return nil, errors.New("land: no plan (make one with PlanLanding)")
	}
	if plan.Kind != model.KindHandoff || plan.Merge != nil {
		return nil, &pack.Error{File: plan.File, Rule: RuleReceiptNotLanded, Detail: "a receipt is merged (Merge), never landed as a new passport (§4.4.1)"}
	}
	if plan.AlreadyLandedAs != "" && !d.Again {
		return nil, &pack.Error{File: plan.File, Rule: RuleAlreadyLanded,
			Detail: "this file was already landed as " + plan.AlreadyLandedAs + " (--again lands it once more as a new passport)"}
	}
	if err := d.validate(plan); err != nil {
		return nil, err
	}
	// One landing of a pack at a time in a store, and the already-landed
	// check made again under the lock: two processes landing the same file
	// at once would otherwise both find it new.
	own := "landing-" + lockName(plan.ContentSHA256, plan.SHA256)
	unlock, err := st.Lock(own)
	if err != nil {
		return nil, err
	}
	defer unlock()
	sweepDead(st, own+".lock")
	if !d.Again {
		if landed, _ := findLanded(st, plan.id()); landed != "" {
			return nil, &pack.Error{File: plan.File, Rule: RuleAlreadyLanded,
				Detail: "this file was already landed as " + landed + " (--again lands it once more as a new passport)"}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	env := plan.env
	now := env.now()

	state, restored, next, err := landedState(plan, d, env, now)
	if err != nil {
		return nil, err
	}
	out := &Landed{ID: plan.ID, Restored: restored, Files: []string{}, Warnings: []string{}, Credentials: []scan.Finding{}, Instructions: []scan.Finding{}}
	if out.Restored == nil {
		out.Restored = []string{}
	}
	if len(restored) > 0 {
		out.Warnings = append(out.Warnings, TrustWarning)
	}
	if d.TrustOwnFacts && plan.OwnLineage == "" {
		for _, f := range plan.Facts {
			if f.ThisMachine {
				out.Warnings = append(out.Warnings, "--trust-own-facts: "+NotOwnLineage)
				break
			}
		}
	}

	filesDir := st.FilesDir(plan.ID)
	if d.FilesOut != "" {
		abs, err := filepath.Abs(d.FilesOut)
		if err != nil {
			return nil, err
		}
		filesDir = abs
		state.Get("landed_from").Set("files_dir", ojson.NewString(abs))
	}
	open := plan.open
	if p != nil {
		open = p.OpenLuggage
	}
	if d.Staged != nil {
		// Unpacked before the checks ran: moved into place, not written again.
		files, found, err := d.Staged.commit(filesDir)
		if err != nil {
			return nil, err
		}
		if len(plan.luggage) > 0 {
			out.FilesDir, out.Files = filesDir, files
		}
		out.addLuggageFindings(found, plan, state)
	} else if len(plan.luggage) > 0 {
		// A store folder made here for a landing that then fails is removed
		// again (only if still empty), so a refused landing leaves no trace.
		_, statErr := os.Stat(st.Dir())
		if err := os.MkdirAll(st.Dir(), 0o700); err != nil {
			return nil, fmt.Errorf("passport store %s: %w", st.Dir(), err)
		}
		sweepStale(st.Dir(), time.Now()) // file times are the real clock's
		files, found, err := extract(ctx, plan.luggage, plan.landAs, open, filesDir, d.Progress)
		err = namePack(err, plan.File)
		if err != nil {
			if statErr != nil {
				os.Remove(st.Dir())
			}
			return nil, err
		}
		out.FilesDir, out.Files = filesDir, files
		out.addLuggageFindings(found, plan, state)
	}

	saved, err := st.Save(state, 0)
	if err != nil {
		switch {
		case d.Staged != nil:
			// The staged luggage goes back to staging, not away: the
			// checks ran there, and the person may land again.
			if uerr := d.Staged.uncommit(filesDir); uerr != nil {
				os.RemoveAll(filesDir)
			}
		case out.FilesDir != "":
			os.RemoveAll(out.FilesDir)
		}
		return nil, err
	}
	if d.Staged != nil && len(plan.luggage) == 0 {
		os.Remove(filesDir) // an empty staging folder: no files folder
	}
	out.Version, _ = saved.Get("version").Int()
	out.Path = st.Path(plan.ID)
	out.NextSteps = next
	return out, nil
}

// Validate reports a decision that names nothing in the plan (a landing
// check or ask the pack does not carry), or attests a receipt's checks, which
// are reported and never adopted (§4.4.1). Land and Merge refuse the same;
// calling it first lets a command refuse before it prints the plan.
func (d Decisions) Validate(plan *Plan) error {
	if plan.Merge != nil {
		if len(d.CheckStatus) > 0 {
			return errMergeChecks(plan)
		}
		return nil
	}
	return d.validate(plan)
}

// validate checks every decision names something in the plan, before
// anything is written.
func (d Decisions) validate(plan *Plan) error {
	checks := map[string]bool{}
	var ids []string
	for _, c := range plan.Checks {
		checks[c.ID] = true
		ids = append(ids, c.ID)
	}
	for _, id := range sortedKeys(d.CheckStatus) {
		s := d.CheckStatus[id]
		if !checks[id] {
			have := "it carries none"
			if len(ids) > 0 {
				have = "it carries " + strings.Join(ids, ", ")
			}
			return &pack.Error{File: plan.File, Rule: RuleDecision, Detail: "no landing check " + id + " in this pack (" + have + ")"}
		}
		switch s {
		case model.CheckPassed, model.CheckFailed, model.CheckSkipped, model.CheckPending:
		default:
			return &pack.Error{File: plan.File, Rule: RuleDecision, Detail: "landing check " + id + ": status " + s + " is not passed, failed or skipped"}
		}
	}
	asks := map[string]bool{}
	for _, a := range plan.Asks {
		asks[a.ID] = true
	}
	for id := range d.Answers {
		if !asks[id] {
			return &pack.Error{File: plan.File, Rule: RuleDecision, Detail: "no ask " + id + " in this pack"}
		}
	}
	return nil
}

// landedState is the new passport: the pack's task state under the new id,
// with facts sealed, asks and checks stored, next steps ordered, lineage
// kept and landed_from recorded.
func landedState(plan *Plan, d Decisions, env Env, now time.Time) (state *ojson.Value, restored []string, next []Step, err error) {
	at := store.Timestamp(now)
	// Copies that share what they do not change (ojson.Shallow): the new
	// passport shares the pack's facts instead of copying 110,000 of them
	// (issue 20). Every change below replaces a member of state or of a
	// value copied here; none changes a value the pack object holds.
	obj := pack.Sealed(plan.obj) // the lenient read sealed already; sealing is idempotent (§4.2)
	lineage := keptLineage(obj)
	state = obj.Get("passport").Shallow()
	if state.Obj() == nil {
		state = ojson.NewObject()
	}
	for _, k := range localOnly {
		state.Obj().Delete(k)
	}
	// A verified org fact that arrives without its source is the sender's
	// (§4.2): recorded here, so a pack made onward names the sender, not
	// whoever passed the fact on.
	annotateOrgFacts(state, plan.Sender.Actor)
	state.Set("id", ojson.NewString(plan.ID))
	state.Set("version", ojson.NewInt(0))
	state.Set("machine_id", ojson.NewString(env.Machine))
	state.Set("created_at", ojson.NewString(at))
	state.Set("updated_at", ojson.NewString(at))

	if d.TrustOwnFacts && env.Machine != "" && plan.OwnLineage != "" {
		facts := state.Get("facts")
		var items []*ojson.Value
		for i, f := range facts.Items() {
			fact := model.Fact{V: f}
			if f.Obj() == nil || !fact.Sealed() || fact.VerifiedOn() != env.Machine {
				continue
			}
			if items == nil {
				items = facts.Shallow().Items()
			}
			c := f.Shallow() // only its own members are set
			c.Set("verified", ojson.NewBool(true))
			c.Set("needs_reverify", ojson.NewBool(false))
			items[i] = c
			restored = append(restored, fact.Claim())
		}
		if items != nil {
			state.Set("facts", ojson.NewArray(items...))
		}
	}

	asks := ojson.NewArray()
	for _, a := range obj.Get("asks").Items() {
		c := a.Clone()
		if c.Obj() != nil {
			c.Obj().Delete(AskedAt)
		}
		asks.Append(c)
	}
	state.Set("asks", asks)
	for _, id := range sortedKeys(d.Answers) {
		if err := RefuseCredentialAnswer(id, d.Answers[id]); err != nil {
			return nil, nil, nil, err
		}
		if err := store.AnswerAsk(state, id, d.Answers[id], env.by(), now); err != nil {
			return nil, nil, nil, err
		}
	}

	checks := ojson.NewArray()
	for _, c := range obj.Get("landing_checks").Items() {
		cc := c.Clone()
		if cc.Obj() != nil {
			cc.Set("status", ojson.NewString(model.CheckPending))
		}
		checks.Append(cc)
	}
	state.Set("landing_checks", checks)
	for _, id := range sortedKeys(d.CheckStatus) {
		if err := store.SetCheck(state, id, d.CheckStatus[id], env.by(), now); err != nil {
			return nil, nil, nil, err
		}
	}
	for _, id := range sortedKeys(d.CheckRuns) {
		if err := store.RecordCheckRun(state, id, d.CheckRuns[id].record(env.by(), now)); err != nil {
			return nil, nil, nil, err
		}
	}

	state.Set("lineage", lineage)

	next = plan.stepsOf(d)
	// The steps this landing made (checks, re-verification, asks) come
	// before the sender's own (steps). next_steps and the generated steps
	// are written from next as the state is saved, not copied into lists
	// of their own (issue 20: a pack of 110,000 facts makes 55,000 steps).
	gen := 0
	for gen < len(next) && next[gen].Kind != StepSender {
		gen++
	}
	generated, own := next[:gen], next[gen:]
	if slices.ContainsFunc(own, func(s Step) bool { return s.Kind != StepSender }) {
		generated, own = nil, nil // not in steps' order: sorted out
		for _, s := range next {
			if s.Kind == StepSender {
				own = append(own, s)
			} else {
				generated = append(generated, s)
			}
		}
	}
	state.Set("next_steps", stepTexts(next))

	lf := ojson.NewObject()
	file := plan.File
	if abs, err := filepath.Abs(file); err == nil && file != "" {
		file = abs
	}
	lf.Set("file", ojson.NewString(file))
	lf.Set("sha256", ojson.NewString(plan.SHA256))
	lf.Set("object_sha256", ojson.NewString(plan.ObjectSHA256))
	lf.Set("content_sha256", ojson.NewString(plan.ContentSHA256))
	lf.Set("kind", ojson.NewString(plan.Kind))
	lf.Set("landed_at", ojson.NewString(at))
	origin := ojson.NewObject()
	origin.Set("actor", ojson.NewString(plan.Sender.Actor))
	origin.Set("machine", ojson.NewString(plan.Sender.Machine))
	origin.Set("harness", ojson.NewString(plan.Sender.Harness))
	lf.Set("origin", origin)
	// The steps this landing wrote for the receiver (checks, re-verification,
	// asks) are this hop's, not the task's: Build leaves them out of the
	// next pack, so only the sender's own steps travel on (GeneratedSteps).
	lf.Set(GeneratedSteps, stepTexts(generated))
	// What came from the pack keeps its label after landing (TaskPack 0.1
	// §4.5, D25): the sender's own steps and facts as they arrived, and
	// the text the plan found reading like instructions, so every later
	// open shows them as the sender's, flagged, not as this side's.
	// A sender's step that reads as a generated one is not kept as the
	// sender's. Looked up in the set of the sender's few steps, not a set
	// of the generated ones: a pack of 110,000 facts makes 55,000
	// re-verification steps (issue 20).
	sender := make(map[string]bool, len(own)) // a sender's step's text → whether a generated step has it too
	for _, s := range own {
		sender[s.Text] = false
	}
	for _, s := range generated {
		if _, ok := sender[s.Text]; ok {
			sender[s.Text] = true
		}
	}
	var senderSteps []string
	for _, s := range own {
		if !sender[s.Text] {
			senderSteps = append(senderSteps, s.Text)
		}
	}
	lf.Set(SenderSteps, ojson.NewStrings(senderSteps))
	lf.Set(SenderFacts, claimsOf(state.Get("facts").Items()))
	lf.Set(Findings, findingsValue(plan.Instructions))
	lf.Set("credential_like", ojson.NewInt(int64(len(plan.Credentials))))
	state.Set("landed_from", lf)
	return state, restored, next, nil
}

// stepTexts is the texts of steps, as a list made when it is written.
func stepTexts(steps []Step) *ojson.Value {
	return ojson.NewArrayFunc(len(steps), func(i int) *ojson.Value { return ojson.NewString(steps[i].Text) })
}

// claimsOf is the claims of facts, those that have one, in order: written
// as it is read from the facts, not copied into a list of its own (issue
// 20: 110,000 claims), since nothing changes the facts of a landed state
// before it is saved.
func claimsOf(facts []*ojson.Value) *ojson.Value {
	var with []int32 // the facts with a claim, when some have none
	n := 0
	for i, f := range facts {
		if (model.Fact{V: f}).Claim() == "" {
			if with == nil {
				with = make([]int32, 0, len(facts))
				for j := range i {
					with = append(with, int32(j))
				}
			}
			continue
		}
		if with != nil {
			with = append(with, int32(i))
		}
		n++
	}
	return ojson.NewArrayFunc(n, func(i int) *ojson.Value {
		if with != nil {
			i = int(with[i])
		}
		return ojson.NewString((model.Fact{V: facts[i]}).Claim())
	})
}

// The members of landed_from that keep a landed pack's labels (D25).
const (
	SenderSteps = "sender_steps" // the next steps the sender wrote, as they arrived
	SenderFacts = "sender_facts" // the claims of the facts the pack carried
	Findings    = "findings"     // text in the pack that reads like instructions: where, rule, excerpt
)

// FlaggedCount is how many findings a stored state keeps: its
// landed_from's and each merged receipt's (D25), the sentences its packs
// held that read like instructions.
func FlaggedCount(state *ojson.Value) int {
	n := len(state.Get("landed_from").Get(Findings).Items())
	for _, r := range state.Get("receipts_merged").Items() {
		n += len(r.Get(Findings).Items())
	}
	return n
}

// findingsValue is the plan's instruction findings as stored, each once:
// a plan whose luggage was read before the landing (the walkthrough's
// summary) holds what the landing finds again while it writes.
func findingsValue(fs []scan.Finding) *ojson.Value {
	arr := ojson.NewArray()
	seen := map[[3]string]bool{}
	for _, f := range fs {
		k := [3]string{f.Where, f.Rule, f.Excerpt}
		if seen[k] {
			continue
		}
		seen[k] = true
		o := ojson.NewObject()
		o.Set("where", ojson.NewString(f.Where))
		o.Set("rule", ojson.NewString(f.Rule))
		o.Set("excerpt", ojson.NewString(f.Excerpt))
		arr.Append(o)
	}
	return arr
}

// keptLineage is the lineage a landed passport keeps (§3.1): the pack's
// own, as written. A pack that names no chain (a hand-made or retired-format
// pack) gets the one it implies — its passport's "<id>@<version>", rooted
// there unless it says otherwise — so the next pack from here still says
// where a receipt goes; the plan warned about the gap.
func keptLineage(obj *ojson.Value) *ojson.Value {
	lin := obj.Get("lineage")
	l := model.LineageOf(lin)
	pp := model.PackObject{V: obj}.Passport()
	if len(l.Chain) > 0 || pp.ID() == "" {
		if lin.Obj() == nil {
			return l.Value()
		}
		return lin.Clone()
	}
	out := lin.Clone()
	if out.Obj() == nil {
		out = ojson.NewObject()
	}
	if !l.HasRootID {
		out.Set("root_id", ojson.NewString(pp.ID()))
	}
	if !l.HasFromVersion {
		out.Set("from_version", ojson.NewInt(pp.Version()))
	}
	out.Set("chain", ojson.NewStrings([]string{model.ChainEntry(pp.ID(), pp.Version())}))
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// lockName is a short, id-safe name for a pack's landing lock.
func lockName(digests ...string) string {
	for _, d := range digests {
		if len(d) >= 16 {
			return d[:16]
		}
	}
	return "unknown"
}
