// Package acts implements Principal Handoff: Acts 0.3
// (docs/specs.md) headless: the Markdown binding, key
// derivation, records and their lifecycle, the registrar and the record log.
//
// The Markdown side and the registrar are:
//
//   - Profiles (§5.1, §5.6, §5.7; D7): the concrete strings of the
//     binding, en and zh-hant, as data. See [ProfileByName].
//   - The reader (§5.2–§5.4; D16): [Parse] finds the tasks section and
//     classifies every line; [Lint] lists what a person must fix.
//   - Keys (§6): [Normalise], [DeriveKey], [ValidKey], and an optional
//     keyed derivation (HMAC-SHA256 with a registrar secret, §10).
//   - The registrar (§4, §5.5): [Run] is a pure function from a document and
//     the log's state to a new document, the records to send and warnings.
//     [Sync] is the whole registrar job every front end calls (a
//     [SyncRequest] in, a [SyncReport] out): it sends first (one batch),
//     writes the document only after every send succeeded, commits it when
//     asked, and acknowledges applied settlements only after the write is
//     durable, so a crash at any point repeats safely.
//     The rewrite similarity measure of §4 step 5 is documented at [Similar].
//   - The fixture runner: [RunConformance] runs the fixture files described
//     in docs/acts-fixtures.md.
//
// Whitespace everywhere in the binding (trailing-whitespace removal,
// trimming, normalisation, \s in patterns) means Unicode White_Space, the
// set §6.1 names (D16). Go's regexp \s is ASCII only, so profile patterns are
// translated before they are compiled.
package acts
