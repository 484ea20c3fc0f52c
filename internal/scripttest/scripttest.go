// Package scripttest holds what tp's testscript suites share: the sealed-off
// environment every script runs in, and the commands the suites add. It is
// imported only by _test.go files.
package scripttest

import (
	"path/filepath"
	"regexp"

	"github.com/rogpeppe/go-internal/testscript"
)

// Isolate points every place tp reads or writes inside the script's own
// $WORK (a home folder, the store, the acts log) and fixes the identity
// and colour, so no script touches the real home and output is stable.
// It returns the home folder.
func Isolate(env *testscript.Env) string {
	work := env.Getenv("WORK")
	home := filepath.Join(work, "home")
	env.Setenv("HOME", home)
	env.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	env.Setenv("TP_STORE", filepath.Join(work, "store"))
	env.Setenv("TP_ACTS", filepath.Join(work, "acts"))
	env.Setenv("TP_MACHINE", "testbox")
	env.Setenv("TP_ACTOR", "tester")
	env.Setenv("NO_COLOR", "1")
	return home
}

// Capture is the script command `capture VAR REGEXP`: it sets $VAR to the
// first group of REGEXP in the last command's stdout, so ids a command
// minted (a landed passport's) feed the next command.
func Capture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: capture VAR REGEXP")
	}
	m := regexp.MustCompile(args[1]).FindStringSubmatch(ts.ReadFile("stdout"))
	if len(m) < 2 {
		ts.Fatalf("capture: no match for %s in stdout", args[1])
	}
	ts.Setenv(args[0], m[1])
}
