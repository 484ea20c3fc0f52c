package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	tpa2a "github.com/tp-dev/tp/a2a"
	"github.com/tp-dev/tp/a2a/server"
	"github.com/tp-dev/tp/internal/sanitize"
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
	cmd.AddCommand(newA2ACardCmd(io), newA2AExportCmd(io), newA2AImportCmd(io), newA2AServeCmd(io, g))
	return cmd
}

func printJSON(io *IO, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(io.Out, "%s\n", b)
	return err
}

func newA2ACardCmd(io *IO) *cobra.Command {
	var maxPack int64
	cmd := &cobra.Command{
		Use:   "card",
		Short: "Print the AgentExtension entry for an Agent Card",
		Long: `Print the TaskPack extension's entry for an A2A Agent Card's
capabilities.extensions (TaskPack 0.1 §5): its URI, that it is not required,
and what tp takes — both encodings, their media types and file extensions,
the inline attachment limit and the largest pack a message may carry.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return printJSON(io, tpa2a.Extension(maxPack))
		},
	}
	cmd.Flags().Int64Var(&maxPack, "max-pack-bytes", tpa2a.DefaultMaxPackBytes, "the largest pack a message may carry")
	return cmd
}

func newA2AExportCmd(io *IO) *cobra.Command {
	var maxPack, maxPassport int64
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
			t, err := tpa2a.Export(args[0], tpa2a.ExportOptions{MaxPackBytes: maxPack, Limits: pack.Limits{MaxCanonical: maxPassport}})
			if err != nil {
				return err
			}
			return printJSON(io, t)
		},
	}
	cmd.Flags().Int64Var(&maxPack, "max-pack-bytes", tpa2a.DefaultMaxPackBytes, "the largest pack a Task carries inline")
	cmd.Flags().Int64Var(&maxPassport, "max-passport-bytes", pack.DefaultLimits().MaxCanonical, "refuse a pack whose canonical passport.json (D1) would be larger (D10)")
	return cmd
}

func newA2AImportCmd(io *IO) *cobra.Command {
	var out string
	var maxPack int64
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
			t, err := tpa2a.ReadTask(args[0], tpa2a.MaxTaskBytes(maxPack))
			if err != nil {
				return err
			}
			fb, err := tpa2a.PackPartOfTask(t)
			if err != nil {
				var pe *pack.Error
				if errors.As(err, &pe) && pe.File == "" {
					pe.File = args[0]
				}
				return err
			}
			dir := "."
			if io.Getwd != nil {
				if wd, err := io.Getwd(); err == nil {
					dir = wd
				}
			}
			var dest func(pack.Encoding) string
			if out != "" {
				abs, err := filepath.Abs(out)
				if err != nil {
					return err
				}
				dir = filepath.Dir(abs)
				dest = func(pack.Encoding) string { return abs }
			} else {
				base := tpa2a.ImportBase(t, fb)
				dest = func(enc pack.Encoding) string { return filepath.Join(dir, base+tpa2a.Ext(enc)) }
			}
			k, err := tpa2a.Keep(fb, dir, dest, tpa2a.KeepOptions{MaxPackBytes: maxPack})
			if err != nil {
				var pe *pack.Error
				if errors.As(err, &pe) && pe.File == "the file part" {
					pe.File = args[0]
				}
				return err
			}
			fmt.Fprintf(io.Out, "wrote %s (%s, %d bytes, sha256 %s)\n", sanitize.Line(k.Path), k.Encoding, k.Bytes, k.Digest)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "the pack file to write (default: named after the artifact, in the current folder)")
	cmd.Flags().Int64Var(&maxPack, "max-pack-bytes", tpa2a.DefaultMaxPackBytes, "the largest pack to take from a Task")
	return cmd
}

func newA2AServeCmd(io *IO, g *globalOpts) *cobra.Command {
	var listen, tokenFile, url string
	var maxPack int64
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
			addr := listen
			if addr == "" {
				addr = DefaultA2AListen
			}
			token := ""
			if tokenFile != "" {
				b, err := os.ReadFile(tokenFile)
				if err != nil {
					return err
				}
				token = strings.TrimSpace(string(b))
				if len(token) < 16 || strings.ContainsAny(token, " \t\r\n") {
					return fmt.Errorf("%s: the token must be one line of at least 16 characters without spaces (D23)", tokenFile)
				}
			}
			if !loopback(addr) && token == "" {
				return withHint(fmt.Errorf("--listen %s is not a loopback address: a token is required beyond loopback (D23)", sanitize.Line(addr)),
					"pass --token-file FILE holding a long random token, e.g. openssl rand -hex 32 > FILE")
			}
			st, err := openStore(io, g)
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			endpoint := url
			if endpoint == "" {
				endpoint = "http://" + ln.Addr().String() + "/"
			}
			srv := server.New(server.Config{StoreDir: st.Dir(), MaxPackBytes: maxPack, Token: token, URL: endpoint, Version: version})
			hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 5 * time.Minute,
				WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			fmt.Fprintf(io.Out, "tp a2a serve: listening on http://%s/ (agent card: http://%s/.well-known/agent-card.json); packs wait in %s\n",
				ln.Addr(), ln.Addr(), sanitize.Line(filepath.Join(st.Dir(), "incoming")))
			errc := make(chan error, 1)
			go func() { errc <- hs.Serve(ln) }()
			select {
			case err := <-errc:
				return err
			case <-ctx.Done():
			}
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			return hs.Shutdown(sctx)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "", "address to listen on (default "+DefaultA2AListen+"; beyond loopback needs --token-file)")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "a file holding the bearer token every JSON-RPC call must carry")
	cmd.Flags().StringVar(&url, "url", "", "the JSON-RPC URL the Agent Card names (default http://ADDRESS/)")
	cmd.Flags().Int64Var(&maxPack, "max-pack-bytes", tpa2a.DefaultMaxPackBytes, "the largest pack a message may carry")
	return cmd
}

// loopback reports whether a listen address is a loopback one.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
