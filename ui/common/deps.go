package common

import (
	"context"
	"time"

	"github.com/tp-dev/tp/internal/howrun"
)

// Progress reports bytes (or items) done out of total; total 0 means unknown.
type Progress func(phase string, done, total int64)

// Deps are the core behind the screens. Any of them may be nil when the
// command that opened the UI does not need it.
type Deps struct {
	Lander Lander
	Asks   AsksStore
	Inbox  Inbox
	Home   HomeSource
	Checks ChecksStore
	// Passports reads one stored passport for `tp show` and the home screen.
	Passports PassportSource
	// RunHow runs a confirmed command (internal/howrun.Run in production).
	RunHow func(ctx context.Context, c howrun.Confirmed, o howrun.Options) (howrun.Result, error)
	// HowTimeout bounds a landing check's command.
	HowTimeout time.Duration
}

// ---- landing (TaskPack §3–§4.5) -------------------------------------------

// Lander opens a pack into a landing plan and lands or merges it. Every field
// of a Plan is decided by the core.
type Lander interface {
	Plan(ctx context.Context, file string, p Progress) (*Plan, error)
	Land(ctx context.Context, plan *Plan, d Decisions, p Progress) (*Landed, error)
	Merge(ctx context.Context, plan *Plan, p Progress) (*Merged, error)
}

// Stager is optionally implemented by a Lander: before the checks step the
// handoff's luggage is unpacked into a staging folder, and the landing
// checks run there, where the files are (§4.4). Land then moves it into
// place; Unstage removes it when the person leaves without landing.
type Stager interface {
	Stage(ctx context.Context, plan *Plan, p Progress) (dir string, err error)
	Unstage(plan *Plan) error
}

// Judger is optionally implemented by a Lander: C0–C10 (§6) for the
// summary, asked for after the first frame so judging never delays it.
type Judger interface {
	Judge(ctx context.Context, file string) ([]Conformance, error)
}

// Plan is what a pack would do if landed, as the core computed it.
type Plan struct {
	File string
	// Signer is who signed the pack, in the core's words (D22,
	// landing.Signer.Say); SignerState is landing's state for it
	// (unsigned, known, unknown, trusted_now).
	Signer      string
	SignerState string
	Kind        string // "handoff" or "receipt"
	Origin      Origin
	PackedAt    string
	Note        string
	Lineage     Lineage
	Integrity   Integrity
	Conformance []Conformance
	Warnings    []Warning
	Checks      []Check // in the order the core gives: required first (§4.4)
	Facts       []Fact
	Asks        []Ask
	Passport    PassportText
	Luggage     []LuggageFile
	FilesDir    string // where luggage will go ("" until an id is minted)
	ThisMachine string
	// AlreadyLanded names the passport this exact file already became, if any.
	AlreadyLanded string
	// Receipt is set for kind receipt: what the merge would change.
	Receipt *MergePlan
	// Raw lets an adapter carry its own plan value to Land/Merge.
	Raw any
}

// Origin says who packed (§3).
type Origin struct{ Actor, Machine, Harness string }

// By is "actor@machine", the way a suggestion is attributed.
func (o Origin) By() string {
	a, m := o.Actor, o.Machine
	if a == "" {
		a = "unknown"
	}
	if m == "" {
		m = "unknown"
	}
	return a + "@" + m
}

// Lineage is the chain of hops (§3).
type Lineage struct {
	RootID      string
	FromVersion int64
	Chain       []string
}

// Integrity is what verifying the pack found (§2, C1).
type Integrity struct {
	Encoding  string // "taskpack" or "taskpack.json"
	Verified  bool   // manifests / per-attachment digests agree
	Files     int
	Bytes     int64
	Detail    string
	PackBytes int64
}

// Conformance is one of C0–C10 (§6).
type Conformance struct {
	ID     string
	Pass   bool
	Reason string
}

// Warning is something the person should read twice: text that reads like
// instructions (D13), an instruction field, a repair made by the lenient
// read, a credential-like string (D5).
type Warning struct {
	Kind  string // "instruction", "instruction-field", "repair", "credential", …
	Where string // JSON path or file
	Text  string // the quoted text (untrusted)
}

// Check is a landing check (§4.4).
type Check struct {
	ID       string
	Check    string
	How      string // the sender's suggestion; may be empty
	Required bool
	Status   string // pending, passed, failed, skipped
	// Run is the command recorded with the check of a stored passport,
	// when one was run for it (D12); nil for a pack's checks.
	Run *CheckRun
}

// CheckRun is a run recorded on a stored landing check: what ran, whether
// it was the person's edit of the sender's how, its exit status, who ran
// it and when (run.ran_at).
type CheckRun struct {
	Command string
	Edited  bool
	Exit    int
	By, At  string
}

// Fact is a passport fact (§4.2) as the core sealed it.
type Fact struct {
	Claim      string
	Scope      string // "" when the pack gave none (then it counts as machine)
	Verified   bool
	Sealed     bool
	VerifiedOn string
	// Evidence, Source, SourceActor: the fact's own words on how it was
	// proven and who asserted it (shown, never hidden: issue 17).
	Evidence, Source, SourceActor string
	// Restorable: this machine equals verified_on, so a ✓ may be restored by
	// an explicit choice (§4.2). Decided by the core.
	Restorable bool
	// From names the sender of a stored passport's fact that arrived, ✓,
	// in the pack it landed from: their word, not proven here (D25).
	From string
}

// Where is the machine the fact was verified on, or "unknown" when the
// pack does not say (a sealed fact without a verified_on): what every
// screen prints after "verified_on".
func (f Fact) Where() string {
	if f.VerifiedOn == "" {
		return "unknown"
	}
	return f.VerifiedOn
}

// Ask is a §4.3 ask.
type Ask struct {
	ID, To, What, Why, Accept string
	Status                    string // open, answered, dropped
	Answer                    string
	AnsweredBy, AnsweredAt    string
}

// PassportText is the passport's prose, rendered as Markdown by the UI.
type PassportText struct {
	ID, Title, Goal, CurrentState string
	Decisions                     []string // each with its why, when it has one
	NextSteps                     []string
	// NextStepsFrom is, for each next step, the sender who wrote it when
	// it still holds what the pack this passport landed from said, else
	// "" (D25).
	NextStepsFrom []string
	Facts         []Fact
	Artifacts     []string
}

// LuggageFile is one file a pack carries and where it will be written.
type LuggageFile struct {
	Name string
	Size int64
	Dest string
	// LandsAs is the name it lands under when not Name: a repository's
	// metadata, disarmed (D10-git).
	LandsAs string
}

// Decisions are what the person chose during the walkthrough.
type Decisions struct {
	Checks        map[string]CheckDecision // by check id
	Answers       map[string]string        // by ask id; only asks answered now
	TrustOwnFacts bool                     // restore ✓ on facts verified on this machine (§4.2)
	Again         bool                     // land a file already landed once more, by choice
}

// CheckDecision is a check as the person attests it (D12).
type CheckDecision struct {
	Status  string // passed, failed, skipped
	Command string // what was run, if anything (theirs once confirmed)
	Exit    int
	Ran     bool
	RanAt   time.Time // when it ran
}

// Landed is the result of landing a handoff.
type Landed struct {
	ID        string
	NextSteps []string
	FilesDir  string
	Warnings  []string
}

// MergePlan is what merging a receipt would change (§4.4.1).
type MergePlan struct {
	Target      string
	TargetTitle string
	Refusal     *Refusal // set when the merge is refused
	Asks        []AskChange
	Checks      []Check // reported, not adopted
	Facts       []Fact  // sealed as §4.2 says
	Already     bool    // this receipt was merged before: nothing changes
	// LuggageThere: the receipt's luggage folder exists already (an earlier
	// merge wrote it); it is not written twice.
	LuggageThere bool
}

// Refusal is a rule the core refused on, quoted for the person.
type Refusal struct {
	Rule  string // e.g. "§4.4.1"
	Quote string
	Why   string
}

// AskChange is one ask before → after a merge.
type AskChange struct {
	ID      string
	What    string
	Before  Ask
	After   Ask
	Adopted bool // unknown to the target: adopted as open
}

// Merged is the result of a merge.
type Merged struct {
	Target  string
	Version int64
	Changed int
	// Warnings are what the merge found and did that the person must
	// know: the luggage's credential-like strings and instruction-like
	// text, a ✓ restored, a receipt signer that could not be recorded.
	Warnings []string
}

// ---- asks (§4.3) ----------------------------------------------------------

// AsksStore reads and answers the asks of a stored passport and packs a
// receipt.
type AsksStore interface {
	LoadAsks(ctx context.Context, id string) (*AskSheet, error)
	// SaveAsks applies the changes with an expected-version save.
	SaveAsks(ctx context.Context, sheet *AskSheet, changes []AskEdit) (*AskSheet, error)
	// CheckFiles lists the luggage the paths carry, confined to the folder
	// tp runs in, each file with what would keep it from travelling (a
	// credential, D5), before anything is packed.
	CheckFiles(ctx context.Context, paths []string) ([]ReceiptFile, error)
	// PackReceipt writes a receipt for the passport carrying files (as
	// CheckFiles listed them) and returns the path.
	PackReceipt(ctx context.Context, id, out string, files []ReceiptFile) (string, error)
}

// ReceiptFile is one file a receipt would carry.
type ReceiptFile struct {
	Name    string // its name in the pack
	Path    string // where it is read from
	Size    int64
	Refused []string // why it cannot travel; empty when it can
	// Group numbers the paths the person added: a folder's files share
	// one, and are removed together.
	Group int
}

// AskSheet is one passport's asks.
type AskSheet struct {
	ID, Title string
	Version   int64
	Asks      []Ask
	// ReceiptName is the default file name for a receipt.
	ReceiptName string
	// NoReceipt, when set, says why no receipt can be packed from this
	// passport (it was never landed from a pack: a receipt would have no
	// passport to go home to, D6 homeless); the screen offers none.
	NoReceipt string
	Raw       any
}

// AskEdit is what the person did to one ask.
type AskEdit struct {
	ID     string
	Action string // "answer" or "drop"
	Answer string
}

// ---- a stored passport -------------------------------------------------------

// PassportSource reads one stored passport.
type PassportSource interface {
	LoadPassport(ctx context.Context, id string) (*PassportView, error)
}

// PassportView is a stored passport as `tp show` presents it.
type PassportView struct {
	Text          PassportText
	Version       int64
	Chain         []string
	OpenAsks      int
	PendingChecks int
	FailedChecks  int
	FilesDir      string
	UpdatedAt     string
	// Flagged is what read like instructions in the pack this passport
	// landed from and in the receipts merged into it, kept with the
	// passport (D25): shown above it, quoted, with who sent it.
	Flagged []Flagged
}

// Flagged is one sentence a pack held that reads like an instruction.
type Flagged struct {
	From  string // the sender: actor@machine for the landed pack, <id>@<version> for a receipt
	Where string // the place in the pack, with the rule
	Text  string // the sentence, as it arrived (credentials redacted)
}

// ---- landing checks of a stored passport (§4.4) ------------------------------

// ChecksStore reads and records the landing checks of a stored passport.
type ChecksStore interface {
	LoadChecks(ctx context.Context, id string) (*CheckSheet, error)
	// SaveChecks records what the person attests, by check id: the status
	// when set, and the command they ran when Ran (D12), with one
	// expected-version save; it returns the checks as saved.
	SaveChecks(ctx context.Context, id string, checks map[string]CheckDecision) (*CheckSheet, error)
}

// CheckSheet is one passport's landing checks and who suggested their how.
type CheckSheet struct {
	ID, Title string
	Version   int64
	Origin    Origin // the sender the passport was landed from
	Checks    []Check
	// FilesDir is the passport's luggage folder, when it has one: its
	// checks run there.
	FilesDir string
}

// ---- principal's inbox (Acts 0.3 §2–§3) -----------------------------------

// Inbox is the principal side of the record log.
type Inbox interface {
	LoadActs(ctx context.Context) (ActList, error)
	// Preview returns the records the action would write, as text, without
	// writing them.
	Preview(ctx context.Context, a Action) (string, error)
	// Apply writes the records and returns the act's new state.
	Apply(ctx context.Context, a Action) (*Act, error)
	// PreviewAll and ApplyAll are Preview and Apply for many acts at once
	// (issue 17): one preview of every record, one signing key use, one
	// commit; if one act cannot be written, none is, and the error names
	// each and why.
	PreviewAll(ctx context.Context, as []Action) (string, error)
	ApplyAll(ctx context.Context, as []Action) ([]*Act, error)
	// UndoInfo says whether the last settlement this inbox wrote can
	// still be discarded (nobody can have seen it: not pushed, not
	// applied) or must be taken back with a signed reopened (issue 17).
	// Acts is 0 when there is nothing to undo.
	UndoInfo(ctx context.Context) (UndoInfo, error)
	// Discard removes the last settlement while UndoInfo says nobody saw
	// it; one that was seen meanwhile is refused (reopen it instead).
	Discard(ctx context.Context) ([]*Act, error)
}

// UndoInfo is what u would do to the last settlement written.
type UndoInfo struct {
	Acts []Action // the acts it settled (as ActReopen actions)
	Seen bool     // pushed or applied: u reopens, with a signed record
	Why  string
}

// ActList is what LoadActs read: the acts, and what the person must be told
// about the log beside them (Findings, one line each, as tp acts list
// prints them): files that were not read, records that were not applied
// and why (a signature that did not verify, D19), applied records that are
// gone. The inbox shows them; it never drops them.
type ActList struct {
	Acts     []Act
	Findings []string
}

// Act is one act's state as the lifecycle computed it.
type Act struct {
	Key, Project string
	Status       string // open or settled
	Outcome      string
	Withdrawn    bool
	Text, Due    string
	TermsRev     int
	SettledRev   int
	History      []Revision
	Claims       []Claim
	Notes        []string
	// SignedBy says who signed the current settlement (D19): "alice
	// SHA256:…"; "" when it is unsigned (a project without principal).
	SignedBy string
}

// Revision is one need record.
type Revision struct {
	Type, TS, Text string
	Rev            int
}

// Claim is someone saying the act is done or dropped.
type Claim struct {
	By, Outcome, Basis, TS string
}

// Action kinds.
const (
	ActSettle = "settle"
	ActReopen = "reopen"
	ActNote   = "note"
)

// Action is what the principal chose.
type Action struct {
	Kind    string
	Key     string
	Project string
	Outcome string // done, dropped, already_done
	SameAs  string
	Note    string
	// TermsRev is the revision of the act's terms the screen showed when
	// the person chose: a settlement of other terms is refused
	// (D19-terms: an agent can amend an act under the same key meanwhile).
	TermsRev int
}

// ---- home -----------------------------------------------------------------

// HomeSource gathers what the home screen lists.
type HomeSource interface {
	LoadHome(ctx context.Context) (*HomeData, error)
}

// HomeLister is optionally implemented by a HomeSource: what it can list
// at once, without reading the files (issue 20: the home screen's first
// frame comes before every passport and the acts log are read).
type HomeLister interface {
	ListHome(ctx context.Context) (*HomeListing, error)
}

// HomeListing is what the home screen shows before LoadHome answers: the
// passport files by id, none of them read yet.
type HomeListing struct {
	Passports []string
}

// HomeData is the home screen's content.
type HomeData struct {
	Passports []PassportRow
	Projects  []ProjectRow
	Packs     []string // packs in the current folder
	// PackStates say what each of Packs is (issue 17): only a pack whose
	// State is "to land" is offered for landing; a receipt merged, a
	// handoff landed, a pack sent by you say so and name the passport.
	PackStates []PackState
	// Incoming are the packs that arrived over A2A (tp a2a serve, D23),
	// newest first: kept in the store, never landed until the person does.
	Incoming []IncomingRow
	Errors   []string // stray files the store skipped
}

// PackState is what one pack in the folder is to this store.
type PackState struct {
	State    string // "to land", "merged", "landed" or "sent by you"
	Passport string // merged into, landed as, or packed from
}

// PackToLand is the State of a pack to land.
const PackToLand = "to land"

// IncomingRow is one pack that arrived over A2A (D23). State is waiting,
// landed (LandedAs names the passport), answered or withdrawn.
type IncomingRow struct {
	TaskID, Kind, Title, State, LandedAs string
	Path                                 string // the pack file, landed as any file
}

// PassportRow is one stored passport.
type PassportRow struct {
	ID, Title     string
	Chain         []string
	OpenAsks      int
	PendingChecks int
	FailedChecks  int
	Flagged       int // sentences its packs held that read like instructions (D25)
	UpdatedAt     string
}

// ProjectRow is one project's open acts.
type ProjectRow struct {
	Project string
	Open    int
}
