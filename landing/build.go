package landing

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// Harness is what tp writes as origin.harness (§3).
const Harness = "tp"

// AskedAt is the field tp adds to an ask recorded in the passport that stays
// home when that passport sends it (§4.3): it tells the asks this passport
// sent apart from the asks it received to answer, so a receipt carries only
// the latter back. It never travels in a pack.
const AskedAt = "asked_at"

// Local bookkeeping on a stored passport that describes this machine only
// (file paths, digests of packs landed here); it is not part of the task
// state and never travels in a pack.
var localOnly = []string{"landed_from", "receipts_merged"}

// GeneratedSteps is the field of landed_from listing the next steps a
// landing wrote for its receiver (required checks, re-verification of sealed
// facts, asks to answer). They describe that hop: a pack made onward leaves
// them out of next_steps, so the next receiver sees the sender's own steps
// as the sender's, not the previous hop's checks and asks piled on top
// (the next receiver gets its own, from the pack's checks, facts and asks).
// A step the person edited is no longer the generated text and travels.
const GeneratedSteps = store.GeneratedSteps

// BuildOptions is everything a pack carries besides the passport (§3).
type BuildOptions struct {
	Kind  string   // model.KindHandoff (the default) or model.KindReceipt
	Files []string // luggage on this machine: files, or folders that keep their shape
	// Listed is luggage already listed and checked (CheckLuggage): carried
	// under its Name, read from its Path, with no second look-up of a path
	// a link could have changed meanwhile.
	Listed  []LuggageCheck
	Asks    []*ojson.Value // asks sent with this pack (§4.3); a missing id is minted
	Checks  []*ojson.Value // landing checks (§4.4); a missing id is minted, required defaults to true
	Note    string
	Actor   string    // origin.actor (D14)
	Machine string    // origin.machine (D14)
	Now     time.Time // packed_at; zero means time.Now()
	// HomelessReceipt lets a receipt be built from a passport it would go
	// home to itself: one never landed from a pack (D6 homeless). Only the
	// reference's own entry points set it (task_passport_pack, the
	// task-passport command line), which pack such receipts; tp's own
	// refuse them (NoHomeError).
	HomelessReceipt bool
	// WithRepository carries the repository metadata (.git/, .hg/, a bare
	// repository) found inside a folder of Files. By default it is left out
	// (Built.LeftOut): its history is compressed, so the credential check
	// of D5 cannot read it (D5-repository).
	WithRepository bool
}

// NoHomeError is a receipt refused because the passport it is packed from
// was never landed from a pack: its lineage names no passport before it, so
// the receipt's target (§4.4.1, D6) would be this very passport and the
// receipt could go nowhere (D6 homeless).
type NoHomeError struct{ ID string }

func (e *NoHomeError) Error() string {
	return fmt.Sprintf("%s was not landed from a pack (its lineage names no passport before it), so a receipt from it has no passport to go home to (TaskPack 0.1 §4.4.1, D6); nothing was written", sanitize.Line(e.ID))
}

// Homeless is the warning for such a receipt packed anyway (the
// reference's entry points, HomelessReceipt).
func (e *NoHomeError) Homeless() string {
	return fmt.Sprintf("%s was not landed from a pack, so this receipt has no passport to go home to (TaskPack 0.1 §4.4.1, D6): it could merge only into %s itself", sanitize.Line(e.ID), sanitize.Line(e.ID))
}

// Hint says what the person may have meant.
func (e *NoHomeError) Hint() string {
	return "a receipt answers the asks of a pack you landed: pack it from the passport tp land made; to hand this work over, pack it without --receipt"
}

// ReceiptHasHome reports whether a receipt packed from stored would go home
// to another passport (§4.4.1, D6): false for a passport never landed from
// a pack, whose receipt would answer itself.
func ReceiptHasHome(stored *ojson.Value) bool {
	pp := model.Passport{V: stored}
	return model.LineageOf(stored.Get("lineage")).Extend(pp.ID(), pp.Version()).ReceiptTarget() != pp.ID()
}

// Built is a pack ready to write plus what must be recorded at home.
type Built struct {
	// Source is the pack object and its luggage, unsealed: pack.Write seals
	// and refuses, so nothing here has been judged yet.
	Source pack.Source
	// Home is the stored passport with the asks this pack sends appended
	// (marked with AskedAt), to be saved with the version it was read at, so
	// a receipt has somewhere to land (§4.3). Nil when the pack sends no asks.
	Home *ojson.Value
	// Sent are the new asks this pack sends, as they appear in the pack.
	Sent []model.Ask
	// Resent are open asks the passport had already sent, asked again word
	// for word: in the pack under their id, not recorded at home again.
	Resent []model.Ask
	// Files are the luggage files with the local path each one comes from.
	Files []LocalFile
	// LeftOut are the repository folders (with a trailing slash) found in
	// Files' folders and not carried; Carried those carried because
	// BuildOptions.WithRepository said so (D5-repository).
	LeftOut, RepositoryCarried []string
}

// LocalFile is one luggage file: its name in the pack and where it is here.
type LocalFile struct {
	Name string
	Path string
	Size int64
}

// Build makes the pack object of §3 from a stored passport: kind, origin
// (harness "tp"), packed_at, lineage, note, the task state, asks and landing
// checks; luggage files and folders keep their shape under data/files/.
//
// Lineage (§3, §3.1): the passport's kept chain plus its own
// "<id>@<version>"; root_id never changes; from_version is the passport's
// version. A receipt carries the asks the passport received (with their
// answers) plus the new ones; a handoff carries the new ones only. Build does
// not touch the stored passport: Built.Home is a copy to save.
func Build(ctx context.Context, stored *ojson.Value, o BuildOptions) (*Built, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if stored.Obj() == nil {
		return nil, errors.New("the stored passport is not a JSON object")
	}
	pp := model.Passport{V: stored}
	id := pp.ID()
	if id == "" {
		return nil, errors.New("the stored passport has no id")
	}
	kind := o.Kind
	if kind == "" {
		kind = model.KindHandoff
	}
	if kind != model.KindHandoff && kind != model.KindReceipt {
		return nil, fmt.Errorf("kind %q: a pack is a handoff or a receipt (§3)", kind)
	}
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	packedAt := now.UTC().Format(time.RFC3339)

	// Ids for new asks and checks must not collide with the ones the
	// passport already holds: a receipt is merged by ask id (D6).
	used := map[string]bool{}
	for _, a := range stored.Get("asks").Items() {
		used[model.Ask{V: a}.ID()] = true
	}
	// An ask this passport sent that is still open, asked again word for
	// word (re-packing with the same --ask), is the same ask: it keeps its
	// id and is not recorded at home a second time, or the first copy could
	// never be answered (a receipt answers one id) and home would count both.
	again := map[askWords]*ojson.Value{}
	for _, a := range stored.Get("asks").Items() {
		if ask := (model.Ask{V: a}); a.Has(AskedAt) && ask.Status() == model.AskOpen {
			if _, dup := again[wordsOf(ask)]; !dup {
				again[wordsOf(ask)] = a
			}
		}
	}
	var fresh []*ojson.Value
	var resent []*ojson.Value
	for _, v := range o.Asks {
		if v.Obj() != nil && strings.TrimSpace(v.Get("id").Text()) == "" {
			w := askWords{strings.TrimSpace(v.Get("to").Text()), strings.TrimSpace(v.Get("what").Text()), strings.TrimSpace(v.Get("why").Text()), strings.TrimSpace(v.Get("accept").Text())}
			if w.to == "" {
				w.to = model.NewAsk("", "", "", "").To()
			}
			if home, ok := again[w]; ok {
				delete(again, w) // asked twice in one pack: the second is new
				c := home.Clone()
				c.Obj().Delete(AskedAt)
				resent = append(resent, c)
				continue
			}
		}
		fresh = append(fresh, v)
	}
	sent, err := normaliseAsks(fresh, used)
	if err != nil {
		return nil, err
	}
	checks, err := normaliseChecks(o.Checks)
	if err != nil {
		return nil, err
	}

	files, err := collectLuggage(o.Files)
	if err != nil {
		return nil, err
	}
	var leftOut, carried []string
	if o.WithRepository {
		_, carried = repositoryMetadata(files)
	} else {
		files, leftOut = repositoryMetadata(files)
	}
	for _, l := range o.Listed {
		for _, f := range files {
			if f.Name == l.Name {
				return nil, fmt.Errorf("luggage %q comes from both %s and %s", l.Name, f.Path, l.Path)
			}
		}
		files = append(files, LocalFile{Name: l.Name, Path: l.Path, Size: l.Size})
	}

	// A copy that shares what it does not change (ojson.Shallow): the
	// facts of a big passport are not copied to be packed (issue 20).
	// Every change below replaces a member of state; none changes a value
	// stored shares.
	state := stored.Shallow()
	dropGeneratedSteps(state, stored.Get("landed_from").Get(GeneratedSteps))
	for _, k := range localOnly {
		state.Obj().Delete(k)
	}
	if list := state.Get("asks"); list.Kind() == ojson.Array {
		asks := make([]*ojson.Value, len(list.Items()))
		for i, a := range list.Items() {
			asks[i] = a.Clone()
			asks[i].Obj().Delete(AskedAt)
		}
		state.Set("asks", ojson.NewArray(asks...))
	}

	annotateOrgFacts(state, o.Actor)

	lin := model.LineageOf(stored.Get("lineage")).Extend(id, pp.Version())
	if kind == model.KindReceipt && lin.ReceiptTarget() == id && !o.HomelessReceipt {
		return nil, &NoHomeError{ID: id}
	}

	var asks []*ojson.Value
	if kind == model.KindReceipt {
		// The asks this passport received go back with their answers; the
		// ones it sent elsewhere are not questions for the receiver.
		for _, a := range stored.Get("asks").Items() {
			if a.Has(AskedAt) {
				continue
			}
			c := a.Clone()
			c.Obj().Delete(AskedAt)
			asks = append(asks, c)
		}
	}
	asks = append(asks, resent...)
	for _, a := range sent {
		asks = append(asks, a.V.Clone())
	}

	obj := ojson.NewObject()
	obj.Set("spec", ojson.NewString(model.SpecBag))
	obj.Set("kind", ojson.NewString(kind))
	obj.Set("packed_at", ojson.NewString(packedAt))
	origin := ojson.NewObject()
	origin.Set("actor", ojson.NewString(o.Actor))
	origin.Set("machine", ojson.NewString(o.Machine))
	origin.Set("harness", ojson.NewString(Harness))
	obj.Set("origin", origin)
	obj.Set("lineage", lin.Value())
	obj.Set("note", ojson.NewString(o.Note))
	obj.Set("passport", state)
	obj.Set("asks", ojson.NewArray(asks...))
	var cv []*ojson.Value
	for _, c := range checks {
		cv = append(cv, c.V)
	}
	obj.Set("landing_checks", ojson.NewArray(cv...))

	b := &Built{Sent: sent, Files: files, LeftOut: leftOut, RepositoryCarried: carried}
	for _, a := range resent {
		b.Resent = append(b.Resent, model.Ask{V: a})
	}
	b.Source.Object = obj
	for _, f := range files {
		path := f.Path
		b.Source.Luggage = append(b.Source.Luggage, pack.LuggageSource{
			Name: f.Name,
			Size: f.Size,
			Open: func() (io.ReadCloser, error) { return os.Open(path) },
		})
	}
	if len(sent) > 0 {
		// Shares all but its asks list with stored, which is not
		// changed after (Save writes it and copies what it sets).
		home := stored.Shallow()
		list := home.Get("asks").Shallow()
		if list.Kind() != ojson.Array {
			list = ojson.NewArray()
		}
		home.Set("asks", list)
		for _, a := range sent {
			c := a.V.Clone()
			c.Set(AskedAt, ojson.NewString(packedAt))
			list.Append(c)
		}
		b.Home = home
	}
	return b, nil
}

// askWords is what makes two asks the same question: whom, what, why and
// what counts as answered.
type askWords struct{ to, what, why, accept string }

func wordsOf(a model.Ask) askWords {
	return askWords{strings.TrimSpace(a.To()), strings.TrimSpace(a.What()), strings.TrimSpace(a.Why()), strings.TrimSpace(a.Accept())}
}

// ParseAsk reads the command line's --ask "what|accept|why" (docs/architecture.md, command-line conventions).
// The pipe makes the sender write an accept rule; an ask without one is
// refused when the pack is written (§4.3).
func ParseAsk(s string) *ojson.Value {
	parts := strings.SplitN(s, "|", 3)
	for len(parts) < 3 {
		parts = append(parts, "")
	}
	a := ojson.NewObject()
	a.Set("what", ojson.NewString(strings.TrimSpace(parts[0])))
	a.Set("why", ojson.NewString(strings.TrimSpace(parts[2])))
	a.Set("accept", ojson.NewString(strings.TrimSpace(parts[1])))
	return a
}

// ParseCheck reads the command line's --check "check|how"; such a check is
// required.
func ParseCheck(s string) *ojson.Value {
	check, how, _ := strings.Cut(s, "|")
	c := ojson.NewObject()
	c.Set("check", ojson.NewString(strings.TrimSpace(check)))
	c.Set("how", ojson.NewString(strings.TrimSpace(how)))
	c.Set("required", ojson.NewBool(true))
	return c
}

// ParseList reads a JSON array of asks or checks (--asks FILE, --checks
// FILE, or stdin for "-") from data, naming it name in errors. A UTF-8 byte order mark is
// accepted: Windows PowerShell writes one by default.
func ParseList(data []byte, name string) ([]*ojson.Value, error) {
	v, _, err := ojson.Parse(data) // skips a leading BOM
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if v.Kind() != ojson.Array {
		return nil, fmt.Errorf("%s: expected a JSON array, found %s", name, v.Kind())
	}
	for i, it := range v.Items() {
		if it.Obj() == nil {
			return nil, fmt.Errorf("%s: item %d is %s, not a JSON object", name, i+1, it.Kind())
		}
	}
	return v.Items(), nil
}

// normaliseAsks gives each ask the §4.3 shape: id (minted "aN" when absent,
// never one already used), to, what, why, accept, status open, answer null.
// Fields it does not know are kept.
func normaliseAsks(in []*ojson.Value, used map[string]bool) ([]model.Ask, error) {
	next := 1
	mint := func() string {
		for used["a"+strconv.Itoa(next)] {
			next++
		}
		return "a" + strconv.Itoa(next)
	}
	var out []model.Ask
	for i, v := range in {
		if v.Obj() == nil {
			return nil, fmt.Errorf("ask %d is not a JSON object", i+1)
		}
		id := strings.TrimSpace(v.Get("id").Text())
		if id == "" {
			id = mint()
		} else if used[id] {
			return nil, fmt.Errorf("ask id %q is already used by this passport; ids must be unique so a receipt can answer them (§4.4.1)", id)
		}
		used[id] = true
		a := model.NewAsk(id, strings.TrimSpace(v.Get("what").Text()), strings.TrimSpace(v.Get("why").Text()), strings.TrimSpace(v.Get("accept").Text()))
		if to := strings.TrimSpace(v.Get("to").Text()); to != "" {
			a.V.Set("to", ojson.NewString(to))
		}
		for _, m := range v.Obj().Members() {
			if !a.V.Has(m.Key) {
				a.V.Set(m.Key, m.Value.Clone())
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// normaliseChecks gives each landing check the §4.4 shape: id (minted "cN"
// when absent), check, how, required (true unless false is given).
func normaliseChecks(in []*ojson.Value) ([]model.LandingCheck, error) {
	used := map[string]bool{}
	next := 1
	var out []model.LandingCheck
	for i, v := range in {
		if v.Obj() == nil {
			return nil, fmt.Errorf("landing check %d is not a JSON object", i+1)
		}
		check := strings.TrimSpace(v.Get("check").Text())
		if check == "" {
			return nil, fmt.Errorf("landing check %d says nothing to check (§4.4)", i+1)
		}
		id := strings.TrimSpace(v.Get("id").Text())
		if id == "" {
			for used["c"+strconv.Itoa(next)] {
				next++
			}
			id = "c" + strconv.Itoa(next)
		} else if used[id] {
			return nil, fmt.Errorf("landing check id %q is used twice", id)
		}
		used[id] = true
		req := true
		if b, ok := v.Get("required").Bool(); ok {
			req = b
		}
		c := model.NewLandingCheck(id, check, strings.TrimSpace(v.Get("how").Text()), req)
		for _, m := range v.Obj().Members() {
			if !c.V.Has(m.Key) {
				c.V.Set(m.Key, m.Value.Clone())
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// repositoryMetadata splits luggage into what is not a repository's
// metadata and the repository folders found (pack.GitDirs: .git/, .hg/,
// bare repositories; "./" when the luggage itself is one, and then all of
// it is). A repository's history is compressed, so the credential check of
// D5 cannot read it: a token committed once and removed since would travel
// unseen (D5-repository).
func repositoryMetadata(files []LocalFile) (keep []LocalFile, dirs []string) {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	dirs = pack.GitDirs(names)
	if len(dirs) == 0 {
		return files, nil
	}
	for _, f := range files {
		if !inRepository(f.Name, dirs) {
			keep = append(keep, f)
		}
	}
	return keep, dirs
}

func inRepository(name string, dirs []string) bool {
	for _, d := range dirs {
		if d == "./" || strings.HasPrefix(name, d) {
			return true
		}
	}
	return false
}

// collectLuggage turns --file paths into luggage: a file is carried under
// its base name, a folder under its own name with its shape kept. Links
// inside a folder are not followed (the pack must not carry what the link
// points at by accident); a path named explicitly is.
func collectLuggage(paths []string) ([]LocalFile, error) {
	var out []LocalFile
	seen := map[string]string{}
	add := func(name, path string, size int64) error {
		if prev, ok := seen[name]; ok {
			return fmt.Errorf("luggage %q comes from both %s and %s", name, prev, path)
		}
		seen[name] = path
		out = append(out, LocalFile{Name: name, Path: path, Size: size})
		return nil
	}
	for _, p := range paths {
		clean := filepath.Clean(p)
		info, err := os.Stat(clean)
		if err != nil {
			return nil, fmt.Errorf("luggage: %w", err)
		}
		abs, err := filepath.Abs(clean)
		if err != nil {
			return nil, fmt.Errorf("luggage: %w", err)
		}
		base := filepath.Base(abs)
		if base == string(filepath.Separator) || base == "." {
			return nil, fmt.Errorf("luggage %s has no name to carry it under", p)
		}
		if info.Mode().IsRegular() {
			if err := add(base, clean, info.Size()); err != nil {
				return nil, err
			}
			continue
		}
		if !info.IsDir() {
			return nil, fmt.Errorf("luggage %s is neither a file nor a folder", p)
		}
		var found []LocalFile
		err = filepath.WalkDir(clean, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil // folders are walked; links and devices are not carried
			}
			rel, err := filepath.Rel(clean, path)
			if err != nil {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			found = append(found, LocalFile{Name: base + "/" + filepath.ToSlash(rel), Path: path, Size: fi.Size()})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("luggage: %w", err)
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Name < found[j].Name })
		for _, f := range found {
			if err := add(f.Name, f.Path, f.Size); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// dropGeneratedSteps removes from state's next_steps each step a landing
// generated (GeneratedSteps), once per time it was generated; every other
// step, and the order, is kept.
func dropGeneratedSteps(state, generated *ojson.Value) {
	if generated.Kind() != ojson.Array || state.Get("next_steps").Kind() != ojson.Array {
		return
	}
	left := map[string]int{}
	for _, g := range generated.Items() {
		if s, ok := g.Str(); ok {
			left[s]++
		}
	}
	var keep []*ojson.Value
	for _, s := range state.Get("next_steps").Items() {
		if t, ok := s.Str(); ok && left[t] > 0 {
			left[t]--
			continue
		}
		keep = append(keep, s)
	}
	state.Set("next_steps", ojson.NewArray(keep...))
}

// SourceActor is the member that names who asserted an org fact.
const SourceActor = "source_actor"

// annotateOrgFacts marks every verified org-scoped fact with the actor it
// comes from: an org fact keeps its ✓ across a machine, "annotated with the
// source actor" (§4.2), because a convention is only as good as who says
// it holds in that organisation. A fact that already names its source actor
// keeps it. Build calls it with the packing actor; a landing and a merge
// call it first with the pack's sender, so by the time a passport is packed
// onward, only the facts added since — proven by the packing actor — have
// no source yet.
func annotateOrgFacts(state *ojson.Value, actor string) {
	if actor == "" {
		return
	}
	// Copy on write: the facts list is replaced, and only the facts that
	// change are copied, so state may share its facts with another tree
	// (Build's copy of the stored passport, a landing's of the pack).
	facts := state.Get("facts")
	var items []*ojson.Value
	for i, v := range facts.Items() {
		f := model.Fact{V: v}
		if v.Obj() == nil || f.Scope() != model.ScopeOrg || !f.Verified() || v.Has(SourceActor) {
			continue
		}
		if items == nil {
			items = facts.Shallow().Items()
		}
		c := v.Shallow() // only its own member is set
		c.Set(SourceActor, ojson.NewString(actor))
		items[i] = c
	}
	if items != nil {
		state.Set("facts", ojson.NewArray(items...))
	}
}
