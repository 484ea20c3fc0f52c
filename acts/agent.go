package acts

import (
	"fmt"
	"strings"
)

// The agent's side of the binding: the records an agent may write. The acts
// session (package actsession) finds the act, builds the record with these,
// writes it and reads the act again, for the command line and the MCP
// server alike. Nothing here builds a settled, reopened or principal note:
// only the principal settles (§10, D19).

// BuildAgentNote returns a note about the act from an agent (§3: a note may
// have any origin; it never changes the act's state, I2).
func BuildAgentNote(st *ActState, s Sender, text string) (Record, error) {
	if strings.TrimSpace(text) == "" {
		return Record{}, fmt.Errorf("a note needs text")
	}
	if err := RefuseCredentials("note", text); err != nil {
		return Record{}, err
	}
	r := s.base(st, TypeNote, "agent", "n")
	r.About = &About{Key: st.Key}
	r.Text = text
	return r, nil
}
