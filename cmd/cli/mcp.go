package cli

import (
	"context"

	"github.com/spf13/cobra"
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
			return runMCP(cmd.Context(), cmd.CommandPath(), io, g, "mcp")
		},
	}
	markFull(cmd, needsFullAlways)
	cmd.Flags().BoolVar(&g.offline, "offline", false, "when the acts dir is a git repository: do not pull or push (D20)")
	return cmd
}

// runMCP serves until the client closes stdin: tp-full's server (D26).
func runMCP(ctx context.Context, what string, io *IO, g *globalOpts, harness string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if io.Servers == nil || io.Servers.MCP == nil {
		return errNoFull(what)
	}
	return io.Servers.MCP(ctx, io, g, harness)
}
