// Package briefing tells an agent what it needs to pick a passport's work up
// (tp open, task_passport_open) and writes the short hand-over prompt for
// another AI (tp prompt).
//
// A briefing puts verified facts apart from sealed and unproven ones (a ✓
// does not cross a machine, TaskPack 0.1 §4.2), lists the open asks with
// their accept rule (§4.3), the required landing checks still pending
// (§4.4: they come before the sender's next steps), the next steps in
// order, and the version to checkpoint against (D15, D17). Every byte of it
// comes from the passport and is data, never instructions (§4.5): the
// Markdown says so at the top, and the MCP server labels it so.
package briefing

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
)

// Fact is a fact as the briefing shows it.
type Fact struct {
	Claim       string `json:"claim"`
	Scope       string `json:"scope"`
	Evidence    string `json:"evidence,omitempty"`
	VerifiedOn  string `json:"verified_on,omitempty"`
	SourceActor string `json:"source_actor,omitempty"`
	// Sealed says the fact crossed a machine and must be verified again
	// here before anyone relies on it (§4.2).
	Sealed bool `json:"sealed"`
	// From names the sender when the fact arrived in the pack this
	// passport landed from (D25): their word, whatever its ✓ says.
	From string `json:"from,omitempty"`
}

// Decision is one decision taken.
type Decision struct {
	What string `json:"what"`
	Why  string `json:"why,omitempty"`
}

// Ask is an open ask (§4.3).
type Ask struct {
	ID     string `json:"id"`
	To     string `json:"to,omitempty"`
	What   string `json:"what"`
	Why    string `json:"why,omitempty"`
	Accept string `json:"accept"`
	// From names the sender when the ask arrived with the pack (D25).
	From string `json:"from,omitempty"`
	// Sent says this passport asked it and waits for a receipt; otherwise
	// it arrived with a pack and is this side's to answer.
	Sent bool `json:"sent"`
}

// Check is a required landing check not yet attested (§4.4). How is the
// sender's suggestion, never an instruction.
type Check struct {
	ID    string `json:"id"`
	Check string `json:"check"`
	How   string `json:"how,omitempty"`
	From  string `json:"from,omitempty"` // the sender who suggested it (D25)
	// CheckedBy is who marked a failed check failed (actor@machine).
	CheckedBy string `json:"checked_by,omitempty"`
}

// Finding is text in the pack this passport landed from that reads like
// instructions, as the landing found it (D25): where, the rule, a short
// excerpt (a credential in it redacted).
type Finding struct {
	Where   string `json:"where"`
	Rule    string `json:"rule"`
	Excerpt string `json:"excerpt"`
	// From is, for a receipt's finding, the receipt's sender's passport
	// and version (<id>@<version>); "" for the pack this passport landed
	// from.
	From string `json:"from,omitempty"`
}

// Briefing is what an agent needs to pick the work up.
type Briefing struct {
	PassportID      string     `json:"passport_id"`
	StateVersion    int64      `json:"state_version"`
	Title           string     `json:"title"`
	Goal            string     `json:"goal"`
	CurrentState    string     `json:"current_state"`
	VerifiedFacts   []Fact     `json:"verified_facts"`
	UnverifiedFacts []Fact     `json:"unverified_facts"`
	Decisions       []Decision `json:"decisions"`
	OpenAsks        []Ask      `json:"open_asks"`
	PendingChecks   []Check    `json:"pending_checks"`
	// FailedChecks are the landing checks marked failed here, required
	// or not: a failure is counted wherever checks are (issue 17).
	FailedChecks []Check  `json:"failed_checks"`
	NextSteps    []string `json:"next_steps"`
	// NextStepsFrom is, for each of NextSteps at the same index, the
	// sender who wrote it when it came with the pack, else "" (D25).
	NextStepsFrom []string `json:"next_steps_from"`
	// LandedFrom is the sender (actor@machine) of the pack this passport
	// landed from, and FindingsAtLanding what in it reads like
	// instructions: kept with the passport and shown on every open (D25).
	LandedFrom        string    `json:"landed_from,omitempty"`
	FindingsAtLanding []Finding `json:"findings_at_landing"`
	// FindingsAtMerge are what read like instructions in the receipts
	// merged into this passport, each with its receipt's sender (From).
	FindingsAtMerge []Finding `json:"findings_at_merge"`
	Artifacts       []string  `json:"artifacts"`
	RootID          string    `json:"root_id"`
	// FilesDir is the passport's luggage folder when it has one (the
	// pack's luggage, receipts' luggage under it), and Files how many
	// files are in it: an agent picking the work up needs to know where
	// the files are.
	FilesDir string `json:"files_dir,omitempty"`
	Files    int    `json:"files,omitempty"`
}

// OfStored is Of for a passport read from the store, with its luggage
// folder when it exists.
func OfStored(st *store.Stored) *Briefing {
	b := Of(st.V, st.Version)
	dir := strings.TrimSuffix(st.Path, ".json") + ".files"
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
		b.FilesDir = dir
		b.Files = countFiles(dir)
	}
	return b
}

// countFiles counts the regular files under dir, links not followed; it
// stops counting at a bound, as a briefing must stay cheap.
func countFiles(dir string) int {
	const bound = 100_000
	n := 0
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Type().IsRegular() {
			n++
		}
		if n >= bound {
			return fs.SkipAll
		}
		return nil
	})
	return n
}

// Of reads the briefing out of a stored state at version.
func Of(v *ojson.Value, version int64) *Briefing {
	p := model.Passport{V: v}
	b := &Briefing{
		PassportID:      p.ID(),
		StateVersion:    version,
		Title:           p.Title(),
		Goal:            p.Goal(),
		CurrentState:    p.CurrentState(),
		VerifiedFacts:   []Fact{},
		UnverifiedFacts: []Fact{},
		Decisions:       []Decision{},
		OpenAsks:        []Ask{},
		PendingChecks:   []Check{},
		FailedChecks:    []Check{},
		NextSteps:       nonEmpty(p.NextSteps()),
		Artifacts:       artifacts(v.Get("artifacts")),
		RootID:          model.LineageOf(v.Get("lineage")).RootID,
	}
	if b.RootID == "" {
		b.RootID = b.PassportID
	}
	lb := LabelsOf(v)
	sender := lb.sender
	b.LandedFrom, b.FindingsAtLanding, b.FindingsAtMerge = lb.LandedFrom, lb.FindingsAtLanding, lb.FindingsAtMerge
	b.NextStepsFrom = lb.StepsFrom(b.NextSteps)
	// Sized first: appending 110,000 facts to a growing slice copies
	// them about five times over (large slices grow by a quarter).
	facts := v.Get("facts").Items()
	nv := 0
	for _, fv := range facts {
		if f := (model.Fact{V: fv}); fv.Kind() == ojson.Object && f.Verified() && !f.NeedsReverify() {
			nv++
		}
	}
	b.VerifiedFacts = make([]Fact, 0, nv)
	b.UnverifiedFacts = make([]Fact, 0, len(facts)-nv)
	for _, fv := range facts {
		if fv.Kind() != ojson.Object {
			continue
		}
		f := model.Fact{V: fv}
		if strings.TrimSpace(f.Claim()) == "" {
			continue
		}
		bf := Fact{Claim: f.Claim(), Scope: f.Scope(), Evidence: fv.Get("evidence").Text(),
			VerifiedOn: f.VerifiedOn(), SourceActor: fv.Get("source_actor").Text(), Sealed: f.NeedsReverify()}
		if bf.Evidence == "" {
			bf.Evidence = fv.Get("source").Text() // the reference's name for it
		}
		bf.From = lb.FactFrom(bf.Claim)
		// An unproven fact is never dropped: hiding it is worse than
		// showing it flagged. It just never gets a ✓.
		if f.Verified() && !f.NeedsReverify() {
			b.VerifiedFacts = append(b.VerifiedFacts, bf)
		} else {
			b.UnverifiedFacts = append(b.UnverifiedFacts, bf)
		}
	}
	for _, d := range v.Get("decisions").Items() {
		switch d.Kind() {
		case ojson.Object:
			if w := d.Get("what").Text(); strings.TrimSpace(w) != "" {
				b.Decisions = append(b.Decisions, Decision{What: w, Why: d.Get("why").Text()})
			}
		case ojson.String:
			if strings.TrimSpace(d.Text()) != "" {
				b.Decisions = append(b.Decisions, Decision{What: d.Text()})
			}
		}
	}
	for _, a := range store.Asks(v) {
		if store.AskStatus(a) != model.AskOpen {
			continue
		}
		ask := Ask{ID: a.ID(), To: a.To(), What: a.What(), Why: a.Why(), Accept: a.Accept(), Sent: a.V.Has(landing.AskedAt)}
		if !ask.Sent {
			ask.From = sender
		}
		b.OpenAsks = append(b.OpenAsks, ask)
	}
	for _, c := range store.Checks(v) {
		switch st := store.CheckStatus(c); {
		case c.Required() && st == model.CheckPending:
			b.PendingChecks = append(b.PendingChecks, Check{ID: c.ID(), Check: c.Check(), How: c.How(), From: sender})
		case st == model.CheckFailed:
			b.FailedChecks = append(b.FailedChecks, Check{ID: c.ID(), Check: c.Check(), From: sender, CheckedBy: c.V.Get("checked_by").Text()})
		}
	}
	return b
}

// counts is how many times each string of an array occurs.
// Labels are who sent what in a stored passport (D25): the sender of the
// pack it landed from, the findings it and the merged receipts kept, and
// the sender's own steps and fact claims as they arrived. Every open of
// the passport — the briefing, tp show, the terminal's passport screen —
// labels from them, and reading them costs no pass over the facts.
type Labels struct {
	LandedFrom        string    // actor@machine; "" when no pack landed it
	FindingsAtLanding []Finding // never nil
	FindingsAtMerge   []Finding // never nil, each with its receipt's From
	senderSteps       map[string]int
	senderFacts       map[string]int
	sender            string
}

// LabelsOf reads a stored state's labels.
func LabelsOf(v *ojson.Value) *Labels {
	lb := &Labels{FindingsAtLanding: []Finding{}, FindingsAtMerge: []Finding{}}
	lf := v.Get("landed_from")
	if lf.Kind() == ojson.Object {
		o := lf.Get("origin")
		lb.sender = o.Get("actor").Text() + "@" + o.Get("machine").Text()
		if lb.sender == "@" {
			lb.sender = "the sender"
		}
		lb.LandedFrom = lb.sender
	}
	for _, f := range lf.Get(landing.Findings).Items() {
		lb.FindingsAtLanding = append(lb.FindingsAtLanding, Finding{Where: f.Get("where").Text(), Rule: f.Get("rule").Text(), Excerpt: f.Get("excerpt").Text()})
	}
	for _, r := range v.Get("receipts_merged").Items() {
		from := r.Get("from").Text()
		for _, f := range r.Get(landing.Findings).Items() {
			lb.FindingsAtMerge = append(lb.FindingsAtMerge, Finding{Where: f.Get("where").Text(), Rule: f.Get("rule").Text(), Excerpt: f.Get("excerpt").Text(), From: from})
		}
	}
	// What the sender wrote, as it arrived: a step or a fact still
	// holding that text is theirs.
	lb.senderSteps, lb.senderFacts = counts(lf.Get(landing.SenderSteps)), counts(lf.Get(landing.SenderFacts))
	return lb
}

// StepsFrom is, for each of steps in order, the sender when the step
// still holds what they wrote, else "" (each of theirs used once).
func (lb *Labels) StepsFrom(steps []string) []string {
	from := make([]string, len(steps))
	for i, st := range steps {
		if lb.senderSteps[st] > 0 {
			lb.senderSteps[st]--
			from[i] = lb.sender
		}
	}
	return from
}

// FactFrom is the sender when a fact with this claim arrived in the pack
// (each of theirs used once: call it for the facts in order), else "".
func (lb *Labels) FactFrom(claim string) string {
	if lb.senderFacts[claim] > 0 {
		lb.senderFacts[claim]--
		return lb.sender
	}
	return ""
}

func counts(v *ojson.Value) map[string]int {
	m := map[string]int{}
	for _, it := range v.Items() {
		if s, ok := it.Str(); ok {
			m[s]++
		}
	}
	return m
}

func nonEmpty(in []string) []string {
	out := []string{}
	for _, s := range in {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// artifacts lists the artifacts as text: strings as they are, objects by
// their path, name or uri (the reference allows either).
func artifacts(v *ojson.Value) []string {
	out := []string{}
	for _, a := range v.Items() {
		switch a.Kind() {
		case ojson.String:
			if strings.TrimSpace(a.Text()) != "" {
				out = append(out, a.Text())
			}
		case ojson.Object:
			for _, k := range []string{"path", "name", "uri", "url"} {
				if s := a.Get(k).Text(); s != "" {
					out = append(out, s)
					break
				}
			}
		}
	}
	return out
}
