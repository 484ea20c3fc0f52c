package scan

// Helpers only tests call, kept out of the binary.

import (
	"slices"
)

// CredentialRules lists the credential shapes' rule ids, in table order.
func CredentialRules() []string {
	var out []string
	for _, r := range credRules {
		if !slices.Contains(out, r.id) {
			out = append(out, r.id)
		}
	}
	return out
}
