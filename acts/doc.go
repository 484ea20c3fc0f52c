// Package acts implements Principal Handoff: Acts 0.3
// (docs/specs.md) headless and without I/O: the Markdown binding, key
// derivation, records and their lifecycle, signing and verifying a record,
// and the registrar's steps as pure functions.
//
//   - Profiles (§5.1, §5.6, §5.7; D7): the concrete strings of the
//     binding, en and zh-hant, as data. See [ProfileByName].
//   - The reader (§5.2–§5.4; D16): [Parse] finds the tasks section and
//     classifies every line; [Lint] lists what a person must fix.
//   - Keys (§6): [Normalise], [DeriveKey], [ValidKey], and an optional
//     keyed derivation (HMAC-SHA256 with a registrar secret, §10).
//   - Records (§3; D8): their JSON Schemas and a strict reader
//     ([DecodeRecord], [EncodeRecord]), the lifecycle of an act
//     ([Lifecycle], [States]), the principal's and agents' records
//     ([BuildSettle], [BuildClaim], …), and a principal-side record's
//     SSH signature bound to the project's identity (§10, D19:
//     [SignRecord], [VerifyRecord]).
//   - The registrar (§4, §5.5): [Run] is a pure function from a document and
//     the acts' states to a new document, the records to send and warnings;
//     [Steps] exposes the steps one at a time for the fixture runner. The
//     rewrite similarity measure of §4 step 5 is documented at [Similar].
//
// What is not here, and where it is: the transport the spec leaves open
// (§4: "after the transport accepts it") is tp's record log, one file per
// record with its cache, locks, the principals' hash-linked chain, the
// trust store's use and the verification of every principal-side record,
// in package acts/recordlog (D9, D19); the registrar job that reads a
// document, runs [Run] and writes the result durably, and the watch of
// the log, are package actsession's Sync and Watch, beside the other jobs
// (D20's git included); the fixture runner is acts/conformance. This
// package reads no file: its schemas are embedded, and the only input it
// takes is bytes and values (internal/layering keeps the log, git and file
// watching out of it).
//
// Whitespace everywhere in the binding (trailing-whitespace removal,
// trimming, normalisation, \s in patterns) means Unicode White_Space, the
// set §6.1 names (D16). Go's regexp \s is ASCII only, so profile patterns are
// translated before they are compiled.
package acts
