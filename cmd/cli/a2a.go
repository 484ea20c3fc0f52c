package cli

import (
	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/pack"
)

// DefaultA2AListen is where tp a2a serve listens unless told otherwise:
// loopback only (D23).
const DefaultA2AListen = "127.0.0.1:8421"

func newA2ACmd(io *IO, g *globalOpts) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "a2a",
		Short: "The A2A binding (TaskPack 0.1 §5): agent card, Task export/import, serve",
		Long: `tp speaks A2A 0.3 (TaskPack 0.1 §5, D23): a pack is an A2A Task whose id is
lineage.root_id and whose contextId is lineage.chain, the pack itself its
"taskpack" artifact.

  tp a2a card            the Agent Card's extension entry for TaskPack
  tp a2a export FILE     print a pack as an A2A Task (JSON)
  tp a2a import TASK     write the pack a Task carries, byte for byte
  tp a2a serve           be the person's A2A agent: packs sent to it wait in
                         the store's incoming folder for tp land`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newA2ACardCmd(io, g), newA2AExportCmd(io, g), newA2AImportCmd(io, g), newA2AServeCmd(io, g))
	return cmd
}

func newA2ACardCmd(io *IO, g *globalOpts) *cobra.Command {
	var o A2AOptions
	cmd := &cobra.Command{
		Use:   "card",
		Short: "Print the AgentExtension entry for an Agent Card",
		Long: `Print the TaskPack extension's entry for an A2A Agent Card's
capabilities.extensions (TaskPack 0.1 §5): its URI, that it is not required,
and what tp takes — both encodings, their media types and file extensions,
the inline attachment limit and the largest pack a message may carry.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runA2A(cmd, "card", io, g, args, &o)
		},
	}
	cmd.Flags().Int64Var(&o.MaxPack, "max-pack-bytes", DefaultA2AMaxPackBytes, "the largest pack a message may carry")
	return markFull(cmd, needsFullAlways)
}

func newA2AExportCmd(io *IO, g *globalOpts) *cobra.Command {
	var o A2AOptions
	cmd := &cobra.Command{
		Use:   "export FILE",
		Short: "Print a pack as an A2A Task",
		Long: `Print the pack as an A2A 0.3 Task (kind task, D23): id = lineage.root_id,
contextId = the chain's string form, the pack file itself as the "taskpack"
artifact (a FilePart with its bytes and media type), each luggage file and
each passport.artifacts entry as an artifact, no history, and the extension's
data — kind, asks with accept, landing checks, facts with scope and seal, the
receiver verdict — in metadata under the extension URI. status.state is the
receiver verdict: input-required while checks or asks are open.`,
		Example: `  tp a2a export handoff.taskpack > task.json`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runA2A(cmd, "export", io, g, args, &o)
		},
	}
	cmd.Flags().Int64Var(&o.MaxPack, "max-pack-bytes", DefaultA2AMaxPackBytes, "the largest pack a Task carries inline")
	cmd.Flags().Int64Var(&o.MaxPassport, "max-passport-bytes", pack.DefaultLimits().MaxCanonical, "refuse a pack whose canonical passport.json (D1) would be larger (D10)")
	return markFull(cmd, needsFullAlways)
}

func newA2AImportCmd(io *IO, g *globalOpts) *cobra.Command {
	var o A2AOptions
	cmd := &cobra.Command{
		Use:   "import TASK.json [--out FILE]",
		Short: "Write the pack an A2A Task carries",
		Long: `Write the pack carried by a Task's TaskPack artifact byte for byte (D23): the
artifact "taskpack", else the one file part of a TaskPack media type or file
name. The bytes are checked as a pack (every D10 limit and refusal) before
the file appears; an existing file is never replaced. A Task with no TaskPack
artifact is refused, naming what is missing. The Task's messages are never
turned into pack content.

Without --out the pack is written in the current folder, named after the
artifact's file name (or the task id), with its encoding's extension.`,
		Example: `  tp a2a import task.json --out handoff.taskpack`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runA2A(cmd, "import", io, g, args, &o)
		},
	}
	cmd.Flags().StringVar(&o.Out, "out", "", "the pack file to write (default: named after the artifact, in the current folder)")
	cmd.Flags().Int64Var(&o.MaxPack, "max-pack-bytes", DefaultA2AMaxPackBytes, "the largest pack to take from a Task")
	return markFull(cmd, needsFullAlways)
}

func newA2AServeCmd(io *IO, g *globalOpts) *cobra.Command {
	var o A2AOptions
	cmd := &cobra.Command{
		Use:   "serve [--listen 127.0.0.1:PORT] [--token-file FILE]",
		Short: "Be the person's A2A agent: packs sent to it wait for tp land",
		Long: `Serve A2A 0.3 JSON-RPC and the Agent Card (/.well-known/agent-card.json),
declaring the TaskPack extension (D23). An agent that needs you sends a pack
with message/send (a FilePart holding a .taskpack or .taskpack.json, or a
DataPart holding a Task from tp a2a export). The pack is checked under every
D10 limit and refusal and kept in <store>/incoming/ — never landed, never
run — and the agent gets a Task in input-required. tp and tp --plain list it;
tp land lands it as any file. When you pack the receipt that answers it,
tasks/get returns the Task completed with the receipt as its artifact;
tasks/cancel marks the pack withdrawn (kept, never deleted). A message with
no pack is answered rejected: tp takes no instructions as messages (§4.5).

It listens on ` + DefaultA2AListen + ` (loopback). Any other address needs --listen
said explicitly and --token-file: the file's token (one line) is then
required as "Authorization: Bearer <token>" and declared in the card. There
is no TLS; beyond loopback, put it behind one. Stop it with ctrl+c.`,
		Example: `  tp a2a serve
  tp a2a serve --listen 0.0.0.0:8421 --token-file ~/.config/tp/a2a-token --url https://me.example/a2a/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runA2A(cmd, "serve", io, g, args, &o)
		},
	}
	cmd.Flags().StringVar(&o.Listen, "listen", "", "address to listen on (default "+DefaultA2AListen+"; beyond loopback needs --token-file)")
	cmd.Flags().StringVar(&o.TokenFile, "token-file", "", "a file holding the bearer token every JSON-RPC call must carry")
	cmd.Flags().StringVar(&o.URL, "url", "", "the JSON-RPC URL the Agent Card names (default http://ADDRESS/)")
	cmd.Flags().Int64Var(&o.MaxPack, "max-pack-bytes", DefaultA2AMaxPackBytes, "the largest pack a message may carry")
	return markFull(cmd, needsFullAlways)
}

// DefaultA2AMaxPackBytes is the largest pack an A2A message may carry by
// default: the A2A binding's DefaultMaxPackBytes (D23), said here so that
// tp's flags need not link the A2A SDK (D26; tp-full's test checks the two
// agree).
const DefaultA2AMaxPackBytes int64 = 64 << 20

// A2AOptions are the flags of tp a2a's commands.
type A2AOptions struct {
	MaxPack     int64  // --max-pack-bytes
	MaxPassport int64  // --max-passport-bytes (export)
	Out         string // --out (import)
	Listen      string // --listen (serve)
	TokenFile   string // --token-file (serve)
	URL         string // --url (serve)
}

// runA2A runs tp a2a NAME: tp-full's (D26).
func runA2A(cmd *cobra.Command, name string, io *IO, g *globalOpts, args []string, o *A2AOptions) error {
	if io.Servers == nil || io.Servers.A2A == nil {
		return errNoFull(cmd.CommandPath())
	}
	return io.Servers.A2A(name, io, g, args, o)
}
