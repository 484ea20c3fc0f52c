package acts

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/tp-dev/tp/internal/sanitize"
)

// CheckProjectName is the one rule for a project's name (Acts 0.3 §6.1:
// the project is part of every key), applied by the core to every record
// it writes and every sync, whichever front end (tp acts, the inbox, tp
// mcp) names the project: one non-empty line, no slash or backslash, no
// control character (a newline would split the key's derivation, a commit
// message and every line that prints it), no surrounding white space.
func CheckProjectName(name string) error {
	bad := name == "" || strings.TrimSpace(name) != name || strings.ContainsAny(name, "/\\")
	for _, c := range name {
		if unicode.IsControl(c) || c == '\u2028' || c == '\u2029' {
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("project %q: a project name is one non-empty line without slashes, control characters or surrounding spaces (§6.1)", sanitize.Line(name))
	}
	return nil
}
