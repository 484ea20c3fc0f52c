package acts

// ActState is what one receiver's set of records says about one act: the
// lifecycle of D8, computed by Lifecycle as a function of the set of
// records (never of their order) and consumed by the registrar, the list
// commands and the principal's inbox.
type ActState struct {
	Key     string
	Project string

	Status  string // StatusOpen or StatusSettled
	Outcome string // "" while open; done, dropped or already_done when settled
	Need    string // NeedActive or NeedWithdrawn

	TermsRev int    // terms_rev of the current need record's terms
	Text     string // latest terms text
	Due      string // latest terms due date, "" when none

	NeedID       string // id of the current need record (raised, amended or withdrawn)
	SettlementID string // id of the current settlement record (settled or reopened), "" when none
	SettledRev   int    // terms_rev the current settlement was made against (0 when none)
	Reopens      int    // reopened records in the settlement chain; the registrar's claim id is c:<key>:r<Reopens>

	History     []Record // need records, oldest first (raised, amended…, withdrawn)
	Settlements []Record // the settlement chain, oldest first (settled, reopened…); SignedBy says who signed each
	Claims      []Record // claimed records
	Relations   []Record // related records
	Notes       []Record // note records
	Stale       []Record // records whose supersedes did not name the current record of their chain: kept, reported, not applied
}

// Lifecycle states (D8).
const (
	StatusOpen    = "open"
	StatusSettled = "settled"
	NeedActive    = "active"
	NeedWithdrawn = "withdrawn"
)
