package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sshsign"
)

// A signed pack (D22, beyond TaskPack 0.1): an SSHSIG signature, namespace
// SignatureNamespace, over the pack's content identity (ContentIdentity).
// It is the extension tag file TagSignature (D3): in a bag the tag file,
// listed in tagmanifest-sha256.txt; in the flat form the top-level member
// FlatSignature. The identity is the same in both encodings, so one
// signature serves both and tp convert carries it.
const SignatureNamespace = "taskpack"

// RuleSignature is a pack whose signature does not verify over its content
// (D22): the content was changed after signing, or the signature is not one.
const RuleSignature = "D22 signature"

// ContentIdentity is the bytes a pack signature covers (D22) and whose
// sha256 is the pack's content_sha256: the sha256 of the pack object in its
// D1 canonical form, then every luggage file sorted by name (bytewise), as
//
//	taskpack-content/1\n
//	object <sha256 of the canonical object>\n
//	<bytes in name>:<name> <sha256> <size>\n   (one line per luggage file)
//
// The name's length in bytes comes first, so a name holding a space or a
// newline cannot be read as two entries.
func ContentIdentity(object []byte, luggage []Luggage) []byte {
	sum := sha256.Sum256(object)
	return identity(hex.EncodeToString(sum[:]), luggage)
}

// ContentSHA256Of is ContentSHA256 for an object known by its sha256 (hex).
func ContentSHA256Of(objectSHA256 string, luggage []Luggage) string {
	sum := sha256.Sum256(identity(objectSHA256, luggage))
	return hex.EncodeToString(sum[:])
}

func identity(objectSHA256 string, luggage []Luggage) []byte {
	ls := append([]Luggage(nil), luggage...)
	sort.Slice(ls, func(i, j int) bool { return ls[i].Name < ls[j].Name })
	var b bytes.Buffer
	b.WriteString("taskpack-content/1\nobject ")
	b.WriteString(objectSHA256)
	b.WriteByte('\n')
	for _, l := range ls {
		b.WriteString(strconv.Itoa(len(l.Name)))
		b.WriteByte(':')
		b.WriteString(l.Name)
		b.WriteByte(' ')
		b.WriteString(l.SHA256)
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(l.Size, 10))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// ContentSHA256 is the sha256 (hex) of ContentIdentity: what the pack is,
// the same in both encodings.
func ContentSHA256(object []byte, luggage []Luggage) string {
	sum := sha256.Sum256(ContentIdentity(object, luggage))
	return hex.EncodeToString(sum[:])
}

// Signature is a pack signature that verified over the pack's content
// identity against the key it names. It says that the holder of Key signed
// this content; whether Key is someone the receiver trusts is the trust
// store's question, never this package's.
type Signature struct {
	Armored     string        `json:"-"`
	Key         ssh.PublicKey `json:"-"`
	Fingerprint string        `json:"fingerprint"` // SHA256:…
	KeyType     string        `json:"key_type"`
	// AuthorizedKey is the key as one authorized_keys line, without comment.
	AuthorizedKey string `json:"public_key"`
}

func newSignature(armored string, key ssh.PublicKey) *Signature {
	return &Signature{Armored: armored, Key: key, Fingerprint: sshsign.Fingerprint(key), KeyType: key.Type(),
		AuthorizedKey: string(bytes.TrimSpace(ssh.MarshalAuthorizedKey(key)))}
}

// Signature states as conformance reports them (beside C0–C10, never one
// of them: a signature is an extension, D22).
const (
	SigUnsigned = "unsigned"
	SigValid    = "signed"
	SigInvalid  = "invalid"
)

// SignatureStatus is what a pack's signature says, as conformance reports
// it: unsigned, signed (Signature is set), or invalid (Reason says why).
type SignatureStatus struct {
	State     string     `json:"state"`
	Signature *Signature `json:"signer,omitempty"`
	Reason    string     `json:"reason,omitempty"`
}

// rawSignature is the signature the file carries, if any (the bag's tag
// file or the flat form's member; where names it).
func (l *loaded) rawSignature() (armored, where string, present bool) {
	where = TagSignature
	if l.enc != EncodingBag {
		where = FlatSignature
	}
	b, ok := l.extensionTags()[TagSignature]
	return string(b), where, ok
}

// luggageSums is the luggage as the pack vouches for it: each file's
// declared digest, or the digest of its bytes where a flat attachment
// declared none.
func (l *loaded) luggageSums() []Luggage {
	out := make([]Luggage, 0, len(l.luggage))
	for _, e := range l.luggage {
		sum := e.declared
		if sum == "" {
			sum = e.actual
		}
		out = append(out, Luggage{Name: e.name, Size: e.size, SHA256: sum})
	}
	return out
}

// signatureStatus verifies the signature the file carries over its content
// identity. Call it once the luggage digests are known (after verifyBag; a
// flat file knows them when loaded).
func (l *loaded) signatureStatus() SignatureStatus {
	armored, where, present := l.rawSignature()
	if !present {
		return SignatureStatus{State: SigUnsigned}
	}
	if l.obj == nil {
		return SignatureStatus{State: SigInvalid, Reason: "there is no pack object to verify it over"}
	}
	key, verr := sshsign.VerifyAny(SignatureNamespace, ContentIdentity(l.canonical(), l.luggageSums()), armored)
	if verr != nil {
		reason := verr.Error()
		var ve *sshsign.VerifyError
		if errors.As(verr, &ve) && ve.Mismatch {
			reason = fmt.Sprintf("the content was changed after %s signed it", ve.Fingerprint)
		}
		return SignatureStatus{State: SigInvalid, Reason: where + ": " + reason}
	}
	return SignatureStatus{State: SigValid, Signature: newSignature(armored, key)}
}

// canonical is the pack object as read, in D1 canonical form, built once.
func (l *loaded) canonical() []byte {
	if l.canon == nil && l.obj != nil {
		l.canon = ojson.Canonical(l.obj)
	}
	return l.canon
}
