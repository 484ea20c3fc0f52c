package acts

// Steps is one registrar run taken one step at a time (Acts 0.3 §4), for
// the fixture runner (acts/conformance), whose fixture files each check
// one step: relink, raise, amend, apply, reconcile. Run takes them all in
// order; nothing here does I/O.
type Steps struct{ r *registrar }

// PendingSettlement is an act's current settlement not yet acknowledged.
type PendingSettlement = pendingSettlement

// NewSteps starts a run over in; derive=false (fixtures of steps that
// derive no key) accepts a project name that could not form keys.
func NewSteps(in RunInput, derive bool) (*Steps, error) {
	r, err := newRegistrarFor(in, derive)
	if err != nil {
		return nil, err
	}
	return &Steps{r: r}, nil
}

// SetRecords sets the records the run may apply, by id.
func (s *Steps) SetRecords(byID map[string]Record) { s.r.in.Records = byID }

// Relink is step 2: keys carried by lines are stamped again where lost.
func (s *Steps) Relink() { s.r.relink() }

// Raise is step 3: new lines send raised records and are stamped.
func (s *Steps) Raise() { s.r.raise() }

// Amend is step 4: lines whose text changed send amended records.
func (s *Steps) Amend() { s.r.amend() }

// PendingSettlements lists the current settlement of every act that has not
// been acknowledged.
func (s *Steps) PendingSettlements() []PendingSettlement { return s.r.pendingSettlements() }

// ApplySettlements is step 5: settlements struck or lines re-added.
func (s *Steps) ApplySettlements(ps []PendingSettlement) { s.r.applySettlements(ps) }

// Reconcile is step 6: vanished lines claimed, order as given.
func (s *Steps) Reconcile(order []string) { s.r.reconcile(order) }

// Document is the document as the steps so far left it.
func (s *Steps) Document() *Document { return s.r.d }

// Output is what the steps so far send and warn.
func (s *Steps) Output() *RunOutput { return &s.r.out }

// TrimWS removes leading and trailing Unicode White_Space (D16).
func TrimWS(s string) string { return trimWS(s) }

// TrimRightWS removes trailing Unicode White_Space (D16).
func TrimRightWS(s string) string { return trimRightWS(s) }
