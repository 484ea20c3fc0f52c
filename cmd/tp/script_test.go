package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run this binary as the `tp` command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tp": func() { os.Exit(int(run(os.Args[1:], stdIO()))) },
	})
}

// TestScripts runs every cmd/tp/testdata/*.txtar: black-box tests of the
// command line, one script per command, each with a piped run and a --json run.
// Stores and acts logs live in the script's own $WORK.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(e *testscript.Env) error {
			e.Setenv("TP_STORE", e.WorkDir+"/store")
			e.Setenv("TP_ACTS", e.WorkDir+"/acts")
			e.Setenv("TP_MACHINE", "test-machine")
			e.Setenv("TP_ACTOR", "tester")
			e.Setenv("NO_COLOR", "1")
			e.Setenv("HOME", e.WorkDir+"/home")
			return nil
		},
	})
}
