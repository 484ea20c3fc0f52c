package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/tp-dev/tp/display"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/landing"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/taskpassport"
)

// The drop-in's pack and land: tp's jobs (landing.Pack, landing.Receive),
// the reference's flags and documents.

// dropInPack is `task-passport pack|export ID --out F [--flat] [--file P]…
// [--actor A] [--note N] [--ask "what|accept"]… [--check "check|how"]…
// [--asks F|-] [--checks F|-] [--kind receipt]`. Warnings go to stderr as
// the reference prints them ("⚠ …"); stdout is its pack document.
func dropInPack(a dropArgs, io *IO, st *store.Store) error {
	id, err := a.positional("passport id")
	if err != nil {
		return err
	}
	out := a.opt("--out")
	if out == "" {
		return errors.New("--out is required")
	}
	kind := model.KindHandoff
	switch k := a.opt("--kind"); k {
	case "", model.KindHandoff:
	case model.KindReceipt:
		kind = model.KindReceipt
	default:
		return fmt.Errorf("--kind %q: handoff or receipt", k)
	}
	var asks, checks []*ojson.Value
	for _, s := range a.opts("--ask") {
		asks = append(asks, landing.ParseAsk(s))
	}
	if f := a.opt("--asks"); f != "" {
		more, err := readListArg(io, f)
		if err != nil {
			return err
		}
		asks = append(asks, more...)
	}
	for _, s := range a.opts("--check") {
		checks = append(checks, landing.ParseCheck(s))
	}
	if f := a.opt("--checks"); f != "" {
		more, err := readListArg(io, f)
		if err != nil {
			return err
		}
		checks = append(checks, more...)
	}
	enc := pack.EncodingBag
	if a.has("--flat") {
		enc = pack.EncodingFlat
	}
	files := a.opts("--file")
	rep, err := landing.Pack(context.Background(), st, landing.PackRequest{
		// The reference's pack replaces an existing --out; so does its
		// drop-in (a script written for it expects that).
		ID: id, Out: out, Encoding: enc, Replace: true,
		Build: landing.BuildOptions{
			Kind: kind, Files: files, Asks: asks, Checks: checks, Note: a.opt("--note"),
			Actor: store.Actor(a.opt("--actor"), io.Env), Machine: store.Machine(io.Env),
			// The reference packs a receipt from any passport; its drop-in
			// does too, and warns when it has no home (D6 homeless).
			HomelessReceipt: true,
		},
	})
	if rep != nil {
		for _, w := range rep.Warnings {
			fmt.Fprintf(io.Err, "⚠ %s\n", display.Line(w))
		}
	}
	if err != nil {
		return err
	}
	return writeJSON(io.Out, taskpassport.PackedOf(rep, out, files))
}

// dropInLand is `task-passport land|unpack|import FILE [--dry-run]
// [--files-out DIR] [--trust-machine-facts] [--again]`. A pack that is not
// a valid TaskPack is the reference's {"ok":false,"errors":[…]} on stdout
// with exit 1; other failures are its error document on stderr.
//
// --trust-machine-facts restores the ✓ of sealed facts that say they were
// verified on this very machine (tp's --trust-own-facts, TaskPack 0.1 §4.2,
// D14): a fact proven on the sender's machine stays sealed, whatever the
// flag is called.
func dropInLand(a dropArgs, io *IO, st *store.Store) error {
	file, err := a.positional("pack path")
	if err != nil {
		return err
	}
	// A file that cannot be read is the reference's error, not a finding
	// about a pack.
	if _, err := os.Stat(file); err != nil {
		return err
	}
	rep, err := landing.Receive(context.Background(), st, landing.ReceiveRequest{
		Path: file, DryRun: a.has("--dry-run"), Env: landEnv(io),
		Decisions: landing.Decisions{FilesOut: a.opt("--files-out"), TrustOwnFacts: a.has("--trust-machine-facts"), Again: a.has("--again")},
	})
	var pe *pack.Error
	if errors.As(err, &pe) && pe.Rule != landing.RuleAlreadyLanded {
		writeJSON(io.Out, struct {
			OK     bool     `json:"ok"`
			Errors []string `json:"errors"`
		}{false, []string{display.Line(err.Error())}})
		return silentExit(exitError)
	}
	if err != nil {
		return err
	}
	if rep.Landed == nil && rep.Merged == nil {
		return writeJSON(io.Out, taskpassport.LandedOf(rep, nil))
	}
	id := ""
	if rep.Landed != nil {
		id = rep.Landed.ID
	} else {
		id = rep.Merged.Target
	}
	saved, err := st.Get(id)
	if err != nil {
		return err
	}
	return writeJSON(io.Out, taskpassport.LandedOf(rep, saved))
}
