// Command tp is the human end of work handed between AI agents, machines and
// people: it packs, judges, converts and lands TaskPack files, merges receipts
// back into the passport that asked, and settles Acts as the principal.
//
// main only wires the process to run; everything testable lives behind run.
package main

import "os"

func main() {
	if isDropIn(os.Args[0]) {
		os.Exit(int(runDropIn(dropInName(os.Args[0]), os.Args[1:], stdIO())))
	}
	os.Exit(int(run(os.Args[1:], stdIO())))
}
