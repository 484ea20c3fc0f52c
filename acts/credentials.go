package acts

import (
	"fmt"

	"github.com/tp-dev/tp/pack/scan"
)

// CredentialError is text refused because it holds what D5's table
// recognises as a credential: a record is committed, pushed and kept for
// good, so a secret never goes into one. Nothing was written.
type CredentialError struct {
	Field string // note, basis, reason, commit message…
	Rule  string // the table's rule that fired
}

func (e *CredentialError) Error() string {
	return fmt.Sprintf("%s refused: it looks like a credential (%s); a secret never goes into an act's record (D5): nothing was written", e.Field, e.Rule)
}

// RefuseCredentials is a *CredentialError when text holds a credential by
// D5's one table (the table packs are refused by), else nil. Every record
// builder that takes free text calls it, so the command line and the MCP
// server refuse the same thing.
func RefuseCredentials(field, text string) error {
	if f := scan.Credentials(text); len(f) > 0 {
		return &CredentialError{Field: field, Rule: f[0].Rule}
	}
	return nil
}

// SettledError is an agent's claim or withdrawal on an act the principal
// has settled: there is nothing left to claim or withdraw (Acts 0.3 §2).
type SettledError struct {
	Key, Outcome, What string
}

func (e *SettledError) Error() string {
	return fmt.Sprintf("act %s is settled (%s): a %s is refused; only the principal reopens it (Acts 0.3 §10)", e.Key, e.Outcome, e.What)
}
