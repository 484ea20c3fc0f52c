package recordlog

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
	"golang.org/x/crypto/ssh"
)

// A project's principals (D19) are a chain of signed changes, one file each
// in <project>/principals/: who was added or removed, each change naming
// the hash of the change before it ("prev") and signed by a principal
// current at that point. The first change (no prev) is signed by the key
// it adds and makes the project's identity (project_id, random), which
// every principal-side signature binds, so a record copied into another
// acts folder does not verify there.
//
// Which chain counts is not decided by the acts folder (anyone who can
// write there could plant one): with a trust store (Log.Trust, D19), the
// first change's key must be a root this machine's person trusts for that
// project id, and the newest change this machine accepted must still be in
// the chain (rollback). Forks (two changes extending one, or two first
// changes) stop every machine until a person resolves them (tp acts
// principal resolve). Without a trust store (the spec's fixture runner and
// the format's unit tests) a self-signed first change is taken as it is.
//
// <project>/allowed_signers, OpenSSH's format, is written from the chain so
// that ssh-keygen -Y verify and git can read it; tp never trusts it, and
// when it disagrees with the chain no principal-side record is applied
// until a principal rewrites it (tp acts principal add|remove).

// Principal change types.
const (
	PrincipalAdded   = "principal_added"
	PrincipalRemoved = "principal_removed"
	PrincipalExt     = "tp-principals/0.2"
)

// Removal reasons (D19).
const (
	// Retired: the key's holder stopped being a principal; what it signed
	// and this machine had applied before stays applied.
	Retired = "retired"
	// Compromised: the key may be in other hands; nothing it signed is
	// trusted, and what it signed is listed for a principal to settle again.
	Compromised = "compromised"
)

// PrincipalChange is one signed change of a project's principals.
type PrincipalChange struct {
	PH      string `json:"ph"`
	Ext     string `json:"ext"`
	ID      string `json:"id"`
	Type    string `json:"type"`
	By      string `json:"by"`
	Project string `json:"project"`
	// ProjectID is the project's identity, the same in every change.
	ProjectID string `json:"project_id"`
	// Prev is the hash of the change before ("sha256:<hex>" of its file);
	// "" for the first.
	Prev string `json:"prev,omitempty"`
	TS   string `json:"ts"`
	// Seq is the change's place in the chain (1 for the first).
	Seq       int    `json:"seq"`
	Principal string `json:"principal"`
	PublicKey string `json:"public_key"` // authorized_keys form: "ssh-ed25519 AAAA…"
	// Reason, on a removal: retired or compromised.
	Reason string `json:"reason,omitempty"`
	// Adopts, on the first change only, lists the unsigned principal-side
	// records the registrar had already applied (acknowledged) when the
	// project got its principal ("<id> <sha256 of the file>"): they are in
	// the document already, from before there was anyone to sign them, and
	// stay trusted exactly as they are. Unsigned records not yet applied
	// are not adopted: from now on they are reported, never applied.
	Adopts []string `json:"adopts,omitempty"`
	Sig    string   `json:"sig,omitempty"`

	chainHash string // set when the chain follows it
}

// Principal is one principal of a project: a name and a key.
type Principal struct {
	Name string
	Key  ssh.PublicKey
}

// Fingerprint is the key's SHA256 fingerprint.
func (p Principal) Fingerprint() string { return sshsign.Fingerprint(p.Key) }

// Removal is a key the chain removed.
type Removal struct {
	Principal
	Reason   string // Retired or Compromised
	ChangeID string
}

// Principals is what a project's principals are, as the log trusts them.
type Principals struct {
	Project string
	// ProjectID is the identity of the chain followed ("" with none).
	ProjectID string
	// Path of allowed_signers; Exists when the file is there.
	Path   string
	Exists bool
	// Allowed is the file as parsed; Chain the principals the signed
	// changes add up to, in the order they were added.
	Allowed *sshsign.AllowedSigners
	Chain   []Principal
	Changes []PrincipalChange // the changes followed, in order
	// Head is the hash of the newest change followed.
	Head string
	// Removed are the keys the chain removed (and did not add back).
	Removed []Removal
	// Firsts are the first changes found (more than one: concurrent
	// registrations, or a planted one).
	Firsts []PrincipalChange
	// Problems are changes that did not verify and lines of the file that
	// were not trusted: reported, ignored.
	Problems []string
	// Mismatch, when set, is why the file and the changes disagree; the
	// log then applies no principal-side record (fail closed).
	Mismatch string
	// Blocked, when set, is why no principal-side record is applied on
	// this machine: no principal trusted here, a fork, a rollback (D19).
	Blocked string
	// Adopted are the unsigned records the first change adopted, by id.
	Adopted map[string]Adoption

	all    []changeFile // every change read, for resolve
	signed bool         // a trust store judged the chain (Log.Trust set)
}

type changeFile struct {
	c    PrincipalChange
	raw  []byte
	hash string
	name string
	key  ssh.PublicKey
}

// Adoption is an unsigned record the first principal vouched for.
type Adoption struct {
	Digest string // SHA-256 of the record file, hex
	By     acts.SignedBy
}

// Has reports whether the project has a principal at all.
func (p *Principals) Has() bool { return p != nil && (p.Exists || len(p.Chain) > 0) }

// Refusal is why this machine applies none of the project's principal-side
// records, or "".
func (p *Principals) Refusal() string {
	switch {
	case p == nil:
		return ""
	case p.Blocked != "":
		return p.Blocked
	case p.Mismatch != "":
		return "the project's principals cannot be trusted: " + p.Mismatch
	}
	return ""
}

// Holds reports whether key is one of the principals the changes name.
func (p *Principals) Holds(key ssh.PublicKey) (Principal, bool) {
	if p == nil {
		return Principal{}, false
	}
	want := key.Marshal()
	for _, c := range p.Chain {
		if bytes.Equal(c.Key.Marshal(), want) {
			return c, true
		}
	}
	return Principal{}, false
}

// RemovedAs reports whether key was removed from the chain, and why.
func (p *Principals) RemovedAs(key ssh.PublicKey) (Removal, bool) {
	if p == nil {
		return Removal{}, false
	}
	want := key.Marshal()
	for _, r := range p.Removed {
		if bytes.Equal(r.Key.Marshal(), want) {
			return r, true
		}
	}
	return Removal{}, false
}

// SignersPath is the project's allowed_signers file.
func (l *Log) SignersPath(project string) string {
	return filepath.Join(l.ProjectDir(project), "allowed_signers")
}

// PrincipalsDir holds the project's signed principal changes.
func (l *Log) PrincipalsDir(project string) string {
	return filepath.Join(l.ProjectDir(project), "principals")
}

// LoadPrincipals reads and checks a project's principals: the chain, this
// machine's trust in its first key and its memory of the newest change
// (with Log.Trust), and allowed_signers against the chain.
func (l *Log) LoadPrincipals(project string) (*Principals, error) {
	p := &Principals{Project: project, Path: l.SignersPath(project), Allowed: &sshsign.AllowedSigners{}, signed: l.Trust != nil}
	if err := l.checkInside(l.ProjectDir(project)); err != nil {
		return nil, fmt.Errorf("principals: %w", err)
	}
	data, err := ReadLimited(p.Path, sshsign.MaxAllowedSigners)
	switch {
	case err == nil:
		p.Exists = true
		p.Allowed = sshsign.ParseAllowedSigners(data)
		for _, pr := range p.Allowed.Problems {
			p.Problems = append(p.Problems, p.Path+": "+pr)
		}
	case errors.Is(err, errTooLarge):
		p.Exists = true
		p.Problems = append(p.Problems, fmt.Sprintf("%s: larger than %d bytes; not read", p.Path, sshsign.MaxAllowedSigners))
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("principals: %w", err)
	}
	changes, probs, err := l.readChanges(project)
	if err != nil {
		return nil, err
	}
	p.Problems = append(p.Problems, probs...)
	p.all = changes
	if err := l.walkChain(p); err != nil {
		return nil, err
	}
	if p.Blocked == "" {
		p.compare()
	}
	return p, nil
}

// maxChangeFile bounds one principal change's file.
const MaxChangeFile = 64 << 10

func (l *Log) readChanges(project string) ([]changeFile, []string, error) {
	dir := l.PrincipalsDir(project)
	if err := l.checkInside(dir); err != nil {
		return nil, nil, fmt.Errorf("principals: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("principals: %w", err)
	}
	var out []changeFile
	var probs []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			probs = append(probs, path+": not a principal change; ignored")
			continue
		}
		raw, err := ReadLimited(path, MaxChangeFile)
		if errors.Is(err, errTooLarge) {
			probs = append(probs, fmt.Sprintf("%s: larger than any principal change (limit %d bytes); ignored", path, MaxChangeFile))
			continue
		}
		if err != nil {
			probs = append(probs, fmt.Sprintf("%s: unreadable: %v; ignored", path, err))
			continue
		}
		c, key, err := decodeChange(raw)
		if errors.Is(err, errOldPrincipalChange) {
			// Never migrated (D19): its key was named by a file anyone who
			// writes the acts folder could have written.
			err = fmt.Errorf("%w: not trusted and never migrated (D19); the principal registers again with their own key: tp acts principal add --project %s YOUR_KEY.pub (then this file can be deleted)", err, quoteArg(project))
		}
		if err == nil && c.Project != project {
			err = fmt.Errorf("for project %q", c.Project)
		}
		if err == nil && EncodeName(c.ID)+".json" != e.Name() {
			err = fmt.Errorf("holds change %q under another name", c.ID)
		}
		if err == nil {
			err = verifyChange(c, raw, key)
		}
		if err != nil {
			what := ""
			if c.ID != "" {
				what = " (change " + c.ID + ")"
			}
			probs = append(probs, fmt.Sprintf("%s%s: %v; ignored", path, what, err))
			continue
		}
		out = append(out, changeFile{c: c, raw: raw, hash: "sha256:" + fileDigest(raw), name: e.Name(), key: key})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].hash < out[j].hash })
	return out, probs, nil
}

var validProjectID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{7,63}$`) })

// oldPrincipalExt marks principal changes of tp before issue 15: no
// project identity, no hash chain.
const oldPrincipalExt = "tp-principals/0.1"

// errOldPrincipalChange is a change in oldPrincipalExt.
var errOldPrincipalChange = errors.New("a principal change of an older tp (" + oldPrincipalExt + ": no project identity, no hash chain)")

// quoteArg is s as one shell word: as it is when it needs no quoting.
func quoteArg(s string) string {
	plain := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.,:/@+=", c)) {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func decodeChange(raw []byte) (PrincipalChange, ssh.PublicKey, error) {
	var c PrincipalChange
	v, err := ojson.ParseStrict(raw)
	if err != nil {
		return c, nil, err
	}
	if err := v.Decode(&c); err != nil {
		return c, nil, err
	}
	if c.Ext == oldPrincipalExt {
		return c, nil, errOldPrincipalChange
	}
	if c.PH != "0.3" || c.Ext != PrincipalExt || (c.Type != PrincipalAdded && c.Type != PrincipalRemoved) || c.ID == "" || c.Seq < 1 || !sshsign.ValidPrincipal(c.Principal) {
		return c, nil, errors.New("not a principal change tp wrote")
	}
	if !validProjectID().MatchString(c.ProjectID) {
		return c, nil, fmt.Errorf("project_id %q is not a project identity", c.ProjectID)
	}
	if (c.Prev == "") != (c.Seq == 1) || (c.Prev != "" && !strings.HasPrefix(c.Prev, "sha256:")) {
		return c, nil, errors.New("prev and seq disagree (only the first change, seq 1, has no prev)")
	}
	if c.Type == PrincipalRemoved && c.Reason != Retired && c.Reason != Compromised {
		return c, nil, fmt.Errorf("a removal says why: reason %q is not %q or %q", c.Reason, Retired, Compromised)
	}
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(c.PublicKey))
	if err != nil {
		return c, nil, fmt.Errorf("public_key: %v", err)
	}
	return c, key, nil
}

// verifyChange checks that the change is signed at all and that its
// signature is over its bytes; who signed it is checked by the walk.
func verifyChange(c PrincipalChange, raw []byte, key ssh.PublicKey) error {
	if c.Sig == "" {
		return errors.New("unsigned")
	}
	_, _, err := acts.SignedMessage(raw)
	return err
}

// signerOf returns who signed a change among signers, or an error.
func signerOf(signers []Principal, raw []byte) (Principal, error) {
	msg, sig, err := acts.SignedMessage(raw)
	if err != nil {
		return Principal{}, err
	}
	allowed := &sshsign.AllowedSigners{}
	for _, pr := range signers {
		allowed.Signers = append(allowed.Signers, sshsign.AllowedSigner{Principals: []string{pr.Name}, Key: pr.Key})
	}
	if _, err := sshsign.Verify(allowed, acts.SigNamespace, msg, sig); err != nil {
		return Principal{}, err
	}
	k, err := sshsign.SignerOf(sig)
	if err != nil {
		return Principal{}, err
	}
	for _, pr := range signers {
		if bytes.Equal(pr.Key.Marshal(), k.Marshal()) {
			return pr, nil
		}
	}
	return Principal{}, errors.New("signed by no principal of the time")
}

// compare checks that allowed_signers lists exactly the chain's keys for
// the tp-acts namespace.
func (p *Principals) compare() {
	if !p.Exists && len(p.Chain) == 0 {
		return
	}
	if !p.Exists {
		p.Mismatch = fmt.Sprintf("%s is missing, but the signed changes in principals/ name %s", p.Path, plural.N(len(p.Chain), "principal"))
		return
	}
	var extra []string
	for _, s := range p.Allowed.Signers {
		if !s.AllowsNamespace(acts.SigNamespace) {
			continue
		}
		if _, ok := p.Holds(s.Key); !ok {
			extra = append(extra, fmt.Sprintf("line %d (%s)", s.Line, sshsign.Fingerprint(s.Key)))
		}
	}
	var missing []string
	for _, c := range p.Chain {
		if p.Allowed.Find(c.Key, acts.SigNamespace) == nil {
			missing = append(missing, c.Name+" "+c.Fingerprint())
		}
	}
	switch {
	case len(extra) > 0:
		p.Mismatch = fmt.Sprintf("%s lists %s no signed principal change added: %s", p.Path, plural.Word(len(extra), "a key", "keys"), strings.Join(extra, ", "))
	case len(missing) > 0:
		p.Mismatch = fmt.Sprintf("%s lacks %s the signed changes name: %s", p.Path, plural.Word(len(missing), "a principal", "principals"), strings.Join(missing, ", "))
	case len(p.Chain) == 0:
		p.Mismatch = fmt.Sprintf("%s names no principal, and no signed change added one", p.Path)
	}
}

// ChangePrincipal signs and writes a principal change (a removal as
// retired), then rewrites allowed_signers from the chain; see
// ChangePrincipalWhy.
func (l *Log) ChangePrincipal(project, typ, name string, key ssh.PublicKey, signer ssh.Signer, by, now, nonce string) (*Principals, error) {
	reason := ""
	if typ == PrincipalRemoved {
		reason = Retired
	}
	return l.ChangePrincipalWhy(project, typ, name, key, reason, signer, by, now, nonce)
}

// ChangePrincipalWhy signs and writes a principal change extending the
// chain's newest, then rewrites allowed_signers from the chain. The signer
// must be a current principal; in a project with no principal change at
// all, the first addition is signed by the key it adds, makes the
// project's identity and, with a trust store, is trusted here as the
// project's root (the person's own first registration, said aloud by the
// caller). A removal says why (Retired or Compromised). It returns the
// project's principals after.
func (l *Log) ChangePrincipalWhy(project, typ, name string, key ssh.PublicKey, reason string, signer ssh.Signer, by, now, nonce string) (*Principals, error) {
	if !sshsign.ValidPrincipal(name) {
		return nil, fmt.Errorf("principal name %q: one word, no spaces, commas, quotes, '#' or wildcards", name)
	}
	if typ == PrincipalRemoved && reason != Retired && reason != Compromised {
		return nil, fmt.Errorf("a removal says why: %q or %q", Retired, Compromised)
	}
	p, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, err
	}
	first := len(p.all) == 0
	if first && (typ != PrincipalAdded || !bytes.Equal(key.Marshal(), signer.PublicKey().Marshal())) {
		return nil, fmt.Errorf("project %s has no principal yet: the first principal is added by signing with their own key", project)
	}
	if !first && p.Blocked != "" {
		return nil, acts.WithHint(fmt.Errorf("project %s: %s; nothing was written", sanitize.Line(project), sanitize.Line(p.Blocked)), "tp acts verify --project "+sanitize.Line(project)+" shows the details")
	}
	_, signerHeld := p.Holds(signer.PublicKey())
	if !first && !signerHeld {
		return nil, fmt.Errorf("key %s is not a principal of project %s: only a principal can change the principals", sshsign.Fingerprint(signer.PublicKey()), project)
	}
	_, held := p.Holds(key)
	switch {
	case first:
	case typ == PrincipalAdded && held && p.Mismatch != "":
		// Nothing to add: a principal asks for the file to be rewritten
		// from the signed changes (the repair of a hand-edited file).
		return l.WriteSigners(project)
	case typ == PrincipalAdded && held:
		return nil, fmt.Errorf("key %s is already a principal of project %s", sshsign.Fingerprint(key), project)
	case typ == PrincipalRemoved && !held:
		return nil, fmt.Errorf("key %s is not a principal of project %s", sshsign.Fingerprint(key), project)
	case typ == PrincipalRemoved && len(p.Chain) == 1:
		return nil, fmt.Errorf("key %s is the last principal of project %s: add another first (a project never goes back to unsigned)", sshsign.Fingerprint(key), project)
	}
	c := PrincipalChange{PH: "0.3", Ext: PrincipalExt, Type: typ, By: by, Project: project, TS: now, Seq: 1,
		Principal: name, PublicKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))), Reason: reason}
	if first {
		c.ProjectID = NewProjectID()
		// Adoption vouches for unsigned settlements the registrar applied
		// before the project had a principal. With a trust store the
		// registrar applies none (headless never adopts, D19), so the only
		// witness would be acked/, which any agent or clone writes: a
		// planted settlement would be signed into trust unseen. Only the
		// log judged without a trust store (the spec's fixtures) adopts.
		if l.Trust == nil {
			if c.Adopts, err = l.unsignedPrincipalSide(project); err != nil {
				return nil, err
			}
		}
	} else {
		last := p.Changes[len(p.Changes)-1]
		c.ProjectID, c.Prev, c.Seq = p.ProjectID, p.Head, last.Seq+1
	}
	ts := strings.NewReplacer("-", "", ":", "", "T", "", "Z", "").Replace(now)
	c.ID = "p:" + ts + "-" + nonce
	msg, err := ojson.MarshalCanonical(c)
	if err != nil {
		return nil, err
	}
	if c.Sig, err = sshsign.Sign(signer, acts.SigNamespace, msg); err != nil {
		return nil, err
	}
	data, err := ojson.MarshalCanonical(c)
	if err != nil {
		return nil, err
	}
	if first && l.Trust != nil {
		when, err := time.Parse(time.RFC3339, now)
		if err != nil {
			when = time.Now()
		}
		if err := l.TrustRoot(project, c.ProjectID, name, key, when); err != nil {
			return nil, err
		}
	}
	dir := l.PrincipalsDir(project)
	if err := l.mkdirInside(dir); err != nil {
		return nil, fmt.Errorf("principals: %w", err)
	}
	if err := durable.CreateExclusive(filepath.Join(dir, EncodeName(c.ID)+".json"), data, 0o644, nil); err != nil {
		return nil, fmt.Errorf("principals: writing change %s: %w", c.ID, err)
	}
	return l.WriteSigners(project)
}

// NewProjectID is a new random project identity: 16 bytes in hex.
func NewProjectID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// WriteSigners rewrites allowed_signers from the signed changes (the
// repair when the two disagree) and returns the principals after.
func (l *Log) WriteSigners(project string) (*Principals, error) {
	p, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("# The principals of this project (tp acts principal list). Written by tp from\n# the signed changes in principals/; edit with tp acts principal add|remove.\n")
	for _, pr := range p.Chain {
		b.WriteString(sshsign.Line(pr.Name, acts.SigNamespace, pr.Key, ""))
		b.WriteByte('\n')
	}
	if err := durable.WriteFile(p.Path, []byte(b.String()), 0o644); err != nil {
		return nil, fmt.Errorf("principals: writing %s: %w", p.Path, err)
	}
	return l.LoadPrincipals(project)
}

// unsignedPrincipalSide lists the project's principal-side records that
// carry no signature and that the registrar has applied, as "<id> <sha256
// of the file>", for the first principal to adopt.
func (l *Log) unsignedPrincipalSide(project string) ([]string, error) {
	acked, _, err := l.loadAcked(project)
	if err != nil {
		return nil, err
	}
	dir := l.RecordsDir(project)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("record log: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") || durable.IsTemp(e.Name()) {
			continue
		}
		raw, err := ReadLimited(filepath.Join(dir, e.Name()), MaxRecordFile)
		if err != nil {
			continue
		}
		r, err := acts.DecodeRecord(raw)
		if err != nil || r.Project != project || EncodeName(r.ID)+".json" != e.Name() || !acts.PrincipalSide(r) || r.Sig != "" || !acked[r.ID] {
			continue
		}
		out = append(out, r.ID+" "+fileDigest(raw))
	}
	sort.Strings(out)
	return out, nil
}

func fileDigest(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}
