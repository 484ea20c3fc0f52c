package recordlog

import (
	"context"
	"fmt"
	"strings"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
	"golang.org/x/crypto/ssh"
)

// Writing as the principal side: the one sequence behind tp acts
// settle|reopen|note (and the agents' claim|withdraw, which need no
// signature) and the inbox's settle, reopen and note. Authorize the signer
// (D19: a project without principals registers it on first use, when the
// caller allows it), sign the principal-side records (Acts 0.3 §10), write
// them, then reload the act's state. The acts session (package actsession)
// commits and pushes what it wrote when the acts dir is in git (D20).
// Finding the key (flags, environment, git config, ssh-agent) is the front
// end's; it hands the core a KeyFinder.

// KeyFinder finds the signing key. prefer reports whether a key is a
// principal of the project, so that an ssh-agent holding several keys
// offers a principal's.
type KeyFinder func(prefer func(ssh.PublicKey) bool) (sshsign.Found, error)

// FirstPrincipal is the notice of a principal registered on first use.
type FirstPrincipal struct {
	Project     string `json:"project"`
	Principal   string `json:"principal"`
	Fingerprint string `json:"fingerprint"`
	KeyFrom     string `json:"key_from"`
	File        string `json:"allowed_signers"`
	// Adopted counts the unsigned settlements the registrar had already
	// applied, which the registration adopts as they are (D19).
	Adopted int `json:"adopted_unsigned_records"`
	// ProjectID is the project's identity the registration made.
	ProjectID string `json:"project_id,omitempty"`
}

func (t *FirstPrincipal) String() string {
	adopted := ""
	if t.Adopted > 0 {
		adopted = fmt.Sprintf(" The %d unsigned principal-side record(s) the registrar had already applied are adopted as they are; unsigned ones not yet applied will be reported, never applied.", t.Adopted)
	}
	return fmt.Sprintf("trust on first use: project %s had no principal; your key %s (%s, from %s) is now its first principal (project id %s), written to %s and trusted on this machine. Other machines apply its settlements once their person trusts it: tp acts principal trust --project %s %s. From now on only records signed by a principal are applied; tp acts principal list --project %s shows them.",
		sanitize.Line(t.Project), t.Fingerprint, sanitize.Line(t.Principal), sanitize.Line(t.KeyFrom), t.ProjectID, sanitize.Line(t.File), sanitize.Line(t.Project), t.Fingerprint, sanitize.Line(t.Project)) + adopted
}

// Authorizer signs a project's principal-side records in place (D19).
// With register, a project without principals registers the signer first
// (trust on first use); without it the registration is only described. rs
// may be nil: authorize (and register) only, for records signed earlier
// (a preview's). The notice is nil unless the project had no principal.
type Authorizer interface {
	SignRecords(l *Log, project string, rs []acts.Record, register bool) (*FirstPrincipal, error)
}

// AuthorizerFunc is a function used as an Authorizer.
type AuthorizerFunc func(l *Log, project string, rs []acts.Record, register bool) (*FirstPrincipal, error)

// SignRecords calls f.
func (f AuthorizerFunc) SignRecords(l *Log, project string, rs []acts.Record, register bool) (*FirstPrincipal, error) {
	return f(l, project, rs, register)
}

// PrincipalKey is the principal side's signing key and who registers it.
type PrincipalKey struct {
	Find KeyFinder
	Name string // the name a first principal gets in allowed_signers
	By   string // who writes the registration, e.g. "ps:tp@laptop"
	Now  string // RFC 3339 UTC
	// Nonce makes the registration's id unique; nil uses NewNonce.
	Nonce func() string
}

// Authorize finds the signer for principal-side records of project and
// checks it may sign there; see Authorizer for register.
func (k PrincipalKey) Authorize(l *Log, project string, register bool) (ssh.Signer, *FirstPrincipal, error) {
	if register {
		// Two commands settling at once in a project with no principal
		// would both register a first principal (two first changes, a fork
		// no pin can name), or read the principals half-written: they take
		// turns under the project's lock, and the second finds the first's.
		unlock, err := l.lockPrincipals(project)
		if err != nil {
			return nil, nil, err
		}
		defer unlock()
	}
	pr, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, nil, err
	}
	if pr.Blocked != "" && (pr.Has() || len(pr.all) > 0) {
		return nil, nil, acts.WithHint(fmt.Errorf("project %s: %s; nothing was written", sanitize.Line(project), sanitize.Line(pr.Blocked)),
			"tp acts verify --project "+sanitize.Line(project)+" shows the details")
	}
	if pr.Mismatch != "" {
		return nil, nil, acts.WithHint(fmt.Errorf("project %s: the principals cannot be trusted: %s; nothing was written", sanitize.Line(project), sanitize.Line(pr.Mismatch)),
			"a principal repairs it: tp acts principal add --project "+sanitize.Line(project)+" THEIR_KEY.pub rewrites allowed_signers from the signed changes; tp acts verify --project "+sanitize.Line(project)+" shows the details")
	}
	f, err := k.Find(func(pk ssh.PublicKey) bool { _, ok := pr.Holds(pk); return ok })
	if err != nil {
		return nil, nil, err
	}
	pub := f.Signer.PublicKey()
	if pr.Has() {
		if _, ok := pr.Holds(pub); !ok {
			var names []string
			for _, p := range pr.Chain {
				names = append(names, p.Name+" "+p.Fingerprint())
			}
			return nil, nil, acts.WithHint(fmt.Errorf("key %s (from %s) is not a principal of project %s (principals: %s): a record signed with it would never be applied; nothing was written",
				sshsign.Fingerprint(pub), sanitize.Line(f.From), sanitize.Line(project), sanitize.Line(strings.Join(names, ", "))),
				"sign with a principal's key (--signing-key FILE), or have a principal run tp acts principal add")
		}
		return f.Signer, nil, nil
	}
	t := &FirstPrincipal{Project: project, Principal: k.Name, Fingerprint: sshsign.Fingerprint(pub), KeyFrom: f.From, File: l.SignersPath(project)}
	if register {
		nonce := acts.NewNonce
		if k.Nonce != nil {
			nonce = k.Nonce
		}
		after, err := l.ChangePrincipal(project, PrincipalAdded, t.Principal, pub, f.Signer, k.By, k.Now, nonce())
		if err != nil {
			return nil, nil, err
		}
		if len(after.Changes) > 0 {
			t.Adopted = len(after.Changes[0].Adopts)
		}
		t.ProjectID = after.ProjectID
	}
	return f.Signer, t, nil
}

// SignRecords authorizes the key and signs rs in place (Authorizer).
func (k PrincipalKey) SignRecords(l *Log, project string, rs []acts.Record, register bool) (*FirstPrincipal, error) {
	s, t, err := k.Authorize(l, project, register)
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return t, nil
	}
	pr, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, err
	}
	if pr.ProjectID == "" {
		// No principal and no registration: there is no identity to bind a
		// signature to. The records go unsigned; with a trust store they
		// are never applied, without one (the spec's fixtures) they are
		// applied as any unsigned project's are.
		return t, nil
	}
	return t, acts.SignAll(rs, s, pr.ProjectID)
}

// PrincipalWrite asks WriteAsPrincipal to write one act's records.
type PrincipalWrite struct {
	Project, Key string // the act whose state is reloaded after the write
	Records      []acts.Record
	// Signer signs the principal-side records; unused when there are none
	// (an agent's claim or withdrawal).
	Signer Authorizer
	// Register allows registering the signer as the project's first
	// principal (trust on first use, D19).
	Register bool
	// Signed: the records were signed already (shown in a preview); the
	// signer is authorized (and registered) again, the records are not
	// signed anew, so what is written is exactly what was shown. (A
	// preview in a project without principal shows them unsigned: they are
	// signed after the registration, content unchanged.)
	Signed bool
}

// PrincipalWriteReport says what WriteAsPrincipal wrote.
type PrincipalWriteReport struct {
	Records  []acts.Record  // as written, signed
	Outcomes []WriteOutcome // one per record: written or duplicate
	// Registered is set when the signer was registered as the project's
	// first principal (trust on first use).
	Registered *FirstPrincipal
	State      *acts.ActState // the act's state after the write
}

// WriteAsPrincipal signs, writes and reloads (see the top of this file);
// committing and pushing is the acts session's (actsession). A signer that may not sign for the project writes nothing.
func WriteAsPrincipal(ctx context.Context, l *Log, req PrincipalWrite) (*PrincipalWriteReport, error) {
	rep := &PrincipalWriteReport{Records: req.Records}
	need := false
	for _, r := range req.Records {
		need = need || acts.PrincipalSide(r)
	}
	if need {
		if req.Signer == nil {
			return nil, fmt.Errorf("project %s: principal-side records need a signer (D19); nothing was written", sanitize.Line(req.Project))
		}
		rs := req.Records
		if req.Signed && allSigned(req.Records) {
			rs = nil
		}
		t, err := req.Signer.SignRecords(l, req.Project, rs, req.Register)
		if err != nil {
			return nil, err
		}
		if req.Register {
			rep.Registered = t
		}
	}
	outcomes, err := l.WriteAll(req.Records)
	if err != nil {
		return nil, err
	}
	rep.Outcomes = outcomes
	if err := l.NoteSigned(req.Project, req.Records); err != nil {
		return nil, err
	}
	ld, err := l.Load(req.Project)
	if err != nil {
		return nil, err
	}
	var all []acts.Record
	for _, r := range ld.Records {
		if r.Key == req.Key {
			all = append(all, r)
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no act %s in project %s", req.Key, sanitize.Line(req.Project))
	}
	if rep.State, err = acts.Lifecycle(all); err != nil {
		return nil, err
	}
	return rep, nil
}

// allSigned reports whether every principal-side record of rs is signed. A
// preview in a project without principal cannot sign (there is no project
// identity to bind to until the registration makes one): its records are
// signed when written, after the registration, their content as shown.
func allSigned(rs []acts.Record) bool {
	for _, r := range rs {
		if acts.PrincipalSide(r) && r.Sig == "" {
			return false
		}
	}
	return true
}
