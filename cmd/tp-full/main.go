// Command tp-full is tp with everything that is slow to start: the terminal
// UI's screens, the MCP and A2A servers and age (D26). tp starts it, with
// the same arguments, for the commands that need them (tp mcp, tp a2a, a
// screen on a terminal, sealing a pack or opening a sealed one); run alone
// it is a complete tp.
package main

import (
	"os"

	"github.com/tp-dev/tp/cmd/cli"
	"github.com/tp-dev/tp/cmd/tp-full/mcpserve"
	"github.com/tp-dev/tp/internal/ageseal"
)

func main() { os.Exit(cli.Main(full())) }

// full is what this executable adds to the command tree.
func full() *cli.Full {
	return &cli.Full{Screens: tuiScreens(), Servers: &cli.Servers{MCP: mcpserve.Run, A2A: runA2A}, Sealer: ageseal.Sealer{}}
}
