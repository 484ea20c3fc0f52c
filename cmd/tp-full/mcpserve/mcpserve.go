// Package mcpserve is `tp mcp` as tp-full runs it: the MCP server configured
// from the command line's store, acts folder and identity, on stdio. It is a
// package, not part of tp-full's main, so that the mcp package's tests serve
// through the very same code (D26: the command tree is cmd/cli's, the
// server is linked only into tp-full).
package mcpserve

import (
	"context"
	"io"

	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/cmd/cli"
	"github.com/tp-dev/tp/mcp"
)

// Run serves tp mcp until the client closes stdin.
func Run(ctx context.Context, io *cli.IO, g *cli.Globals, harness string) error {
	st, err := cli.OpenStore(io, g)
	if err != nil {
		return err
	}
	actsDir := g.ActsDir()
	if actsDir == "" {
		actsDir, _ = recordlog.DefaultActsDir(io.Env) // the acts tools say so when there is none
	}
	srv := mcp.New(mcp.Config{Store: st, ActsDir: actsDir, Offline: g.Offline(), Env: io.Env, Version: cli.Version(), Harness: harness, Log: io.Err})
	in, restore := pollable(io.In)
	defer restore()
	return srv.Run(ctx, readCloser{in}, writeCloser{io.Out})
}

type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }
