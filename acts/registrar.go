package acts

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/plural"
)

// RunInput is everything one registrar run over one project's document
// needs (§4). Run reads nothing else: no clock, no files, no network.
type RunInput struct {
	Document []byte
	Profile  Profile
	Project  string

	// Acts is the log's state: the lifecycle of every act of the project,
	// keyed by key. Acts of another project are ignored (and warned about).
	Acts map[string]*ActState
	// Acked holds the ids of settlement records already applied to the
	// document (acknowledged after an earlier durable write).
	Acked map[string]bool
	// Records, optional, holds log records by id. Run reads restore_text
	// from the current reopened record here (§3); without it, the act's
	// latest terms text is used, which restore_text copies.
	Records map[string]Record

	Now    string // ts of the records Run creates
	By     string // by of the records Run creates; "registrar:<project>" when empty
	Secret []byte // registrar secret: keys by the keyed derivation (§10); nil: §6.2
	Source string // names the document in a claim's evidence (path, commit); optional
	// RefuseCredentials: raise and amend no act whose text holds a
	// credential by D5's table, with a warning instead. The record log is
	// committed and pushed, and the principal's screens never show such a
	// part, so they could not read what they settle (D5, D19). The fixture
	// runner leaves it off and judges Acts 0.3 as written.
	RefuseCredentials bool

	rewriteBudget int // comparison steps for rewrites; 0: rewriteBudget (tests lower it)
}

// RunOutput is what a run decided. The caller MUST, in this order (§4 crash
// safety):
//
//  1. send every record of Send, in order, and stop if any send fails — the
//     document is then not written, so no line is stamped for a record that
//     was not accepted;
//  2. write Document (only when Changed) durably, e.g. temp file + fsync +
//     rename, or a commit;
//  3. only then acknowledge the ids in Applied;
//  4. deliver Deliver to the project (print it, hand it to its agents) and
//     acknowledge those ids once delivered.
//
// A crash anywhere repeats safely: the next run derives the same keys and
// ids (r:<key>, a:<key>:<rev>, c:<key>:r<n>), re-sends what the log lacks,
// and re-applies settlements that were not acknowledged.
type RunOutput struct {
	Document []byte // the new document; the input bytes when nothing changed
	Changed  bool

	Send     []Record  // in step order, then document order
	Applied  []string  // settlement record ids applied to Document
	Deliver  []Record  // notes and relations not yet acknowledged: for the project, never for the document (§4 step 1, I2)
	Warnings []Warning // for the operator

	Stamped, Struck, Added int // lines stamped, deleted and re-added
}

// Warning is something the registrar tells its operator instead of acting.
type Warning struct {
	Key     string `json:"key,omitempty"`
	Line    int    `json:"line,omitempty"` // line number in the new document
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (w Warning) String() string {
	var b strings.Builder
	if w.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", w.Line)
	}
	if w.Key != "" {
		fmt.Fprintf(&b, "%s: ", w.Key)
	}
	b.WriteString(w.Message)
	return b.String()
}

// Warning kinds.
const (
	WarnMalformed  = "malformed"   // a malformed line (§5.3)
	WarnProfile    = "profile"     // signs of another profile
	WarnIgnored    = "ignored"     // an ignored line that looks like a principal's task
	WarnDuplicate  = "duplicate"   // two lines with the same text share a key (D16)
	WarnSettled    = "settled-key" // a line carries or derives the key of a settled act (§11)
	WarnWithdrawn  = "withdrawn"   // a new line re-declares a withdrawn act; its need is active again
	WarnUnknown    = "unknown-key" // a line carries a key the log does not know
	WarnConflict   = "conflict"    // the same key on lines with different texts, or the like
	WarnClass      = "class"       // a keyed line is no longer labelled for the principal
	WarnRewrite    = "rewrite"     // §4 step 5: a vanished key's line looks rewritten; nothing sent
	WarnProject    = "project"     // an act of another project was handed to the run
	WarnNoSection  = "no-section"  // no tasks section, yet open acts: they were claimed
	WarnCredential = "credential"  // a line's text holds a credential (D5): not raised or amended
)

// Run is one registrar run (§4): apply settlements, relink, raise and stamp,
// amend, reconcile, and write once. It is a pure function: see RunOutput for
// what the caller must do with the result, and in which order.
func Run(in RunInput) (RunOutput, error) {
	r, err := newRegistrar(in)
	if err != nil {
		return RunOutput{}, err
	}
	r.applySettlements(r.pendingSettlements())
	r.deliver()
	r.relink()
	r.raise()
	r.amend()
	r.reconcile(nil)
	return r.finish(), nil
}

// registrar is the working state of one run.
type registrar struct {
	in            RunInput
	keys          KeyDeriver
	d             *Document
	out           RunOutput
	acts          map[string]*ActState // the project's acts, plus those raised by this run
	order         []string             // keys of the project's acts from the log, ascending
	carry         map[string][]int     // key → indexes of the section's lines carrying it
	fresh         map[string]bool      // keys raised by this run
	arrived       map[int]bool         // task lines (by index) that carried no key when step 3 began
	warnedSettled map[string]bool
}

func newRegistrar(in RunInput) (*registrar, error) { return newRegistrarFor(in, true) }

// newRegistrarFor builds a run; derive=false (fixtures of steps that derive
// no key) accepts a project name that could not form keys.
func newRegistrarFor(in RunInput, derive bool) (*registrar, error) {
	keys, err := NewKeyDeriver(in.Project, in.Secret)
	if err != nil && derive {
		return nil, err
	}
	d, err := Parse(in.Document, in.Profile)
	if err != nil {
		return nil, err
	}
	if !d.HasSection && d.ForeignHeading > 0 {
		// Read with the wrong profile, every open act would look vanished
		// and be claimed done: refuse instead.
		return nil, fmt.Errorf("acts: the document has no %q heading, but line %d is the %s profile's tasks heading: run with the %s profile", in.Profile.Heading, d.ForeignHeading, d.ForeignProfile, d.ForeignProfile)
	}
	if in.By == "" {
		in.By = "registrar:" + in.Project
	}
	r := &registrar{in: in, keys: keys, d: d, acts: map[string]*ActState{}, fresh: map[string]bool{}, warnedSettled: map[string]bool{}}
	for _, k := range sortedKeys(in.Acts) {
		a := in.Acts[k]
		if a == nil {
			continue
		}
		if a.Project != "" && a.Project != in.Project {
			r.warn(Warning{Key: k, Kind: WarnProject, Message: fmt.Sprintf("the log state holds an act of project %q; this run is for %q, so it is ignored", a.Project, in.Project)})
			continue
		}
		r.acts[k] = a
		r.order = append(r.order, k)
	}
	r.carry = r.carriers()
	return r, nil
}

func (r *registrar) warn(w Warning) { r.out.Warnings = append(r.out.Warnings, w) }

// refusesCredential warns and reports true when the run refuses
// credentials and text holds one: the line is then neither raised nor
// amended (key "" for a new line).
func (r *registrar) refusesCredential(l *Line, key, text string) bool {
	if !r.in.RefuseCredentials {
		return false
	}
	err := RefuseCredentials("the line's text", text)
	if err == nil {
		return false
	}
	what := "raised"
	if key != "" {
		what = "amended"
	}
	r.warn(Warning{Key: key, Line: l.Num, Kind: WarnCredential, Message: fmt.Sprintf("not %s: the line's text looks like a credential (%s); the record log is committed and pushed, and no screen of tp shows such a part, so the principal could not read what they settle (D5) — take it out of the line", what, err.(*CredentialError).Rule)})
	return true
}

// isRaised reports whether a has a need record: the registrar (or the
// requester) raised it.
func isRaised(a *ActState) bool { return a != nil && a.NeedID != "" }

// carriers maps every key to the section's checkbox lines that carry it
// (tasks and malformed lines alike, D16), by index in d.Lines.
func (r *registrar) carriers() map[string][]int {
	m := map[string][]int{}
	if !r.d.HasSection {
		return m
	}
	for i := r.d.Heading + 1; i < r.d.End; i++ {
		if l := &r.d.Lines[i]; l.Checkbox() && l.Key != "" {
			m[l.Key] = append(m[l.Key], i)
		}
	}
	return m
}

// stamp appends key k's marker to line i (§5.5.1).
func (r *registrar) stamp(i int, k string) {
	l := &r.d.Lines[i]
	l.Text = trimRightWS(l.Text) + r.d.Profile.RenderMarker(k)
	l.Key = k
	r.carry[k] = append(r.carry[k], i)
	r.out.Stamped++
}

func (r *registrar) record(typ, key string) Record {
	return Record{PH: "0.3", Ext: "acts/0.3", ID: "", Type: typ, By: r.in.By, Key: key, Project: r.in.Project, TS: r.in.Now}
}

// ---- step 2: relink ------------------------------------------------------

// relink is §4 step 2: an unkeyed principal line whose normalised text
// equals the latest terms of a raised, open, not withdrawn key that no line
// carries is stamped with that key instead of being raised.
func (r *registrar) relink() {
	carried := r.carry
	byText := map[string][]string{}
	for _, k := range r.order {
		a := r.acts[k]
		if !isRaised(a) || a.Status != StatusOpen || a.Need != NeedActive || len(carried[k]) > 0 {
			continue
		}
		t := Normalise(a.Text)
		byText[t] = append(byText[t], k)
	}
	if len(byText) == 0 {
		return
	}
	relinked := map[string]bool{}
	for i := range r.d.Lines {
		l := &r.d.Lines[i]
		if l.Kind != KindTask || l.Class != ClassPrincipal || l.Key != "" {
			continue
		}
		ks := byText[Normalise(l.TaskText)]
		if len(ks) == 0 {
			continue
		}
		k := ks[0]
		r.stamp(i, k)
		if len(ks) > 1 {
			r.warn(Warning{Key: k, Line: l.Num, Kind: WarnConflict, Message: fmt.Sprintf("the line's text is the latest terms of %d open keys (%s); it was relinked to the first", len(ks), strings.Join(ks, ", "))})
		}
		if relinked[k] {
			r.warn(Warning{Key: k, Line: l.Num, Kind: WarnDuplicate, Message: "another line with the same text was relinked to this key too; both lines now stand for one act"})
		}
		relinked[k] = true
	}
}

// ---- step 3: raise and stamp ---------------------------------------------

// raise is §4 step 3: every remaining unkeyed principal line gets its
// derived key; a new key is raised (once, however many lines share it) and
// every such line stamped. The caller stamps only by writing the document
// after the sends succeeded (RunOutput).
func (r *registrar) raise() {
	carried := r.carry
	r.arrived = map[int]bool{}
	for i := range r.d.Lines {
		if l := &r.d.Lines[i]; l.Kind == KindTask && l.Key == "" {
			r.arrived[i] = true
		}
	}
	for i := range r.d.Lines {
		l := &r.d.Lines[i]
		if l.Kind != KindTask || l.Class != ClassPrincipal || l.Key != "" {
			continue
		}
		text := Normalise(l.TaskText)
		if r.refusesCredential(l, "", text) {
			continue
		}
		cands := r.keys.Candidates(text)
		k := cands[0]
		for _, c := range cands {
			if r.acts[c] != nil {
				k = c
				break
			}
		}
		if !ValidKey(k) {
			r.warn(Warning{Line: l.Num, Kind: WarnConflict, Message: fmt.Sprintf("derived key %q is not a valid key (§6.1); the line is not raised", k)})
			continue
		}
		a := r.acts[k]
		others := carried[k]
		switch {
		case r.fresh[k]:
			r.stamp(i, k)
			r.warn(Warning{Key: k, Line: l.Num, Kind: WarnDuplicate, Message: "two new lines have the same text: they share one key and one raised record; make the texts distinct if they are different acts"})
		case a != nil && a.Status == StatusSettled:
			r.stamp(i, k)
			r.warnedSettled[k] = true
			r.warn(Warning{Key: k, Line: l.Num, Kind: WarnSettled, Message: fmt.Sprintf("the line's text derives the key of an act already settled (%s); nothing was raised — re-declared acts need distinct text (§11)", orDash(a.Outcome))})
		case isRaised(a) && len(others) > 0:
			if t := Normalise(r.d.Lines[others[0]].TaskText); t != text && r.d.Lines[others[0]].Kind == KindTask {
				r.warn(Warning{Key: k, Line: l.Num, Kind: WarnConflict, Message: fmt.Sprintf("the line's text derives key %s, which line %d carries with other text; make this text distinct — the line is not raised", k, r.d.Lines[others[0]].Num)})
				continue
			}
			r.stamp(i, k)
			r.warn(Warning{Key: k, Line: l.Num, Kind: WarnDuplicate, Message: fmt.Sprintf("line %d carries the same act with the same text; both lines now stand for one act", r.d.Lines[others[0]].Num)})
		case isRaised(a) && a.Need == NeedWithdrawn:
			// D16: a need record superseding a withdrawn makes the need
			// active again; a re-declared line means it is needed.
			r.stamp(i, k)
			rec := r.record(TypeAmended, k)
			rec.Origin = "requester"
			rec.ID = fmt.Sprintf("a:%s:%d", k, a.TermsRev+1)
			rec.Terms = &Terms{Text: text, Due: a.Due}
			rec.TermsRev = a.TermsRev + 1
			rec.Supersedes = []string{a.NeedID}
			r.out.Send = append(r.out.Send, rec)
			r.acts[k] = overlay(a, rec)
			r.warn(Warning{Key: k, Line: l.Num, Kind: WarnWithdrawn, Message: "the line re-declares an act whose need was withdrawn; an amended record makes it active again"})
		case isRaised(a):
			// An open key no line carries, whose original text this is: the
			// line is that act again (step 4 amends if its terms moved on).
			r.stamp(i, k)
		default:
			r.stamp(i, k)
			rec := r.record(TypeRaised, k)
			rec.Origin = "requester"
			rec.ID = RaisedID(k)
			rec.Terms = &Terms{Text: text}
			rec.TermsRev = 1
			r.out.Send = append(r.out.Send, rec)
			r.fresh[k] = true
			r.acts[k] = overlay(a, rec)
			if len(others) > 0 {
				r.warn(Warning{Key: k, Line: l.Num, Kind: WarnDuplicate, Message: fmt.Sprintf("line %d already carried this key, which the log did not know; it is raised now for both lines", r.d.Lines[others[0]].Num)})
			}
		}
	}
}

// overlay is the act's state after rec, as far as the later steps of this
// run need it.
func overlay(a *ActState, rec Record) *ActState {
	n := &ActState{Key: rec.Key, Project: rec.Project, Status: StatusOpen, Need: NeedActive}
	if a != nil {
		c := *a
		n = &c
	}
	n.NeedID = rec.ID
	n.Need = NeedActive
	if rec.Terms != nil {
		n.Text, n.Due, n.TermsRev = rec.Terms.Text, rec.Terms.Due, rec.TermsRev
	}
	return n
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ---- step 4: amend -------------------------------------------------------

// amend is §4 step 4: a keyed line whose normalised text differs from the
// act's latest terms sends amended with terms_rev + 1, superseding the
// current need record.
func (r *registrar) amend() {
	type group struct {
		lines []int
	}
	var order []string
	groups := map[string]*group{}
	for i := range r.d.Lines {
		l := &r.d.Lines[i]
		if l.Key == "" || !l.Checkbox() {
			continue
		}
		g := groups[l.Key]
		if g == nil {
			g = &group{}
			groups[l.Key] = g
			order = append(order, l.Key)
		}
		g.lines = append(g.lines, i)
	}
	for _, k := range order {
		g := groups[k]
		a := r.acts[k]
		first := &r.d.Lines[g.lines[0]]
		var tasks []*Line
		for _, i := range g.lines {
			if l := &r.d.Lines[i]; l.Kind == KindTask {
				tasks = append(tasks, l)
				if l.Class != ClassPrincipal {
					r.warn(Warning{Key: k, Line: l.Num, Kind: WarnClass, Message: fmt.Sprintf("the line carries an act's key but is labelled %s; the act stays open until the principal side settles it", l.Class)})
				}
			}
		}
		switch {
		case a != nil && a.Status == StatusSettled:
			if !r.warnedSettled[k] {
				r.warnedSettled[k] = true
				r.warn(Warning{Key: k, Line: first.Num, Kind: WarnSettled, Message: fmt.Sprintf("the line carries the key of an act already settled (%s); delete the line if the act is done, or write a new line with distinct text", orDash(a.Outcome))})
			}
			continue
		case !isRaised(a):
			r.warn(Warning{Key: k, Line: first.Num, Kind: WarnUnknown, Message: "the line carries a key the record log does not know; only the registrar writes markers (I1) — remove the marker to have the line raised"})
			continue
		}
		if len(tasks) == 0 {
			continue
		}
		text := Normalise(tasks[0].TaskText)
		same := true
		for _, l := range tasks[1:] {
			if Normalise(l.TaskText) != text {
				same = false
			}
		}
		if !same {
			r.warn(Warning{Key: k, Line: tasks[1].Num, Kind: WarnConflict, Message: fmt.Sprintf("%d lines carry this key with different texts; nothing is amended until one text remains", len(tasks))})
			continue
		}
		if text == Normalise(a.Text) {
			continue
		}
		if r.refusesCredential(tasks[0], k, text) {
			continue
		}
		rec := r.record(TypeAmended, k)
		rec.Origin = "requester"
		rec.ID = fmt.Sprintf("a:%s:%d", k, a.TermsRev+1)
		rec.Terms = &Terms{Text: text, Due: a.Due}
		rec.TermsRev = a.TermsRev + 1
		rec.Supersedes = []string{a.NeedID}
		r.out.Send = append(r.out.Send, rec)
		r.acts[k] = overlay(a, rec)
	}
}

// ---- step 5: reconcile ---------------------------------------------------

// reconcile is §4 step 5 over the raised, open, not withdrawn keys that no
// line carries: a key whose line looks rewritten gets a warning and nothing
// else; the others get one registrar claim (outcome done) per open period,
// id c:<key>:r<reopens>. order, when given, is the order keys are visited
// (fixtures); otherwise keys are visited in ascending order.
func (r *registrar) reconcile(order []string) {
	if order == nil {
		order = r.order
	}
	carried := r.carry
	var feats *lineIndex // built on demand
	claims := 0
	for _, k := range order {
		a := r.acts[k]
		if !isRaised(a) || a.Status != StatusOpen || a.Need != NeedActive || len(carried[k]) > 0 || r.fresh[k] || r.raisedOutside(a) {
			continue
		}
		id := fmt.Sprintf("c:%s:r%d", k, a.Reopens)
		if hasClaim(a, id) {
			continue
		}
		if feats == nil {
			feats = r.taskFeatures()
		}
		f := features(a.Text)
		n, ok, spent := feats.rewriteOf(f, func(i int, l *Line) bool { return r.mayBeRewriteOf(a, i, l) })
		if ok {
			r.warn(Warning{Key: k, Line: n, Kind: WarnRewrite, Message: fmt.Sprintf("no line carries this key any more, and line %d looks like a rewrite of its terms (%q); nothing was sent — relabel or settle it by hand", n, a.Text)})
			continue
		}
		if spent {
			r.warn(Warning{Key: k, Kind: WarnRewrite, Message: fmt.Sprintf("no line carries this key any more (%q), and so many lines vanished that it was not compared with every line for a rewrite (D16's bound); nothing was sent — relabel or settle it by hand, or sync again after fewer changes", a.Text)})
			continue
		}
		rec := r.record(TypeClaimed, k)
		rec.Origin = "registrar"
		rec.ID = id
		rec.Outcome = "done"
		src := r.in.Source
		if src == "" {
			src = "the state document"
		}
		rec.Evidence = &Evidence{Basis: fmt.Sprintf("the line %q is no longer in the tasks section of %s; the registrar reads a vanished line as done (a deletion is never a withdrawal)", a.Text, src)}
		r.out.Send = append(r.out.Send, rec)
		claims++
	}
	if claims > 0 && !r.d.HasSection {
		r.warn(Warning{Kind: WarnNoSection, Message: fmt.Sprintf("the document has no %q heading, so no line carries any key: %s claimed done; if the heading was renamed, restore it", r.d.Profile.Heading, plural.N(claims, "open act is", "open acts are"))})
	}
}

// mayBeRewriteOf reports whether line i (carrying key l.Key, or none) can
// be where vanished act a's line went (§4 step 5): a line that arrived
// without a key in this run, a line whose key the log does not know, or a
// line whose act was raised after a's terms were last declared. A line whose
// act was raised no later than a's terms — the two lines stood side by side
// — is its own act, whatever it resembles: deleting a's line beside it is a
// deletion, and gets its claim (issue 11). The test depends only on the
// records, so a second run decides as the first did (I3).
func (r *registrar) mayBeRewriteOf(a *ActState, i int, l *Line) bool {
	if l.Key == "" || r.arrived[i] {
		return true
	}
	if l.Key == a.Key {
		return false
	}
	other := r.acts[l.Key]
	if other == nil {
		return true
	}
	raisedAt := ""
	for _, h := range other.History {
		if h.Type == TypeRaised {
			raisedAt = h.TS
			break
		}
	}
	if raisedAt == "" {
		return true
	}
	declaredAt := ""
	for _, h := range a.History {
		if h.ID == a.NeedID {
			declaredAt = h.TS
		}
	}
	return laterTS(raisedAt, declaredAt)
}

// laterTS reports whether timestamp x is strictly later than y (RFC 3339;
// y empty: any x is later). Unreadable times compare as strings.
func laterTS(x, y string) bool {
	if y == "" {
		return true
	}
	tx, ex := time.Parse(time.RFC3339Nano, x)
	ty, ey := time.Parse(time.RFC3339Nano, y)
	if ex != nil || ey != nil {
		return x > y
	}
	return tx.After(ty)
}

// raisedOutside reports an act a requester raised itself, outside the
// binding (§2: "outside the binding, by the requester"): it never had a
// line, so its absence from the document says nothing about the work.
// An act is the binding's when a registrar raised it ("registrar…", §8) or
// its key is what this registrar derives from the raised text (whoever's
// name the record carries); only acts that are neither are left alone.
func (r *registrar) raisedOutside(a *ActState) bool {
	for _, h := range a.History {
		if h.Type != TypeRaised {
			continue
		}
		if strings.HasPrefix(h.By, "registrar") || h.Terms == nil {
			return false
		}
		return !slices.Contains(r.keys.Candidates(Normalise(h.Terms.Text)), a.Key)
	}
	return false
}

func hasClaim(a *ActState, id string) bool {
	for _, c := range a.Claims {
		if c.ID == id {
			return true
		}
	}
	return false
}

// ---- step 6: write once --------------------------------------------------

// finish renders the document once and reports what is left to tell.
func (r *registrar) finish() RunOutput {
	for _, p := range r.d.Problems() {
		kind := WarnMalformed
		if p.Ignored {
			kind = WarnIgnored
		}
		for _, m := range r.d.Mixed {
			if m.Line == p.Line {
				kind = WarnProfile
			}
		}
		w := Warning{Line: p.Line, Kind: kind, Message: p.Reason}
		if p.Line-1 < len(r.d.Lines) && p.Line > 0 {
			w.Key = r.d.Lines[p.Line-1].Key
		}
		r.out.Warnings = append(r.out.Warnings, w)
	}
	out := r.d.Bytes()
	if bytes.Equal(out, r.in.Document) {
		out = r.in.Document
	} else {
		r.out.Changed = true
	}
	r.out.Document = out
	sort.SliceStable(r.out.Warnings, func(i, j int) bool {
		wi, wj := r.out.Warnings[i], r.out.Warnings[j]
		if (wi.Line == 0) != (wj.Line == 0) {
			return wi.Line != 0
		}
		return wi.Line < wj.Line
	})
	return r.out
}
