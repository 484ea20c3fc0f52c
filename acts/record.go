package acts

// Record is one Acts 0.3 record (spec §3, D8): the core record
// envelope with ext "acts/0.3" and the fields of its type. Optional fields are
// omitted when empty so a record written back is the record that was read.
type Record struct {
	PH      string `json:"ph"`
	Ext     string `json:"ext"`
	ID      string `json:"id"`
	Type    string `json:"type"`
	Origin  string `json:"origin"`
	By      string `json:"by"`
	Key     string `json:"key"`
	Project string `json:"project"`
	TS      string `json:"ts"`

	Terms       *Terms     `json:"terms,omitempty"`        // raised, amended
	TermsRev    int        `json:"terms_rev,omitempty"`    // raised, amended, settled
	Supersedes  []string   `json:"supersedes,omitempty"`   // need chain / settlement chain
	Reason      string     `json:"reason,omitempty"`       // withdrawn: not_needed
	Outcome     string     `json:"outcome,omitempty"`      // settled, claimed
	Authority   *Authority `json:"authority,omitempty"`    // settled (principal side, §8)
	RestoreText string     `json:"restore_text,omitempty"` // reopened
	Evidence    *Evidence  `json:"evidence,omitempty"`     // claimed
	Relation    string     `json:"relation,omitempty"`     // related: same_as, derived_from
	Target      string     `json:"target,omitempty"`       // related: the other item's key
	About       *About     `json:"about,omitempty"`        // note
	Note        string     `json:"note,omitempty"`         // settled: the principal's note on the settlement
	Text        string     `json:"text,omitempty"`         // note: what the note says
	Context     string     `json:"context,omitempty"`      // e.g. "migration"
	// Sig is the armored SSHSIG of the record's canonical bytes without sig
	// (D19): principal-side records are signed with the principal's key.
	Sig string `json:"sig,omitempty"`

	// SignedBy is set by Log.Load on a principal-side record whose
	// signature verified against the project's principals; nil otherwise.
	// It is not part of the record.
	SignedBy *SignedBy `json:"-"`
}

// Terms are what the act asks of the principal (§2).
type Terms struct {
	Text string `json:"text"`
	Due  string `json:"due,omitempty"` // YYYY-MM-DD
}

// Authority says who decided a settlement (§8: principal, delegated, attested).
type Authority struct {
	Kind    string `json:"kind"`
	Decider string `json:"decider,omitempty"`
}

// Evidence backs a claim.
type Evidence struct {
	Basis string `json:"basis"`
}

// About says what a note is about.
type About struct {
	Key   string `json:"key,omitempty"`
	Quote string `json:"quote,omitempty"`
}

// Record types (§3).
const (
	TypeRaised    = "raised"
	TypeAmended   = "amended"
	TypeWithdrawn = "withdrawn"
	TypeSettled   = "settled"
	TypeReopened  = "reopened"
	TypeClaimed   = "claimed"
	TypeRelated   = "related"
	TypeNote      = "note"
)

// NoteText is what a note record says: its text, or (as older tp wrote
// notes) its note member.
func (r Record) NoteText() string {
	if r.Text != "" {
		return r.Text
	}
	return r.Note
}

// Record ids the registrar mints (§7).
func RaisedID(key string) string { return "r:" + key }
