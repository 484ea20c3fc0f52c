package acts

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/internal/sanitize"
)

// Building the records the principal side and agents send outside the
// document (§2, §3, §4 last paragraph, §8): settle, reopen, note, claim,
// withdraw. Each builder checks the act's state first, so a command cannot
// send a record the lifecycle would set aside as stale.

// Sender says who sends a record and when.
type Sender struct {
	By      string // e.g. "ps:tp" for the principal side, "agent:maria"
	Decider string // the principal, for authority.decider: "p:<actor>"
	Now     string // RFC 3339 UTC
	// Nonce makes ids unique (core §10); nil uses 6 random bytes.
	Nonce func() string
}

func (s Sender) nonce() string {
	if s.Nonce != nil {
		return s.Nonce()
	}
	return NewNonce()
}

// NewNonce is 6 random bytes in hex: what makes the ids tp mints unique.
func NewNonce() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newID is "<prefix>:<key>:<compact ts>-<nonce>": the type prefix and the
// colon keep it apart from keys and from the registrar's own ids (§7).
func (s Sender) newID(prefix, key string) string {
	ts := strings.NewReplacer("-", "", ":", "", "T", "", "Z", "").Replace(s.Now)
	return prefix + ":" + key + ":" + ts + "-" + s.nonce()
}

func (s Sender) base(st *ActState, typ, origin, prefix string) Record {
	return Record{PH: "0.3", Ext: "acts/0.3", ID: s.newID(prefix, st.Key), Type: typ, Origin: origin,
		By: s.By, Key: st.Key, Project: st.Project, TS: s.Now}
}

func (s Sender) authority() *Authority {
	return &Authority{Kind: "principal", Decider: s.Decider}
}

// Settlement outcomes (§2).
var (
	SettlementOutcomes = []string{"done", "dropped", "already_done"}
	ClaimOutcomes      = []string{"done", "dropped"}
)

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// BuildSettle returns the settled record for the act and, for already_done
// with sameAs, the related same_as record (§2: SHOULD accompany it). A
// settled act must be reopened first; an act never raised cannot be settled
// here (there are no terms to settle against).
//
// read is the revision of the act's terms the principal read (0: none
// named); terms they did not read are refused (CheckTermsRead, D19-terms).
func BuildSettle(st *ActState, s Sender, outcome, sameAs, note string, read int) ([]Record, error) {
	if !oneOf(outcome, SettlementOutcomes) {
		return nil, fmt.Errorf("outcome %q: must be one of %s", outcome, strings.Join(SettlementOutcomes, ", "))
	}
	if sameAs != "" && outcome != "already_done" {
		return nil, fmt.Errorf("--same-as goes with outcome already_done (§2), not %s", outcome)
	}
	if sameAs != "" && !ValidKey(sameAs) {
		return nil, fmt.Errorf("--same-as %q is not a valid key (§6.1)", sameAs)
	}
	if sameAs == st.Key {
		return nil, fmt.Errorf("an act cannot be the same as itself")
	}
	if st.NeedID == "" || st.TermsRev == 0 {
		return nil, fmt.Errorf("act %s has no raised record in the log: nothing to settle", st.Key)
	}
	if st.Status == StatusSettled {
		return nil, fmt.Errorf("act %s is already settled (%s); reopen it first", st.Key, st.Outcome)
	}
	if err := CheckTermsRead(st, read); err != nil {
		return nil, err
	}
	if err := RefuseCredentials("text", st.Text); err != nil {
		return nil, fmt.Errorf("act %s: its text holds a credential-like part (%s), which tp never shows (D5), so you cannot read what you would settle; nothing was written — the act stays open until its line is amended without it (tp's registrar raises no such text)", st.Key, err.(*CredentialError).Rule)
	}
	r := s.base(st, TypeSettled, "principal", "s")
	r.Outcome = outcome
	r.Authority = s.authority()
	r.TermsRev = st.TermsRev
	r.Note = note
	if st.SettlementID != "" { // the reopened it follows
		r.Supersedes = []string{st.SettlementID}
	}
	out := []Record{r}
	if sameAs != "" {
		rel := s.base(st, TypeRelated, "principal", "l")
		rel.Relation = "same_as"
		rel.Target = sameAs
		rel.Authority = s.authority()
		out = append(out, rel)
	}
	return out, nil
}

// BuildReopen returns the reopened record for a settled act: it supersedes
// the settlement and carries the current terms text as restore_text (§3).
func BuildReopen(st *ActState, s Sender) (Record, error) {
	if st.Status != StatusSettled {
		return Record{}, fmt.Errorf("act %s is not settled: nothing to reopen", st.Key)
	}
	if st.Text == "" {
		return Record{}, fmt.Errorf("act %s has no terms text in the log to restore", st.Key)
	}
	r := s.base(st, TypeReopened, "principal", "o")
	r.Supersedes = []string{st.SettlementID}
	r.RestoreText = st.Text
	r.Authority = s.authority()
	return r, nil
}

// BuildNote returns a principal-side note about the act; the text travels in
// note, delivered to the project, never applied to the document (I2).
func BuildNote(st *ActState, s Sender, text string) (Record, error) {
	if strings.TrimSpace(text) == "" {
		return Record{}, fmt.Errorf("a note needs text")
	}
	if err := RefuseCredentials("note", text); err != nil {
		return Record{}, err
	}
	r := s.base(st, TypeNote, "principal", "n")
	r.About = &About{Key: st.Key}
	r.Text = text
	r.Authority = s.authority()
	return r, nil
}

// BuildClaim returns an agent's claim that the principal did (or dropped)
// the act, with its basis (§2, §4: "I paid it", said in a session). A claim
// never changes the state (I2); the principal side asks before settling.
func BuildClaim(st *ActState, s Sender, outcome, basis string) (Record, error) {
	if !oneOf(outcome, ClaimOutcomes) {
		return Record{}, fmt.Errorf("claim outcome %q: must be one of %s", outcome, strings.Join(ClaimOutcomes, ", "))
	}
	if strings.TrimSpace(basis) == "" {
		return Record{}, fmt.Errorf("a claim needs --basis: why you believe it (§3 evidence.basis)")
	}
	if st.Status == StatusSettled {
		return Record{}, &SettledError{Key: st.Key, Outcome: st.Outcome, What: "claim"}
	}
	if err := RefuseCredentials("basis", basis); err != nil {
		return Record{}, err
	}
	r := s.base(st, TypeClaimed, "agent", "c")
	r.Outcome = outcome
	r.Evidence = &Evidence{Basis: basis}
	return r, nil
}

// BuildWithdraw returns the requester's withdrawn record: the need ends,
// the settlement stays open (§2).
func BuildWithdraw(st *ActState, s Sender) (Record, error) {
	if st.NeedID == "" {
		return Record{}, fmt.Errorf("act %s has no raised record in the log: nothing to withdraw", st.Key)
	}
	if st.Need == NeedWithdrawn {
		return Record{}, fmt.Errorf("act %s is already withdrawn", st.Key)
	}
	if st.Status == StatusSettled {
		return Record{}, &SettledError{Key: st.Key, Outcome: st.Outcome, What: "withdraw"}
	}
	r := s.base(st, TypeWithdrawn, "requester", "w")
	r.Reason = "not_needed"
	r.Supersedes = []string{st.NeedID}
	return r, nil
}

// TermsReadError is a settlement refused because the act's terms are not
// the revision the principal read (D19-terms).
type TermsReadError struct {
	Key  string
	Rev  int    // the act's current terms revision
	Read int    // the revision the principal named; 0: none
	Text string // the current terms
}

func (e *TermsReadError) Error() string {
	now := fmt.Sprintf("its terms (rev %d) now read %q", e.Rev, sanitize.Line(e.Text))
	if e.Read == 0 {
		return fmt.Sprintf("act %s was amended: %s; a settlement of an amended act names the revision you read, so that what you sign is what you saw; nothing was written", e.Key, now)
	}
	return fmt.Sprintf("act %s: rev %d is not the current terms (rev %d): %s; nothing was written", e.Key, e.Read, e.Rev, now)
}

// CheckTermsRead refuses to settle terms the principal did not read
// (D19-terms). An agent changes what it asks by amending a line under the
// same key (§4 step 4), so a key alone does not say which text the
// principal saw: read is the terms revision they were shown. Naming none
// is enough only for an act never amended (rev 1, whose text cannot change);
// a named revision must be the current one.
func CheckTermsRead(st *ActState, read int) error {
	if (read == 0 && st.TermsRev > 1) || (read != 0 && read != st.TermsRev) {
		return &TermsReadError{Key: st.Key, Rev: st.TermsRev, Read: read, Text: st.Text}
	}
	return nil
}
