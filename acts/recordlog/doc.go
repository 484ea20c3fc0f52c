// Package recordlog is tp's transport for Principal Handoff: Acts 0.3 —
// the record log (D9): the records the registrar sends and the principal
// side writes, one file per record under <acts dir>/<project>/records,
// read with a cache of records already validated, written with a durable
// temp-and-rename, and acknowledged in acked/.
//
// It also holds what makes the principal side's records trustworthy there
// (Acts 0.3 §10, D19 revised in issue 15):
//
//   - the principals of a project as an append-only, hash-linked chain of
//     signed changes in principals/, rooted at a key this machine's person
//     trusts (internal/trust), with rollback and forks refused
//     ([Log.LoadPrincipals], [Log.ChangePrincipal], [Log.Resolve]);
//   - the verification of every principal-side record in the same pass
//     that reads the files ([Log.Load]: [Loaded.Rejected]), and the tamper
//     evidence for applied records gone or no longer trusted
//     ([Loaded.Vanished], [Loaded.Withheld]);
//   - writing as the principal ([WriteAsPrincipal]), the locks
//     (lockedfile), and no link followed, no file read past its limit.
//
// It runs no git and watches no file: the jobs over it (sync, watch, the
// session's pull and push) are package actsession's.
package recordlog
