package main

import (
	"context"
	"io"

	"github.com/tp-dev/tp/acts/recordlog"
	"github.com/tp-dev/tp/cmd/cli"
	"github.com/tp-dev/tp/mcp"
)

// runMCP serves tp mcp until the client closes stdin; its flags and help
// are the command tree's (cmd/cli), the server is here, where the MCP SDK
// is linked (D26).
func runMCP(ctx context.Context, io *cli.IO, g *cli.Globals, harness string) error {
	st, err := cli.OpenStore(io, g)
	if err != nil {
		return err
	}
	actsDir := g.ActsDir()
	if actsDir == "" {
		actsDir, _ = recordlog.DefaultActsDir(io.Env) // the acts tools say so when there is none
	}
	srv := mcp.New(mcp.Config{Store: st, ActsDir: actsDir, Offline: g.Offline(), Env: io.Env, Version: cli.Version(), Harness: harness, Log: io.Err})
	return srv.Run(ctx, readCloser{io.In}, writeCloser{io.Out})
}

type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }
