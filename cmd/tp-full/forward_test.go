package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	tpa2a "github.com/tp-dev/tp/a2a"
	"github.com/tp-dev/tp/cmd/cli"
	"github.com/tp-dev/tp/internal/scripttest"
)

// TestForwardScripts runs testdata/forward/*.txtar: tp, the core, forwards
// to tp-full, and the pair is one command tree (D26).
func TestForwardScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "forward"),
		Setup: func(env *testscript.Env) error {
			scripttest.Isolate(env)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"capture": scripttest.Capture},
	})
}

// The A2A flags' default, said in the command tree so tp need not link the
// SDK, is the binding's.
func TestA2ADefaultAgrees(t *testing.T) {
	t.Parallel()
	if cli.DefaultA2AMaxPackBytes != tpa2a.DefaultMaxPackBytes {
		t.Fatalf("--max-pack-bytes defaults to %d, the A2A binding's limit is %d", cli.DefaultA2AMaxPackBytes, tpa2a.DefaultMaxPackBytes)
	}
}
