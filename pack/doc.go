// Package pack is TaskPack 0.1 the format: it reads, writes, judges and
// converts packs (docs/specs.md; our readings of the silent parts are
// D1–D5, D10, D13).
//
// Two encodings carry one model (§2):
//
//   - .taskpack: a ZIP holding a BagIt 1.0 bag (§2.1), laid out as D2 says
//     (bagit.txt, bag-info.txt, manifest-sha256.txt, tagmanifest-sha256.txt,
//     data/passport.json, data/files/...).
//   - .taskpack.json: one JSON object with inline attachments (§2.2), each
//     "utf8" or "base64" with its own "sha256" and "bytes".
//
// The retired .tpx/0.1 flat shape is read and never written (§8).
//
// Open sniffs the encoding from the bytes, streams every entry, verifies the
// manifests, and refuses hostile input (D10) with an *Error naming the file,
// the entry and the rule. Reading is lenient unless Options.Strict: every
// repair it makes (sealing a fact that arrived verified, §4.2; defaults for
// ask and check ids; a BOM; a non-canonical data/passport.json) is listed in
// Pack.Repairs, because judging must never benefit from them (§6 C0, D4).
//
// Write seals machine-scoped facts (Seal, §4.2), refuses credentials,
// transcripts, instruction fields and asks without accept (Refusals, §4.1,
// §4.3, §4.5, D5, D13), then writes atomically. Conformance runs C0–C10
// (§6, D3, D4) reading strictly. Convert turns one encoding into the other.
//
// The jobs over the passport store (land, merge, build a pack from a
// passport) are package landing; this package knows no store.
//
// Luggage is never held in memory: bags are read through the ZIP central
// directory and written as a stream; flat attachments are decoded straight
// from the file at the offset of their "data" string.
package pack
