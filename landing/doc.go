// Package landing holds the jobs over the passport store, one
// implementation each for the command line, the terminal UI and the MCP
// server: land a handoff, merge a receipt, and build a pack from a stored
// passport, answer asks and attest checks (TaskPack 0.1 §3.1, §4.2–§4.5;
// docs/architecture.md, jobs 1–4; D6, D10, D12, D13).
//
//	p, _ := pack.Open(file, pack.Options{})                  // verified, repaired leniently
//	plan, err := landing.PlanLanding(ctx, p, store, env)     // a handoff: nothing written
//	plan.Decide(d)                                           // optional: show decisions in the plan
//	landed, err := landing.Land(ctx, p, plan, store, d)      // new passport, luggage, saved last
//
//	plan, err := landing.PlanMerge(ctx, p, store, into, env) // a receipt: plan.Merge previews
//	merged, err := landing.Merge(ctx, p, plan, store, d)     // expected-version save
//
//	rep, err := landing.Receive(ctx, store, landing.ReceiveRequest{...}) // open, plan, land or merge: no person between
//
//	rep, err := landing.Pack(ctx, store, landing.PackRequest{...}) // build, write, record the asks, rename
//	rep, err := landing.EditAsks(ctx, store, landing.AsksRequest{...})     // answers and drops, one save
//	rep, err := landing.EditChecks(ctx, store, landing.ChecksRequest{...}) // statuses and runs, one save
//
// Every job takes a context.Context first; Land and Merge honour it while
// the luggage is written: a cancelled or failed landing leaves no passport
// and no files folder.
//
// Everything in a Plan that came from the pack is the pack's own text:
// render it through internal/sanitize and quote it as the sender's. Nothing
// here runs a landing check's how (D12); a UI that offers to run one does so
// itself, after the person confirms, and records the result with
// Decisions.CheckStatus (or store.SetCheck later).
//
// The format itself (reading, writing, sealing, refusals, limits) is
// package pack, which knows nothing of the store.
package landing
