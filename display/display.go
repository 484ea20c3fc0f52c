// Package display is the one way untrusted text reaches a person's screen
// (D11, issue 17): the TUI's components, the Markdown renderer and every
// plain printer of cmd/tp call it, so what one shows the others show.
//
// Text from a pack, a record, a state document or a store is data. Display
// does three things to it, in this order:
//
//  1. credentials found by the one pattern table (D5, pack/scan) are cut to
//     the few bytes an excerpt shows and marked "⟨credential-like (rule), not
//     shown⟩", so a secret never reaches a terminal, its scrollback or a CI
//     log, and the screen says that something was left out;
//  2. terminal controls, bidi controls and default-ignorable code points are
//     made visible (internal/sanitize), so "run\u200b.sh" does not print as
//     "run.sh";
//  3. Line keeps the text on one line (\n, \t shown); Text keeps its lines.
//
// It does not protect against lookalike letters (Cyrillic "а" for Latin
// "a"): those are visible characters, and a person reading them sees what
// the sender wrote.
package display

import (
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/pack/scan"
)

// Mark is what stands where a credential was left out.
func Mark(rule string) string { return "⟨credential-like (" + rule + "), not shown⟩" }

// Redact cuts every credential in s (D5) and marks it; the text around is
// kept. The result is still untrusted: use Line or Text to show it.
func Redact(s string) string { return scan.Redact(s, Mark) }

// Line is untrusted text as one safe line: credentials redacted, controls and
// invisible characters visible, newlines and tabs shown as \n and \t.
func Line(s string) string { return sanitize.Line(Redact(s)) }

// Text is untrusted text made safe with its lines kept.
func Text(s string) string { return sanitize.Text(Redact(s)) }

// JSON makes a JSON document safe for a terminal and still the same JSON
// (sanitize.JSON). It does not redact: a JSON document is read by programs,
// which get the values as stored.
func JSON(b []byte) []byte { return sanitize.JSON(b) }
