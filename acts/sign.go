package acts

import (
	"errors"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sshsign"
	"golang.org/x/crypto/ssh"
)

// Only the principal settles (Acts 0.3 §10, D19). Principal-side
// records — origin "principal": settled, reopened, same_as relations, the
// principal's notes — carry an SSHSIG signature in their sig member, made
// with the principal's SSH key under the namespace "tp-acts" over the
// record's canonical bytes (D1) without sig. A project's principals are its
// allowed_signers file (see Principals); the log applies a principal-side
// record of a project with principals only when its signature verifies.

// SigNamespace is the SSHSIG namespace of every signature over acts records.
const SigNamespace = "tp-acts"

// SignedBy says who signed a record whose signature verified.
type SignedBy struct {
	Principal   string `json:"principal"`   // the name allowed_signers gives the key
	Fingerprint string `json:"fingerprint"` // SHA256:…
	// Adopted: the record is unsigned, from before the project had a
	// principal, and the first principal adopted it as it is.
	Adopted bool `json:"adopted,omitempty"`
}

// PrincipalSide reports whether a record speaks for the principal and so
// must be signed where the project has principals.
func PrincipalSide(r Record) bool { return r.Origin == "principal" }

// SignRecord signs r in place with s for the project with identity
// projectID: sig is the signature of BoundMessage(projectID, r's canonical
// bytes without sig).
func SignRecord(r *Record, s ssh.Signer, projectID string) error {
	if projectID == "" {
		return errors.New("signing a record needs the project's identity (its first principal change)")
	}
	r.Sig = ""
	msg, err := ojson.MarshalCanonical(r)
	if err != nil {
		return err
	}
	sig, err := sshsign.Sign(s, SigNamespace, BoundMessage(projectID, msg))
	if err != nil {
		return err
	}
	r.Sig = sig
	return nil
}

// BoundMessage is what a principal-side record's signature covers: the
// project's identity, then the record's canonical bytes without sig. The
// identity is random per project (its first principal change makes it), so
// a record copied into another acts folder, where the project of the same
// name has another identity, does not verify there (D19).
func BoundMessage(projectID string, canonical []byte) []byte {
	return append([]byte("tp-acts record for project "+projectID+"\n"), canonical...)
}

// SignedMessage returns what a record's signature covers — its canonical
// bytes (D1) without the sig member, unknown members kept in place — and
// the signature; sig is "" when the record has none.
func SignedMessage(raw []byte) (msg []byte, sig string, err error) {
	v, err := ojson.ParseStrict(raw)
	if err != nil {
		return nil, "", err
	}
	return signedMessage(v)
}

func signedMessage(v *ojson.Value) ([]byte, string, error) {
	if v.Kind() != ojson.Object {
		return nil, "", errors.New("a record is a JSON object")
	}
	s := v.Get("sig")
	if s == nil {
		return ojson.Canonical(v), "", nil
	}
	sig, ok := s.Str()
	if !ok {
		return nil, "", errors.New("sig is not a string")
	}
	c := v.Clone()
	c.Obj().Delete("sig")
	return ojson.Canonical(c), sig, nil
}

// VerifyRecord checks the signature of one record's bytes against allowed.
// The error says why it failed, in words for the person: unsigned, signed
// by a key that is not a principal, or bytes that do not match.
func VerifyRecord(allowed *sshsign.AllowedSigners, projectID string, raw []byte) (*SignedBy, error) {
	msg, sig, err := SignedMessage(raw)
	if err != nil {
		return nil, err
	}
	if sig == "" {
		return nil, errors.New("unsigned: the project has a principal, and only records signed by a principal are applied (§10)")
	}
	got, err := sshsign.Verify(allowed, SigNamespace, BoundMessage(projectID, msg), sig)
	if err != nil {
		return nil, err
	}
	return &SignedBy{Principal: got.Principal, Fingerprint: got.Fingerprint}, nil
}

// SignAll signs every principal-side record of rs in place.
func SignAll(rs []Record, s ssh.Signer, projectID string) error {
	for i := range rs {
		if PrincipalSide(rs[i]) {
			if err := SignRecord(&rs[i], s, projectID); err != nil {
				return err
			}
		}
	}
	return nil
}
