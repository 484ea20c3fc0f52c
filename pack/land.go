package pack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
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
	// Progress, when set, is called as luggage bytes are written: first
	// with done 0, then after each chunk, never two calls at once (the
	// files land on a few goroutines; the calls are serialised). It must
	// return quickly; a UI sends the numbers on to its own loop.
	Progress func(done, total int64)
	// Context cancels a landing; nil means never. A cancelled landing leaves
	// nothing behind: no files folder, no passport.
	Context context.Context
}

// CheckRun is a command the person confirmed and ran for a landing check.
type CheckRun struct {
	Command string // exactly what ran (the sender's how, or the person's edit)
	Edited  bool   // the person changed the sender's how before running it
	Exit    int    // exit status; -1 when it could not start or was stopped
}

func (r CheckRun) record(by string, at time.Time) store.CheckRunRecord {
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
}

// TrustWarning is §4.2's warning, shown whenever --trust-own-facts restores
// a ✓.
const TrustWarning = "verified_on is written by whoever wrote the pack: matching this machine proves the pack says the fact was proven here, not that it was. Restoring the ✓ trusts the pack's whole journey; it belongs to packs you made yourself (§4.2)."

// Land lands a handoff as a new local passport (§3.1, §4.2–§4.5, DESIGN.md
// §2 flow 2): plan.ID as the id, the pack's lineage kept, facts as sealed
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
func Land(p *Pack, plan *Plan, st *store.Store, d Decisions) (*Landed, error) {
	if plan == nil || plan.obj == nil {
		return nil, errors.New("land: no plan (make one with PlanLanding)")
	}
	if plan.Kind != model.KindHandoff || plan.Merge != nil {
		return nil, &Error{File: plan.File, Rule: RuleReceiptNotLanded, Detail: "a receipt is merged (Merge), never landed as a new passport (§4.4.1)"}
	}
	if plan.AlreadyLandedAs != "" && !d.Again {
		return nil, &Error{File: plan.File, Rule: RuleAlreadyLanded,
			Detail: "this file was already landed as " + plan.AlreadyLandedAs + " (--again lands it once more as a new passport)"}
	}
	if err := d.validate(plan); err != nil {
		return nil, err
	}
	// One landing of a pack at a time in a store, and the already-landed
	// check made again under the lock: two processes landing the same file
	// at once would otherwise both find it new.
	unlock, err := st.Lock("landing-" + lockName(plan.ObjectSHA256, plan.SHA256))
	if err != nil {
		return nil, err
	}
	defer unlock()
	if !d.Again {
		if landed, _ := findLanded(st, plan.SHA256, plan.ObjectSHA256); landed != "" {
			return nil, &Error{File: plan.File, Rule: RuleAlreadyLanded,
				Detail: "this file was already landed as " + landed + " (--again lands it once more as a new passport)"}
		}
	}
	ctx := d.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	env := plan.env
	now := env.now()

	state, restored, err := landedState(plan, d, env, now)
	if err != nil {
		return nil, err
	}
	out := &Landed{ID: plan.ID, Restored: restored, Files: []string{}, Warnings: []string{}, Credentials: []scan.Finding{}}
	if out.Restored == nil {
		out.Restored = []string{}
	}
	if len(restored) > 0 {
		out.Warnings = append(out.Warnings, TrustWarning)
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
	if len(plan.luggage) > 0 {
		// A store folder made here for a landing that then fails is removed
		// again (only if still empty), so a refused landing leaves no trace.
		_, statErr := os.Stat(st.Dir())
		if err := os.MkdirAll(st.Dir(), 0o700); err != nil {
			return nil, fmt.Errorf("passport store %s: %w", st.Dir(), err)
		}
		sweepStale(st.Dir(), time.Now()) // file times are the real clock's
		files, found, err := extract(ctx, plan.luggage, open, filesDir, d.Progress)
		if err != nil {
			if statErr != nil {
				os.Remove(st.Dir())
			}
			return nil, err
		}
		out.FilesDir, out.Files = filesDir, files
		out.Credentials = append(out.Credentials, found...)
		for _, f := range found {
			out.Warnings = append(out.Warnings, "luggage "+f.Where+" looks like it carries a credential ("+f.Rule+"); landed anyway (D5: landing warns)")
		}
	}

	saved, err := st.Save(state, 0)
	if err != nil {
		if out.FilesDir != "" {
			os.RemoveAll(out.FilesDir)
		}
		return nil, err
	}
	out.Version, _ = saved.Get("version").Int()
	out.Path = st.Path(plan.ID)
	out.NextSteps = plan.steps(d)
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
			return &Error{File: plan.File, Rule: RuleDecision, Detail: "no landing check " + id + " in this pack (" + have + ")"}
		}
		switch s {
		case model.CheckPassed, model.CheckFailed, model.CheckSkipped, model.CheckPending:
		default:
			return &Error{File: plan.File, Rule: RuleDecision, Detail: "landing check " + id + ": status " + s + " is not passed, failed or skipped"}
		}
	}
	asks := map[string]bool{}
	for _, a := range plan.Asks {
		asks[a.ID] = true
	}
	for id := range d.Answers {
		if !asks[id] {
			return &Error{File: plan.File, Rule: RuleDecision, Detail: "no ask " + id + " in this pack"}
		}
	}
	return nil
}

// landedState is the new passport: the pack's task state under the new id,
// with facts sealed, asks and checks stored, next steps ordered, lineage
// kept and landed_from recorded.
func landedState(plan *Plan, d Decisions, env Env, now time.Time) (*ojson.Value, []string, error) {
	at := store.Timestamp(now)
	obj := plan.obj.Clone()
	Seal(obj) // the lenient read sealed already; sealing is idempotent (§4.2)
	lineage := keptLineage(obj)
	state := obj.Get("passport")
	if state.Obj() == nil {
		state = ojson.NewObject()
	}
	for _, k := range localOnly {
		state.Obj().Delete(k)
	}
	state.Set("id", ojson.NewString(plan.ID))
	state.Set("version", ojson.NewInt(0))
	state.Set("machine_id", ojson.NewString(env.Machine))
	state.Set("created_at", ojson.NewString(at))
	state.Set("updated_at", ojson.NewString(at))

	var restored []string
	if d.TrustOwnFacts && env.Machine != "" {
		for _, f := range state.Get("facts").Items() {
			fact := model.Fact{V: f}
			if f.Obj() == nil || !fact.Sealed() || fact.VerifiedOn() != env.Machine {
				continue
			}
			f.Set("verified", ojson.NewBool(true))
			f.Set("needs_reverify", ojson.NewBool(false))
			restored = append(restored, fact.Claim())
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
		if err := store.AnswerAsk(state, id, d.Answers[id], env.by(), now); err != nil {
			return nil, nil, err
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
			return nil, nil, err
		}
	}
	for _, id := range sortedKeys(d.CheckRuns) {
		if err := store.RecordCheckRun(state, id, d.CheckRuns[id].record(env.by(), now)); err != nil {
			return nil, nil, err
		}
	}

	state.Set("lineage", lineage)

	var steps, generated []string
	for _, s := range plan.steps(d) {
		steps = append(steps, s.Text)
		if s.Kind != StepSender {
			generated = append(generated, s.Text)
		}
	}
	state.Set("next_steps", ojson.NewStrings(steps))

	lf := ojson.NewObject()
	file := plan.File
	if abs, err := filepath.Abs(file); err == nil && file != "" {
		file = abs
	}
	lf.Set("file", ojson.NewString(file))
	lf.Set("sha256", ojson.NewString(plan.SHA256))
	lf.Set("object_sha256", ojson.NewString(plan.ObjectSHA256))
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
	lf.Set(GeneratedSteps, ojson.NewStrings(generated))
	state.Set("landed_from", lf)
	return state, restored, nil
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

// extract streams every luggage file into a fresh temporary folder beside
// dest and renames it to dest when all of them are written, synced and
// match their digests. The folder is opened as an os.Root, so no name can
// reach outside it; files are created exclusively (a name twice, or a link
// planted meanwhile, fails) with mode 0644: no execute bits. On any error or
// cancellation the temporary folder is removed and dest is never created.
func extract(ctx context.Context, luggage []Luggage, open func(string) (io.ReadCloser, error), dest string, progress func(done, total int64)) ([]string, []scan.Finding, error) {
	names, found, err := extractTo(ctx, luggage, open, dest, progress)
	if err != nil {
		return nil, nil, err
	}
	return names, found, nil
}

func extractTo(ctx context.Context, luggage []Luggage, open func(string) (io.ReadCloser, error), dest string, progress func(done, total int64)) (names []string, found []scan.Finding, err error) {
	if _, err := os.Lstat(dest); err == nil {
		return nil, nil, fmt.Errorf("luggage folder %s already exists; not writing into it", dest)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	parent := filepath.Dir(dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, nil, err
	}
	tmp := filepath.Join(parent, "."+filepath.Base(dest)+landingSuffix+randHex(6))
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()

	var total int64
	for _, l := range luggage {
		total += l.Size
	}
	if progress != nil {
		progress(0, total)
	}
	// Folders first (on one goroutine), then the files on a few workers:
	// inflating, verifying and writing one file overlaps with the next.
	dirs := map[string]bool{}
	local := make([]string, len(luggage))
	for i, l := range luggage {
		name, err := luggageName(l.Name)
		if err != nil {
			return nil, nil, err
		}
		local[i] = name
		for d := path.Dir(name); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
		if d := path.Dir(name); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return nil, nil, fmt.Errorf("luggage %s: %w", l.Name, err)
			}
		}
	}

	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := min(runtime.GOMAXPROCS(0), len(luggage), 4)
	side := newSideScan(4*workers, 1<<20)
	defer side.stop()
	var (
		mu       sync.Mutex
		done     int64
		firstErr error
		wg       sync.WaitGroup
	)
	step := func(n int64) {
		mu.Lock()
		done += n
		if progress != nil {
			progress(done, total)
		}
		mu.Unlock()
	}
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	// Many small files: one flush at the end beats an fsync each.
	batch := durable.NewBatch(len(luggage))
	scanners := make([]*scan.LuggageScanner, len(luggage))
	jobs := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				scanners[i] = scan.NewLuggageScanner(luggage[i].Name)
				if _, err := extractOne(ctx, root, local[i], luggage[i], open, side, scanners[i], batch, step); err != nil {
					fail(err)
				}
			}
		}()
	}
feed:
	for i := range luggage {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	side.wait()
	// A cancellation from outside is reported as such, not as whatever
	// error it caused in a worker.
	if err := outer.Err(); err != nil {
		return nil, nil, err
	}
	if firstErr != nil {
		return nil, nil, firstErr
	}
	names = make([]string, 0, len(luggage))
	for i, sc := range scanners {
		found = append(found, sc.Findings()...)
		names = append(names, filepath.Join(dest, filepath.FromSlash(local[i])))
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, nil, err
	}
	for d := range dirs {
		batch.Dir(filepath.Join(tmp, filepath.FromSlash(d)))
	}
	batch.Dir(tmp)
	if err := batch.Commit(); err != nil {
		return nil, nil, fmt.Errorf("luggage: %w", err)
	}
	// The temporary folder is ours and fresh; dest was checked absent above,
	// and rename(2) refuses a non-empty folder appearing there meanwhile.
	if _, err := os.Lstat(dest); err == nil {
		return nil, nil, fmt.Errorf("luggage folder %s appeared while landing; not replacing it", dest)
	}
	if err := durable.Rename(tmp, dest); err != nil {
		return nil, nil, err
	}
	ok = true
	sort.Strings(names)
	return names, found, nil
}

// writebackEvery is how many bytes of a luggage file are written before the
// kernel is asked to start putting them on disk (durable.StartWriteback).
const writebackEvery = 8 << 20

// extractOne writes one luggage file, checking its digest and size.
func extractOne(ctx context.Context, root *os.Root, name string, l Luggage, open func(string) (io.ReadCloser, error), side *sideScan, sc io.Writer, batch *durable.Batch, step func(int64)) (int64, error) {
	r, err := open(l.Name)
	if err != nil {
		return 0, fmt.Errorf("luggage %s: %w", l.Name, err)
	}
	defer r.Close()
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, fmt.Errorf("luggage %s: %w", l.Name, err)
	}
	defer f.Close()
	var n, flushed int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if !batch.FlushOnce() && n-flushed >= writebackEvery {
			durable.StartWriteback(f, flushed, n-flushed)
			flushed = n
		}
		buf := side.buffer()
		k, rerr := io.ReadFull(r, buf)
		if rerr == io.ErrUnexpectedEOF {
			rerr = io.EOF
		}
		if k > 0 {
			if _, err := f.Write(buf[:k]); err != nil {
				side.release(buf)
				return n, fmt.Errorf("luggage %s: %w", l.Name, err)
			}
			side.scan(sc, buf[:k])
			n += int64(k)
			step(int64(k))
		} else {
			side.release(buf)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return n, fmt.Errorf("luggage %s: %w", l.Name, rerr)
		}
	}
	if l.Size > 0 && n != l.Size {
		return n, &Error{Entry: "data/files/" + l.Name, Rule: RuleDigest, Detail: fmt.Sprintf("luggage is %d bytes, the pack said %d", n, l.Size)}
	}
	if err := batch.File(f); err != nil {
		return n, err
	}
	return n, f.Close()
}

// luggageName checks a luggage name is a plain relative path before it is
// used on disk (the reader refused hostile names already, D10; this is the
// last line).
func luggageName(name string) (string, error) {
	bad := func(why string) (string, error) {
		return "", &Error{Entry: "data/files/" + name, Rule: RulePathTraversal, Detail: "luggage name " + why}
	}
	if name == "" || strings.ContainsAny(name, "\\\x00") || strings.HasPrefix(name, "/") {
		return bad("is empty, absolute, or holds a backslash or NUL")
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return bad("has an empty, . or .. segment")
		}
	}
	return name, nil
}

// landingSuffix marks the temporary folder a landing writes luggage into.
const landingSuffix = ".landing-"

// staleAfter is how old a temporary landing folder must be before a later
// landing removes it: a process killed half-way (power, kill -9) leaves
// one behind, and no landing takes a day.
const staleAfter = 24 * time.Hour

// sweepStale removes temporary landing folders left in the store by a
// landing that died, best effort. Only hidden ".<id>.files.landing-…"
// folders older than staleAfter are touched, never a link.
func sweepStale(dir string, now time.Time) {
	sweepStaleMatching(dir, now, func(name string) bool { return strings.Contains(name, ".files"+landingSuffix) })
}

// sweepStaleMerges does the same inside a passport's files folder for the
// hidden ".receipt-….landing-…" folders a merge writes luggage into.
func sweepStaleMerges(filesDir string, now time.Time) {
	sweepStaleMatching(filesDir, now, func(name string) bool {
		return strings.HasPrefix(name, ".receipt-") && strings.Contains(name, landingSuffix)
	})
}

func sweepStaleMatching(dir string, now time.Time, match func(string) bool) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, d := range des {
		name := d.Name()
		if !d.IsDir() || !strings.HasPrefix(name, ".") || !match(name) {
			continue
		}
		info, err := d.Info()
		if err != nil || now.Sub(info.ModTime()) < staleAfter {
			continue
		}
		os.RemoveAll(filepath.Join(dir, name))
	}
}

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// sideScan runs the luggage credential scan (D5) on its own goroutine, so
// it overlaps with reading, verifying and writing instead of adding to
// them. It owns a fixed set of buffers: memory does not grow with the pack.
type sideScan struct {
	work    chan sideChunk
	free    chan []byte
	pending sync.WaitGroup
	done    chan struct{}
}

type sideChunk struct {
	w io.Writer
	b []byte
}

func newSideScan(n, size int) *sideScan {
	s := &sideScan{work: make(chan sideChunk, n), free: make(chan []byte, n), done: make(chan struct{})}
	for range n {
		s.free <- make([]byte, size)
	}
	go func() {
		defer close(s.done)
		for c := range s.work {
			c.w.Write(c.b)
			s.free <- c.b[:cap(c.b)]
			s.pending.Done()
		}
	}()
	return s
}

// buffer waits for a free buffer.
func (s *sideScan) buffer() []byte { return <-s.free }

// release returns a buffer that was not handed to scan.
func (s *sideScan) release(b []byte) { s.free <- b[:cap(b)] }

// scan hands b to w on the scanning goroutine; b returns to the pool after.
func (s *sideScan) scan(w io.Writer, b []byte) {
	s.pending.Add(1)
	s.work <- sideChunk{w, b}
}

// wait returns when every chunk handed over so far has been scanned.
func (s *sideScan) wait() { s.pending.Wait() }

// stop ends the scanning goroutine.
func (s *sideScan) stop() {
	close(s.work)
	<-s.done
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
