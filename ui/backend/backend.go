// Package backend connects the terminal UI's small interfaces (common.Lander,
// common.AsksStore, common.HomeSource, common.Inbox) to the headless core: pack for
// opening, judging, planning, landing and merging (TaskPack 0.1 §3–§6),
// internal/store for the passport store, acts for the record log (Acts 0.3).
//
// It only translates: every decision — the plan, the seal, the receipt's
// target, the refusal, the order of next steps — is the core's, and every
// string is passed through unchanged (the ui sanitises when it renders).
package backend

import (
	"context"
	"errors"
	"fmt"
	"github.com/tp-dev/tp/briefing"
	"github.com/tp-dev/tp/home"
	"github.com/tp-dev/tp/pack/scan"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/judge"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/ui/common"
)

// Lander is common.Lander over pack and a home store.
type Lander struct {
	Store    *store.Store
	Env      landing.Env
	Into     string // tp land --into
	FilesOut string // tp land --files-out
	Options  pack.Options
	// Senders is the person's ring of trusted pack senders (D22): the
	// summary names a known signer by the name the person gave it.
	Senders landing.Senders
	// Sealed maps a file the person named that is a sealed pack (age) to
	// its decrypted copy (D22): the screens and every message name the
	// file given, the backend reads the copy.
	Sealed map[string]string

	mu     sync.Mutex
	packs  []*pack.Pack
	staged []*landing.Staged
}

var _ common.Stager = (*Lander)(nil)

// Stage unpacks the handoff's luggage into its staging folder, so the
// landing checks run where the files are; it returns that folder.
func (l *Lander) Stage(ctx context.Context, plan *common.Plan, progress common.Progress) (string, error) {
	r, err := rawOf(plan)
	if err != nil {
		return "", err
	}
	if r.staged != nil {
		return r.staged.Dir, nil
	}
	s, err := landing.Stage(ctx, r.p, r.plan, l.Store, l.FilesOut, func(done, total int64) { progress("unpacking", done, total) })
	if err != nil {
		return "", err
	}
	l.mu.Lock()
	r.staged = s
	l.staged = append(l.staged, s)
	l.mu.Unlock()
	return s.Dir, nil
}

// Unstage removes the staging folder of plan, if any.
func (l *Lander) Unstage(plan *common.Plan) error {
	r, err := rawOf(plan)
	if err != nil || r.staged == nil {
		return err
	}
	return r.staged.Abort()
}

// raw is what a common.Plan carries back to Land and Merge.
type raw struct {
	p      *pack.Pack
	plan   *landing.Plan
	staged *landing.Staged // the luggage unpacked for the checks, until landed
}

// Close closes every pack this lander opened.
func (l *Lander) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var first error
	// Luggage staged for a landing that did not happen is removed: leaving
	// the walkthrough leaves nothing behind.
	for _, s := range l.staged {
		if err := s.Abort(); err != nil && first == nil {
			first = err
		}
	}
	l.staged = nil
	for _, p := range l.packs {
		if err := p.Close(); err != nil && first == nil {
			first = err
		}
	}
	l.packs = nil
	return first
}

// Plan opens file (verifying as it streams), judges it and makes the
// landing or merge plan. Opening writes nothing, so a cancel simply stops
// waiting; the abandoned read closes its pack when it finishes.
func (l *Lander) Plan(ctx context.Context, file string, progress common.Progress) (*common.Plan, error) {
	type result struct {
		pl  *common.Plan
		err error
	}
	done := make(chan result, 1)
	go func() {
		pl, err := l.plan(ctx, file, progress)
		done <- result{pl, err}
	}()
	select {
	case r := <-done:
		return r.pl, r.err
	case <-ctx.Done():
		go func() {
			if r := <-done; r.pl != nil {
				if rw, ok := r.pl.Raw.(*raw); ok {
					rw.p.Close()
				}
			}
		}()
		return nil, ctx.Err()
	}
}

func (l *Lander) plan(ctx context.Context, file string, progress common.Progress) (*common.Plan, error) {
	opts := l.Options
	opts.Progress = func(done, total int64) { progress("verifying", done, total) }
	path := l.pathOf(file)
	p, err := pack.Open(path, opts)
	if err != nil {
		return nil, renameFile(err, path, file)
	}
	if ctx.Err() != nil {
		p.Close()
		return nil, ctx.Err()
	}
	kind := model.PackObject{V: p.Object}.Kind()
	var pl *landing.Plan
	if kind == model.KindReceipt || l.Into != "" {
		pl, err = landing.PlanMerge(ctx, p, l.Store, l.Into, l.Env)
		var pe *pack.Error
		if err != nil && errors.As(err, &pe) && strings.HasPrefix(pe.Rule, "§4.4.1") {
			p.Close()
			return refusedPlan(file, p, kind, pe), nil
		}
	} else {
		pl, err = landing.PlanLanding(ctx, p, l.Store, l.Env)
	}
	if err != nil {
		p.Close()
		return nil, renameFile(err, path, file)
	}
	// What the luggage holds is said on the summary, before the person
	// decides, not only once it has landed: its credentials, and the
	// instructions and transcripts in its text (D5, D13).
	if err := pl.ScanLuggage(ctx, func(done, total int64) { progress("scanning", done, total) }); err != nil {
		p.Close()
		return nil, renameFile(err, path, file)
	}
	pl.File = file // the file the person named, in the plan and the records
	pl.ResolveSigner(l.Senders)
	out := convertPlan(p, pl)
	out.ThisMachine = l.Env.Machine
	if ctx.Err() != nil {
		p.Close()
		return nil, ctx.Err()
	}
	l.mu.Lock()
	l.packs = append(l.packs, p)
	l.mu.Unlock()
	return out, nil
}

// pathOf is the file to read for the one the person named: a sealed
// pack's decrypted copy, or the file itself.
func (l *Lander) pathOf(file string) string {
	if p, ok := l.Sealed[file]; ok {
		return p
	}
	return file
}

// renameFile makes an error about path name file instead (a sealed pack's
// decrypted copy is not a file the person knows).
func renameFile(err error, path, file string) error {
	if err == nil || path == file {
		return err
	}
	var pe *pack.Error
	if errors.As(err, &pe) && pe.File == path {
		pe.File = file
	}
	var re *pack.RefusalError
	if errors.As(err, &re) {
		for _, it := range re.Items {
			if it.File == path {
				it.File = file
			}
		}
	}
	if strings.Contains(err.Error(), path) {
		return errors.New(strings.ReplaceAll(err.Error(), path, file))
	}
	return err
}

func refusedPlan(file string, p *pack.Pack, kind string, pe *pack.Error) *common.Plan {
	po := model.PackObject{V: p.Object}
	lin := po.Lineage()
	o := po.Origin()
	pl := &common.Plan{File: file, Kind: kind, PackedAt: po.PackedAt(),
		Origin:  common.Origin{Actor: o.Actor, Machine: o.Machine, Harness: o.Harness},
		Lineage: common.Lineage{RootID: lin.RootID, FromVersion: lin.FromVersion, Chain: lin.Chain},
		Receipt: &common.MergePlan{Target: lin.ReceiptTarget(), Refusal: &common.Refusal{Rule: pe.Rule, Why: pe.Detail,
			Quote: "A receipt answers the passport its sender was landed from: the entry before the last in lineage.chain. It MAY be merged into that passport only. An implementation MUST refuse to merge a receipt into any other passport, and MUST refuse to merge a handoff at all. (TaskPack §4.4.1)"}},
	}
	if kind != model.KindReceipt {
		pl.Receipt.Target = ""
	}
	return pl
}

func convertPlan(p *pack.Pack, pl *landing.Plan) *common.Plan {
	out := &common.Plan{
		File: pl.File, Kind: pl.Kind, PackedAt: pl.Sender.PackedAt, Note: pl.Note,
		Signer: pl.Signer.Say(), SignerState: pl.Signer.State,
		Origin:  common.Origin{Actor: pl.Sender.Actor, Machine: pl.Sender.Machine, Harness: pl.Sender.Harness},
		Lineage: common.Lineage{RootID: pl.Lineage.RootID, FromVersion: pl.Lineage.FromVersion, Chain: pl.Lineage.Chain},
		Integrity: common.Integrity{Encoding: string(pl.Encoding), Verified: pl.Integrity.Verified, Files: pl.Integrity.LuggageFiles,
			Bytes: pl.Integrity.LuggageBytes, Detail: pl.Integrity.How},
		FilesDir:      pl.FilesDir,
		AlreadyLanded: pl.AlreadyLandedAs,
		Raw:           &raw{p: p, plan: pl},
	}
	for _, f := range pl.Instructions {
		out.Warnings = append(out.Warnings, common.Warning{Kind: string(f.Class), Where: f.Where, Text: f.Excerpt})
	}
	for _, f := range pl.Credentials {
		out.Warnings = append(out.Warnings, common.Warning{Kind: string(f.Class), Where: f.Where + " (" + f.Rule + ")", Text: f.Excerpt})
	}
	for _, r := range pl.Repairs {
		out.Warnings = append(out.Warnings, common.Warning{Kind: "repair", Where: r.Where + " (" + r.Rule + ")", Text: r.Detail})
	}
	for _, w := range pl.Warnings {
		out.Warnings = append(out.Warnings, common.Warning{Kind: "note", Text: w})
	}
	for _, c := range pl.Checks {
		out.Checks = append(out.Checks, common.Check{ID: c.ID, Check: c.Check, How: c.How, Required: c.Required, Status: c.Status})
	}
	for _, f := range pl.Facts {
		out.Facts = append(out.Facts, fact(f))
	}
	for _, a := range pl.Asks {
		out.Asks = append(out.Asks, ask(a))
	}
	for _, g := range pl.Luggage {
		out.Luggage = append(out.Luggage, common.LuggageFile{Name: g.Name, Size: g.Bytes, Dest: g.To, LandsAs: g.LandsAs})
	}
	pp := model.PackObject{V: p.Object}.Passport()
	out.Passport = common.PassportText{ID: pl.Sender.PassportID, Title: pl.Title, Goal: pl.Goal,
		CurrentState: pp.CurrentState(), NextSteps: pp.NextSteps(), Decisions: decisionTexts(pp.V.Get("decisions")),
		Facts: out.Facts, Artifacts: pp.Artifacts()}
	if m := pl.Merge; m != nil {
		mp := &common.MergePlan{Target: m.Target, TargetTitle: m.TargetTitle, Already: m.AlreadyMerged, LuggageThere: m.LuggageThere}
		for _, c := range m.AsksChanged {
			mp.Asks = append(mp.Asks, common.AskChange{ID: c.ID, What: c.What, Before: askState(c.Before), After: askState(c.After)})
		}
		for _, a := range m.AsksAdopted {
			mp.Asks = append(mp.Asks, common.AskChange{ID: a.ID, What: a.What, Adopted: true, After: ask(a)})
		}
		for _, c := range m.ChecksReported {
			mp.Checks = append(mp.Checks, common.Check{ID: c.ID, Check: c.Check, How: c.How, Required: c.Required, Status: c.Status})
		}
		for _, f := range m.FactsAdded {
			mp.Facts = append(mp.Facts, fact(f))
		}
		out.Receipt = mp
	}
	return out
}

func fact(f landing.PlanFact) common.Fact {
	return common.Fact{Claim: f.Claim, Scope: f.Scope, Verified: f.Verified, Sealed: f.Sealed, VerifiedOn: f.VerifiedOn, Restorable: f.Restorable,
		Evidence: f.Evidence, Source: f.Source, SourceActor: f.SourceActor}
}

func ask(a landing.PlanAsk) common.Ask {
	return common.Ask{ID: a.ID, To: a.To, What: a.What, Why: a.Why, Accept: a.Accept, Status: a.Status, Answer: a.Answer, AnsweredBy: a.AnsweredBy, AnsweredAt: a.AnsweredAt}
}

func askState(s landing.AskState) common.Ask {
	return common.Ask{Status: s.Status, Answer: s.Answer, AnsweredBy: s.AnsweredBy, AnsweredAt: s.AnsweredAt}
}

// texts reads a list of decisions that may be strings or objects.
// decisionTexts are the decisions with their reasons: a decision shown
// without its why hides half of it (issue 17).
func decisionTexts(v *ojson.Value) []string {
	out := texts(v)
	for i, e := range v.Items() {
		if i >= len(out) {
			break
		}
		for _, k := range []string{"why", "reason", "rationale"} {
			if w := strings.TrimSpace(e.Get(k).Text()); w != "" {
				out[i] += " — why: " + w
				break
			}
		}
	}
	return out
}

func texts(v *ojson.Value) []string {
	var out []string
	for _, e := range v.Items() {
		if s, ok := e.Str(); ok {
			out = append(out, s)
			continue
		}
		for _, k := range []string{"decision", "what", "text", "title", "summary"} {
			if s := e.Get(k).Text(); s != "" {
				out = append(out, s)
				goto next
			}
		}
		out = append(out, strings.TrimSpace(string(ojson.Compact(e))))
	next:
	}
	return out
}

func rawOf(plan *common.Plan) (*raw, error) {
	r, ok := plan.Raw.(*raw)
	if !ok || r == nil {
		return nil, errors.New("this plan was not made by the core")
	}
	return r, nil
}

// Judge reads file strictly and returns C0–C10 (§6) for the summary. The UI
// calls it after the first frame, so judging never delays the walkthrough.
func (l *Lander) Judge(ctx context.Context, file string) ([]common.Conformance, error) {
	type result struct {
		rep *judge.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		path := l.pathOf(file)
		rep, err := judge.Conformance(path, pack.Options{Limits: l.Options.Limits})
		done <- result{rep, renameFile(err, path, file)}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, r.err
		}
		var out []common.Conformance
		for _, c := range r.rep.Checks {
			out = append(out, common.Conformance{ID: c.ID, Pass: c.Pass, Reason: c.Reason})
		}
		return out, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Land lands the handoff with the person's decisions.
func (l *Lander) Land(ctx context.Context, plan *common.Plan, d common.Decisions, progress common.Progress) (*common.Landed, error) {
	r, err := rawOf(plan)
	if err != nil {
		return nil, err
	}
	pd := landing.Decisions{CheckStatus: map[string]string{}, Answers: map[string]string{}, TrustOwnFacts: d.TrustOwnFacts,
		Again: d.Again, FilesOut: l.FilesOut, Staged: r.staged,
		Progress: func(done, total int64) { progress("extracting", done, total) }}
	hows := map[string]string{}
	for _, c := range r.plan.Checks {
		hows[c.ID] = c.How
	}
	for id, c := range d.Checks {
		if c.Status != "" && c.Status != model.CheckPending {
			pd.CheckStatus[id] = c.Status
		}
		if c.Ran {
			if pd.CheckRuns == nil {
				pd.CheckRuns = map[string]landing.CheckRun{}
			}
			pd.CheckRuns[id] = landing.CheckRun{Command: c.Command, Exit: c.Exit, Edited: c.Command != hows[id], At: c.RanAt}
		}
	}
	for id, a := range d.Answers {
		pd.Answers[id] = a
	}
	res, err := landing.Land(ctx, r.p, r.plan, l.Store, pd)
	if err != nil {
		return nil, err
	}
	// res.Warnings says each credential-like string already; what reads
	// like instructions in the luggage is shown quoted, as data.
	out := &common.Landed{ID: res.ID, FilesDir: res.FilesDir, Warnings: res.Warnings}
	for _, s := range res.NextSteps {
		out.NextSteps = append(out.NextSteps, s.Text)
	}
	for _, f := range res.Instructions {
		out.Warnings = append(out.Warnings, luggageInstruction(f))
	}
	return out, nil
}

// luggageInstruction is a landing's or a merge's warning for a sentence
// in the luggage that reads like an instruction: its place and rule in
// tp's words, the sentence quoted as data.
func luggageInstruction(f scan.Finding) string {
	return "luggage " + f.Where + " reads like instructions (" + f.Rule + "; data, never acted on): " + strconv.Quote(f.Excerpt)
}

// Merge merges the receipt into its target.
func (l *Lander) Merge(ctx context.Context, plan *common.Plan, progress common.Progress) (*common.Merged, error) {
	r, err := rawOf(plan)
	if err != nil {
		return nil, err
	}
	res, err := landing.Merge(ctx, r.p, r.plan, l.Store, landing.Decisions{
		Progress: func(done, total int64) { progress("extracting", done, total) }})
	if err != nil {
		return nil, err
	}
	changed := 0
	if res.Changed && r.plan.Merge != nil {
		changed = len(r.plan.Merge.AsksChanged) + len(r.plan.Merge.AsksAdopted)
	}
	out := &common.Merged{Target: res.Target, Version: res.Version, Changed: changed, Warnings: res.Warnings}
	for _, f := range res.Instructions {
		out.Warnings = append(out.Warnings, luggageInstruction(f))
	}
	return out, nil
}

// Asks is common.AsksStore over a home store.
type Asks struct {
	Store   *store.Store
	Actor   string // answered_by is Actor@Machine (D14)
	Machine string
	// Dir is the folder a receipt's files must stay in; empty is the
	// working directory.
	Dir string
}

func (a *Asks) dir() (string, error) {
	if a.Dir != "" {
		return a.Dir, nil
	}
	return os.Getwd()
}

// CheckFiles lists the files paths carry (landing.CheckLuggage): confined
// to Dir, links out refused, each file scanned for what pack.Write refuses.
func (a *Asks) CheckFiles(ctx context.Context, paths []string) ([]common.ReceiptFile, error) {
	dir, err := a.dir()
	if err != nil {
		return nil, err
	}
	ls, err := landing.CheckLuggage(paths, dir)
	if err != nil {
		return nil, err
	}
	out := make([]common.ReceiptFile, len(ls))
	for i, l := range ls {
		out[i] = common.ReceiptFile{Name: l.Name, Path: l.Path, Size: l.Size, Refused: l.Refused}
	}
	return out, nil
}

// LoadAsks reads a passport's asks.
func (a *Asks) LoadAsks(ctx context.Context, id string) (*common.AskSheet, error) {
	st, err := a.Store.Get(id)
	if err != nil {
		return nil, err
	}
	p := st.Passport()
	sh := &common.AskSheet{ID: p.ID(), Title: p.Title(), Version: st.Version, ReceiptName: p.ID() + "-receipt.taskpack"}
	if sh.ID == "" {
		sh.ID = id
	}
	if !landing.ReceiptHasHome(st.V) {
		sh.NoReceipt = (&landing.NoHomeError{ID: sh.ID}).Error()
	}
	for _, x := range store.Asks(st.V) {
		sh.Asks = append(sh.Asks, common.Ask{ID: x.ID(), To: x.To(), What: x.What(), Why: x.Why(), Accept: x.Accept(),
			Status: store.AskStatus(x), Answer: x.Answer(), AnsweredBy: x.AnsweredBy(), AnsweredAt: x.AnsweredAt()})
	}
	return sh, nil
}

// SaveAsks records the answers and drops together, or none of them
// (landing.EditAsks, the job tp asks runs too).
func (a *Asks) SaveAsks(ctx context.Context, sheet *common.AskSheet, edits []common.AskEdit) (*common.AskSheet, error) {
	req := landing.AsksRequest{ID: sheet.ID, By: store.By(a.Actor, a.Machine)}
	for _, e := range edits {
		req.Edits = append(req.Edits, landing.AskEdit{ID: e.ID, Drop: e.Action == "drop", Answer: e.Answer})
	}
	if _, err := landing.EditAsks(ctx, a.Store, req); err != nil {
		return nil, err
	}
	return a.LoadAsks(ctx, sheet.ID)
}

// PackReceipt writes a receipt carrying the passport's asks and answers
// home (§4.4.1) with landing.Pack, the job tp pack runs too; a name ending
// .json is the flat form.
func (a *Asks) PackReceipt(ctx context.Context, id, out string, files []common.ReceiptFile) (string, error) {
	if out == "" {
		return "", errors.New("no file name")
	}
	dir, err := a.dir()
	if err != nil {
		return "", err
	}
	var listed []landing.LuggageCheck
	for _, f := range files {
		if len(f.Refused) > 0 {
			return "", fmt.Errorf("luggage %s cannot travel: %s; nothing was written", f.Name, f.Refused[0])
		}
		// Still the file listed, inside the folder, and no link now.
		if err := landing.StillInside(f.Path, dir); err != nil {
			return "", err
		}
		listed = append(listed, landing.LuggageCheck{Name: f.Name, Path: f.Path, Size: f.Size})
	}
	enc := pack.EncodingBag
	if strings.HasSuffix(out, ".json") {
		enc = pack.EncodingFlat
	}
	_, err = landing.Pack(ctx, a.Store, landing.PackRequest{ID: id, Out: out, Encoding: enc,
		Build: landing.BuildOptions{Kind: model.KindReceipt, Actor: a.Actor, Machine: a.Machine, Listed: listed}})
	if err != nil {
		return "", err
	}
	return out, nil
}

// Home is common.HomeSource over the store, the acts inbox and a folder.
type Home struct {
	Store *store.Store
	Inbox common.Inbox // may be nil
	Dir   string       // where to look for packs
}

// ListHome lists the store's passport files by id, reading none of them.
func (h *Home) ListHome(ctx context.Context) (*common.HomeListing, error) {
	ids, err := h.Store.IDs()
	if err != nil {
		return nil, err
	}
	return &common.HomeListing{Passports: ids}, nil
}

// LoadHome lists passports, open acts by project and packs in Dir.
func (h *Home) LoadHome(ctx context.Context) (*common.HomeData, error) {
	d := &common.HomeData{}
	// Passports and packs as `tp --plain` lists them (package home); the
	// acts come through the inbox port the screen already uses.
	sum, err := home.Summarize(ctx, home.Sources{Store: h.Store, Dir: h.Dir})
	if err != nil {
		return nil, err
	}
	for _, p := range sum.Passports {
		d.Passports = append(d.Passports, common.PassportRow{ID: p.ID, Title: p.Title, Chain: p.Chain,
			OpenAsks: p.OpenAsks, PendingChecks: p.PendingChecks, FailedChecks: p.FailedChecks, Flagged: p.Flagged, UpdatedAt: p.UpdatedAt})
	}
	d.Errors = append(d.Errors, sum.Problems...)
	for i, n := range sum.Packs {
		d.Packs = append(d.Packs, filepath.Join(h.Dir, n))
		st := common.PackState{State: common.PackToLand}
		if i < len(sum.PackStates) {
			st = common.PackState{State: sum.PackStates[i].State, Passport: sum.PackStates[i].Passport}
		}
		d.PackStates = append(d.PackStates, st)
	}
	for _, in := range sum.Incoming {
		d.Incoming = append(d.Incoming, common.IncomingRow{TaskID: in.TaskID, Kind: in.Kind, Title: in.Title,
			State: in.State, LandedAs: in.LandedAs, Path: in.Path})
	}
	if h.Inbox != nil {
		list, err := h.Inbox.LoadActs(ctx)
		if err != nil {
			d.Errors = append(d.Errors, "acts: "+err.Error())
		}
		for _, f := range list.Findings {
			d.Errors = append(d.Errors, "acts: "+f)
		}
		open := map[string]int{}
		for _, a := range list.Acts {
			if a.Status != "settled" {
				open[a.Project]++
			}
		}
		for p, n := range open {
			d.Projects = append(d.Projects, common.ProjectRow{Project: p, Open: n})
		}
		sort.Slice(d.Projects, func(i, j int) bool { return d.Projects[i].Project < d.Projects[j].Project })
	}
	return d, nil
}

var _ = fmt.Sprintf

// Checks is common.ChecksStore over a home store.
type Checks struct {
	Store   *store.Store
	Actor   string // checked_by is Actor@Machine (D14)
	Machine string
}

// LoadChecks reads a passport's landing checks and the sender its how came
// from (landed_from.origin).
func (c *Checks) LoadChecks(ctx context.Context, id string) (*common.CheckSheet, error) {
	st, err := c.Store.Get(id)
	if err != nil {
		return nil, err
	}
	p := st.Passport()
	o := st.V.Get("landed_from").Get("origin")
	sh := &common.CheckSheet{ID: p.ID(), Title: p.Title(), Version: st.Version,
		Origin: common.Origin{Actor: o.Get("actor").Text(), Machine: o.Get("machine").Text(), Harness: o.Get("harness").Text()}}
	if sh.ID == "" {
		sh.ID = id
	}
	for _, x := range store.Checks(st.V) {
		sh.Checks = append(sh.Checks, common.Check{ID: x.ID(), Check: x.Check(), How: x.How(), Required: x.Required(),
			Status: store.CheckStatus(x), Run: checkRun(x.V.Get("run"))})
	}
	// The checks run where the passport's luggage is (issue 10).
	dir := st.V.Get("landed_from").Get("files_dir").Text()
	if dir == "" {
		dir = c.Store.FilesDir(id)
	}
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		sh.FilesDir = dir
	}
	return sh, nil
}

// checkRun reads a check's recorded run (store.RecordCheckRun); nil when
// none was recorded.
func checkRun(v *ojson.Value) *common.CheckRun {
	if v.Obj() == nil {
		return nil
	}
	exit, _ := v.Get("exit_code").Int()
	edited, _ := v.Get("edited").Bool()
	return &common.CheckRun{Command: v.Get("command").Text(), Edited: edited, Exit: int(exit),
		By: v.Get("ran_by").Text(), At: v.Get("ran_at").Text()}
}

// SaveChecks records the attested statuses, and the commands the person
// confirmed and ran (D12), together, or none of them (landing.EditChecks,
// the job tp checks runs too), and returns the checks as saved.
func (c *Checks) SaveChecks(ctx context.Context, id string, checks map[string]common.CheckDecision) (*common.CheckSheet, error) {
	req := landing.ChecksRequest{ID: id, By: store.By(c.Actor, c.Machine)}
	for k, d := range checks {
		req.Edits = append(req.Edits, landing.CheckEdit{ID: k, Status: d.Status, Ran: d.Ran, Command: d.Command, Exit: d.Exit, At: d.RanAt})
	}
	if _, err := landing.EditChecks(ctx, c.Store, req); err != nil {
		return nil, err
	}
	return c.LoadChecks(ctx, id)
}

// Passports is common.PassportSource over a home store.
type Passports struct{ Store *store.Store }

// LoadPassport reads one stored passport for display.
func (ps *Passports) LoadPassport(ctx context.Context, id string) (*common.PassportView, error) {
	st, err := ps.Store.Get(id)
	if err != nil {
		return nil, err
	}
	p := st.Passport()
	e := store.EntryOf(st.V, st.Version)
	v := &common.PassportView{Version: st.Version, OpenAsks: e.OpenAsks, PendingChecks: e.PendingChecks, FailedChecks: e.FailedChecks, UpdatedAt: e.UpdatedAt,
		Chain: model.LineageOf(st.V.Get("lineage")).Chain,
		Text: common.PassportText{Title: p.Title(), Goal: p.Goal(), CurrentState: p.CurrentState(), NextSteps: p.NextSteps(),
			Decisions: decisionTexts(st.V.Get("decisions")), Artifacts: p.Artifacts()}}
	// Who sent what (D25), as every open of the passport says it.
	lb := briefing.LabelsOf(st.V)
	v.Text.NextStepsFrom = lb.StepsFrom(v.Text.NextSteps)
	for _, f := range p.Facts() {
		sealed := !f.Verified() && f.VerifiedOn() != ""
		cf := common.Fact{Claim: f.Claim(), Scope: f.Scope(), Verified: f.Verified(), Sealed: sealed, VerifiedOn: f.VerifiedOn(),
			Evidence: f.Evidence(), Source: f.Source(), SourceActor: f.SourceActor()}
		if from := lb.FactFrom(f.Claim()); f.Verified() && !f.NeedsReverify() {
			cf.From = from
		}
		v.Text.Facts = append(v.Text.Facts, cf)
	}
	if fi, err := os.Stat(ps.Store.FilesDir(id)); err == nil && fi.IsDir() {
		v.FilesDir = ps.Store.FilesDir(id)
	}
	from := lb.LandedFrom
	if from == "" {
		from = "the sender"
	}
	for _, f := range lb.FindingsAtLanding {
		v.Flagged = append(v.Flagged, common.Flagged{From: from, Where: f.Where + " (" + f.Rule + ")", Text: f.Excerpt})
	}
	for _, f := range lb.FindingsAtMerge {
		v.Flagged = append(v.Flagged, common.Flagged{From: "the receipt " + f.From, Where: f.Where + " (" + f.Rule + ")", Text: f.Excerpt})
	}
	return v, nil
}
