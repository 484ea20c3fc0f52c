// Package scan is the one pattern table of D5 and D13: the
// credential shapes, the transcript shape, the instruction fields and the
// instruction-like sentences that TaskPack 0.1 talks about.
//
// Three callers use it and must never disagree:
//
//   - the pack writer's refusals (spec §4.1: a pack MUST NOT be produced that
//     carries credentials or a chat transcript; §4.5.1: no instruction fields),
//   - conformance C7 ("no credentials, in any field of the pack object or in
//     the luggage") and C8 ("no chat transcript"), which §6 says MUST use the
//     same patterns the implementation refuses to pack with — a judge that is
//     looser than the writer reports packs as conformant that no conformant
//     writer could have produced (D5),
//   - the landing plan's warnings (§4.5.2: every byte of a pack is untrusted
//     data; imperative sentences are reported to the human, never executed;
//     D13) and the pack writer's pre-flight warnings (vague accept, absolute
//     local paths).
//
// Object walks every string value and every key of a pack object. Credentials
// are searched in every byte, not a prefix: the luggage goes through a
// LuggageScanner (an io.Writer) that streams with bounded memory, keeps an
// overlap so a token split across two writes is still found, and finds
// candidates with a byte prefilter (IndexByte on a rare "pivot" byte of each
// token prefix) before confirming with a regexp only around the candidate, so
// gigabytes scan at disk speed.
//
// Findings are values, not prints. An Excerpt never holds a whole secret: a
// token is shown as its first four bytes and "…" (a URL password as "…"
// alone; a private key as its "-----BEGIN … PRIVATE KEY-----" header, a label
// that names the key type), and nothing after a credential is ever shown
// (what follows a key id may be its secret). Excerpts
// are still untrusted text: callers pass them through internal/sanitize before
// rendering (D11).
//
// The decisions taken here where the spec and docs/decisions.md are silent (which
// token shapes, their minimum lengths, the transcript threshold, the list of
// instruction fields) are written beside each table, with the reason.
package scan
