package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/mcp"
)

func newMCPCmd(io *IO, g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the Model Context Protocol on stdio, for agents",
		Long: `Serve tp to an agent over the Model Context Protocol on stdin/stdout
(protocol versions 2025-06-18, 2025-03-26, 2024-11-05; D18).

The seven task-passport tools keep the reference's names and arguments
(task_passport_list, _open, _new, _checkpoint, _pack, _land, _conformance);
tp's own tools cover asks, landing checks (report only), receipts and acts
(sync, list, declare, claim, withdraw, note, wait). Every tool is typed: its
arguments are checked against its input schema and its result has an output
schema. The prompts resume_passport and land_pack, and every passport as a
resource (passport://TP-…), are there for clients that show them. No tool
runs a sender's how, restores a sealed ✓, or settles, reopens or amends an
act as its principal.

The store and the acts folder come from --store/--acts-dir and the same
environment as every command (TP_STORE, TASK_PASSPORT_STORE, TP_ACTS). With
the acts folder in git (D20) the acts tools pull before they read and commit
and push what they write, as tp acts does; --offline skips both.
Diagnostics go to stderr; stdout carries only the protocol.

Register it with an MCP client, for example:
  claude mcp add tp -- tp mcp --store ~/passports`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMCP(cmd.Context(), io, g, "mcp")
		},
	}
	cmd.Flags().BoolVar(&g.offline, "offline", false, "when the acts dir is a git repository: do not pull or push (D20)")
	return cmd
}

// runMCP serves until the client closes stdin.
func runMCP(ctx context.Context, io *IO, g *globalOpts, harness string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	st, err := openStore(io, g)
	if err != nil {
		return err
	}
	actsDir := g.actsDir
	if actsDir == "" {
		actsDir, _ = recordlog.DefaultActsDir(io.Env) // the acts tools say so when there is none
	}
	srv := mcp.New(mcp.Config{Store: st, ActsDir: actsDir, Offline: g.offline, Env: io.Env, Version: version, Harness: harness, Log: io.Err})
	return srv.Run(ctx, readCloser{io.In}, writeCloser{io.Out})
}

type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }
