package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary stand in for `tp` inside testscript files,
// so every cmd/tp/testdata/*.txtar drives the real command line end to end.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tp": func() { os.Exit(int(run(os.Args[1:], stdIO()))) },
	})
}

// TestScripts runs every cmd/tp/testdata/*.txtar. Each script gets its own
// $WORK; the store and acts locations point inside it so no script touches
// the real home directory, and identity is fixed so output is stable.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			work := env.Getenv("WORK")
			env.Setenv("HOME", work+"/home")
			env.Setenv("XDG_DATA_HOME", work+"/home/.local/share")
			env.Setenv("TP_STORE", work+"/store")
			env.Setenv("TP_ACTS", work+"/acts")
			env.Setenv("TP_MACHINE", "testbox")
			env.Setenv("TP_ACTOR", "tester")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}
