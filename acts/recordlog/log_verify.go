package recordlog

import (
	"fmt"

	"github.com/tp-dev/tp/internal/sanitize"
)

// Rejected is a principal-side record of a project with principals whose
// signature did not verify: kept in the log, reported, never applied.
type Rejected struct {
	Path string `json:"path"`
	ID   string `json:"id"`
	Type string `json:"type"`
	Key  string `json:"key"`
	Why  string `json:"why"`
}

// Sanitized is r made safe for a terminal (D11).
func (r Rejected) Sanitized() Rejected {
	return Rejected{Path: sanitize.Line(r.Path), ID: sanitize.Line(r.ID), Type: sanitize.Line(r.Type), Key: sanitize.Line(r.Key), Why: sanitize.Line(r.Why)}
}

// SigningWarnings says, for a report, why a project's principal-side
// records may not be what they claim: no principal (unauthenticated, D19),
// or principal changes and allowed_signers lines that were not trusted.
func (ld *Loaded) SigningWarnings() []string {
	if why := ld.Principals.Refusal(); why != "" && ld.Principals.Mismatch == "" {
		out := []string{sanitize.Line(why)}
		for _, p := range ld.Principals.Problems {
			out = append(out, sanitize.Line(p))
		}
		return out
	}
	if ld.Unauthenticated() {
		return []string{fmt.Sprintf("project %s has no principal: its settlements are unauthenticated (anyone who can write a record can settle); the next tp acts settle registers your SSH key as its principal", sanitize.Line(ld.Project))}
	}
	var out []string
	for _, p := range ld.Principals.Problems {
		out = append(out, sanitize.Line(p))
	}
	return out
}

func (r Rejected) String() string {
	return fmt.Sprintf("%s: %s %s (%s) not applied: %s", r.Path, r.Type, r.ID, r.Key, r.Why)
}
