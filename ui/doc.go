// Package ui is tp's terminal interface: one bubbletea model per job — the
// home screen, the landing walkthrough (TaskPack 0.1 §3–§4.5), the receipt
// merge (§4.4.1), answering asks (§4.3) and the principal's inbox (Acts 0.3
// §2–§3).
//
// No rule of the specifications lives here. Every decision — what a plan
// holds, which facts are sealed, where a receipt goes, what record a
// settlement writes — is made by the core (landing, internal/store, acts)
// behind the small interfaces in ui/common (deps.go); the screens only ask
// the person and show the answer. Every piece of untrusted text is passed
// through internal/sanitize before it reaches the terminal (D11), including
// the Markdown ui/markdown draws. A landing check's `how` runs only through
// internal/howrun, only after the confirmation dialog in
// ui/landing/howdialog.go (D12).
//
// Screens do no I/O in Init, Update or View: core calls run inside tea.Cmds
// and come back as the exported *Msg types declared beside each screen. Only
// cmd/tp builds a tea.Program.
package ui
