// Command tp is the human end of work handed between AI agents, machines and
// people: it packs, judges, converts and lands TaskPack files, merges receipts
// back into the passport that asked, and settles Acts as the principal.
//
// tp is the core (D26): it starts as fast as it can and runs every command
// scripts call. The terminal UI, the MCP and A2A servers and age (sealed
// packs) are tp-full's, which tp starts in its place for them. The command
// tree is cmd/cli's.
package main

import (
	"os"

	"github.com/tp-dev/tp/cmd/cli"
)

func main() { os.Exit(cli.Main(nil)) }
