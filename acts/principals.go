package acts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/internal/sshsign"
	"golang.org/x/crypto/ssh"
)

// A project's principals (D19) live in two places that must agree:
//
//   - <project>/allowed_signers, OpenSSH's format, so `ssh-keygen -Y verify`
//     and git read it as they read any allowed_signers file;
//   - <project>/principals/, one signed change record per file: who was
//     added or removed, signed by a principal of the time. The first one,
//     made by the first settlement in a project without principals (trust
//     on first use), is signed by the key it adds.
//
// The log trusts allowed_signers only when it is exactly what the signed
// changes add up to; otherwise (the file edited by hand, or arriving through
// git without a signed change) no principal-side record is applied until the
// principal repairs it (`tp acts principal add|remove` rewrites the file
// from the changes).

// Principal change types.
const (
	PrincipalAdded   = "principal_added"
	PrincipalRemoved = "principal_removed"
	principalExt     = "tp-principals/0.1"
)

// PrincipalChange is one signed change of a project's principals.
type PrincipalChange struct {
	PH      string `json:"ph"`
	Ext     string `json:"ext"`
	ID      string `json:"id"`
	Type    string `json:"type"`
	By      string `json:"by"`
	Project string `json:"project"`
	TS      string `json:"ts"`
	// Seq orders the changes: one more than the last change its writer
	// saw (timestamps of one second cannot order them).
	Seq       int    `json:"seq"`
	Principal string `json:"principal"`
	PublicKey string `json:"public_key"` // authorized_keys form: "ssh-ed25519 AAAA…"
	// Adopts, on the first change only, lists the unsigned principal-side
	// records the registrar had already applied (acknowledged) when the
	// project got its principal ("<id> <sha256 of the file>"): they are in
	// the document already, from before there was anyone to sign them, and
	// stay trusted exactly as they are. Unsigned records not yet applied
	// are not adopted: from now on they are reported, never applied.
	Adopts []string `json:"adopts,omitempty"`
	Sig    string   `json:"sig,omitempty"`
}

// Principal is one principal of a project: a name and a key.
type Principal struct {
	Name string
	Key  ssh.PublicKey
}

// Fingerprint is the key's SHA256 fingerprint.
func (p Principal) Fingerprint() string { return sshsign.Fingerprint(p.Key) }

// Principals is what a project's principals are, as the log trusts them.
type Principals struct {
	Project string
	// Path of allowed_signers; Exists when the file is there.
	Path   string
	Exists bool
	// Allowed is the file as parsed; Chain what the signed changes add up
	// to, in the order they were added.
	Allowed *sshsign.AllowedSigners
	Chain   []Principal
	Changes []PrincipalChange // the changes that verified, in order
	// Problems are changes that did not verify and lines of the file that
	// were not trusted: reported, ignored.
	Problems []string
	// Mismatch, when set, is why the file and the changes disagree; the
	// log then applies no principal-side record (fail closed).
	Mismatch string
	// Adopted are the unsigned records the first change adopted, by id.
	Adopted map[string]Adoption
}

// Adoption is an unsigned record the first principal vouched for.
type Adoption struct {
	Digest string // SHA-256 of the record file, hex
	By     SignedBy
}

// Has reports whether the project has a principal at all: a project
// without one works unsigned (with a warning on every sync).
func (p *Principals) Has() bool { return p != nil && (p.Exists || len(p.Chain) > 0) }

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

// SignersPath is the project's allowed_signers file.
func (l *Log) SignersPath(project string) string {
	return filepath.Join(l.ProjectDir(project), "allowed_signers")
}

// PrincipalsDir holds the project's signed principal changes.
func (l *Log) PrincipalsDir(project string) string {
	return filepath.Join(l.ProjectDir(project), "principals")
}

// LoadPrincipals reads and checks a project's principals.
func (l *Log) LoadPrincipals(project string) (*Principals, error) {
	p := &Principals{Project: project, Path: l.SignersPath(project), Allowed: &sshsign.AllowedSigners{}}
	data, err := os.ReadFile(p.Path)
	switch {
	case err == nil:
		p.Exists = true
		p.Allowed = sshsign.ParseAllowedSigners(data)
		for _, pr := range p.Allowed.Problems {
			p.Problems = append(p.Problems, p.Path+": "+pr)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("principals: %w", err)
	}
	changes, probs, err := l.readChanges(project)
	if err != nil {
		return nil, err
	}
	p.Problems = append(p.Problems, probs...)
	p.walk(changes)
	p.compare()
	return p, nil
}

func (l *Log) readChanges(project string) ([]PrincipalChange, []string, error) {
	dir := l.PrincipalsDir(project)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("principals: %w", err)
	}
	var out []PrincipalChange
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
		raw, err := os.ReadFile(path)
		if err != nil {
			probs = append(probs, fmt.Sprintf("%s: unreadable: %v; ignored", path, err))
			continue
		}
		c, err := decodeChange(raw)
		if err == nil && c.Project != project {
			err = fmt.Errorf("for project %q", c.Project)
		}
		if err == nil && EncodeName(c.ID)+".json" != e.Name() {
			err = fmt.Errorf("holds change %q under another name", c.ID)
		}
		if err != nil {
			probs = append(probs, fmt.Sprintf("%s: %v; ignored", path, err))
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Seq != out[j].Seq {
			return out[i].Seq < out[j].Seq
		}
		if out[i].TS != out[j].TS {
			return out[i].TS < out[j].TS
		}
		return out[i].ID < out[j].ID
	})
	return out, probs, nil
}

func decodeChange(raw []byte) (PrincipalChange, error) {
	var c PrincipalChange
	v, err := ojson.ParseStrict(raw)
	if err != nil {
		return c, err
	}
	if err := v.Decode(&c); err != nil {
		return c, err
	}
	if c.PH != "0.3" || c.Ext != principalExt || (c.Type != PrincipalAdded && c.Type != PrincipalRemoved) || c.ID == "" || c.Seq < 1 || !sshsign.ValidPrincipal(c.Principal) {
		return c, errors.New("not a principal change tp wrote")
	}
	if _, _, _, _, err := ssh.ParseAuthorizedKey([]byte(c.PublicKey)); err != nil {
		return c, fmt.Errorf("public_key: %v", err)
	}
	return c, nil
}

// walk applies the changes in order; each must be signed by a principal of
// the time (the first addition: by the key it adds).
func (p *Principals) walk(changes []PrincipalChange) {
	for _, c := range changes {
		key, _, _, _, _ := ssh.ParseAuthorizedKey([]byte(c.PublicKey))
		signers := &sshsign.AllowedSigners{}
		for _, pr := range p.Chain {
			signers.Signers = append(signers.Signers, sshsign.AllowedSigner{Principals: []string{pr.Name}, Key: pr.Key})
		}
		if len(p.Chain) == 0 && c.Type == PrincipalAdded {
			signers.Signers = append(signers.Signers, sshsign.AllowedSigner{Principals: []string{c.Principal}, Key: key})
		}
		raw, _ := json.Marshal(c)
		if _, err := VerifyRecord(signers, raw); err != nil {
			p.Problems = append(p.Problems, fmt.Sprintf("principal change %s (%s %s): %v; ignored", c.ID, c.Type, c.Principal, err))
			continue
		}
		if len(p.Chain) == 0 && c.Type == PrincipalAdded {
			for _, a := range c.Adopts {
				if id, digest, ok := strings.Cut(a, " "); ok {
					if p.Adopted == nil {
						p.Adopted = map[string]Adoption{}
					}
					p.Adopted[id] = Adoption{Digest: digest, By: SignedBy{Principal: c.Principal, Fingerprint: sshsign.Fingerprint(key), Adopted: true}}
				}
			}
		}
		_, held := p.Holds(key)
		switch {
		case c.Type == PrincipalAdded && !held:
			p.Chain = append(p.Chain, Principal{Name: c.Principal, Key: key})
		case c.Type == PrincipalRemoved && held:
			kept := p.Chain[:0]
			for _, pr := range p.Chain {
				if !bytes.Equal(pr.Key.Marshal(), key.Marshal()) {
					kept = append(kept, pr)
				}
			}
			p.Chain = kept
		}
		p.Changes = append(p.Changes, c)
	}
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
		if !s.AllowsNamespace(SigNamespace) {
			continue
		}
		if _, ok := p.Holds(s.Key); !ok {
			extra = append(extra, fmt.Sprintf("line %d (%s)", s.Line, sshsign.Fingerprint(s.Key)))
		}
	}
	var missing []string
	for _, c := range p.Chain {
		if p.Allowed.Find(c.Key, SigNamespace) == nil {
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

// ChangePrincipal signs and writes a principal change, then rewrites
// allowed_signers from the changes. The signer must be a principal (or,
// for the first addition in a project without principals, the key being
// added: trust on first use). It returns the project's principals after.
func (l *Log) ChangePrincipal(project, typ, name string, key ssh.PublicKey, signer ssh.Signer, by, now, nonce string) (*Principals, error) {
	if !sshsign.ValidPrincipal(name) {
		return nil, fmt.Errorf("principal name %q: one word, no spaces, commas, quotes, '#' or wildcards", name)
	}
	p, err := l.LoadPrincipals(project)
	if err != nil {
		return nil, err
	}
	_, signerHeld := p.Holds(signer.PublicKey())
	first := len(p.Chain) == 0 && typ == PrincipalAdded && bytes.Equal(key.Marshal(), signer.PublicKey().Marshal())
	if !signerHeld && !first {
		if len(p.Chain) == 0 {
			return nil, fmt.Errorf("project %s has no principal yet: the first principal is added by signing with their own key", project)
		}
		return nil, fmt.Errorf("key %s is not a principal of project %s: only a principal can change the principals", sshsign.Fingerprint(signer.PublicKey()), project)
	}
	_, held := p.Holds(key)
	switch {
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
	seq := 0
	for _, ch := range p.Changes {
		seq = max(seq, ch.Seq)
	}
	c := PrincipalChange{PH: "0.3", Ext: principalExt, Type: typ, By: by, Project: project, TS: now, Seq: seq + 1,
		Principal: name, PublicKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))}
	ts := strings.NewReplacer("-", "", ":", "", "T", "", "Z", "").Replace(now)
	c.ID = "p:" + ts + "-" + nonce
	if first {
		if c.Adopts, err = l.unsignedPrincipalSide(project); err != nil {
			return nil, err
		}
	}
	msg, err := ojson.MarshalCanonical(c)
	if err != nil {
		return nil, err
	}
	if c.Sig, err = sshsign.Sign(signer, SigNamespace, msg); err != nil {
		return nil, err
	}
	data, err := ojson.MarshalCanonical(c)
	if err != nil {
		return nil, err
	}
	dir := l.PrincipalsDir(project)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("principals: %w", err)
	}
	if err := durable.CreateExclusive(filepath.Join(dir, EncodeName(c.ID)+".json"), data, 0o644, nil); err != nil {
		return nil, fmt.Errorf("principals: writing change %s: %w", c.ID, err)
	}
	return l.WriteSigners(project)
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
		b.WriteString(sshsign.Line(pr.Name, SigNamespace, pr.Key, ""))
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
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil || len(raw) > maxRecordFile {
			continue
		}
		r, err := DecodeRecord(raw)
		if err != nil || r.Project != project || EncodeName(r.ID)+".json" != e.Name() || !PrincipalSide(r) || r.Sig != "" || !acked[r.ID] {
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
