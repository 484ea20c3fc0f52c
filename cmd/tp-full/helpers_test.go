package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tp-dev/tp/cmd/cli"
)

// TestMain lets the test binary stand in for both executables (D26): as
// "tp" it is the core, exactly as cmd/tp builds it, and as "tp-full" it is
// this one. So every script here that runs `tp mcp`, `tp a2a …` or a screen
// goes through the core's forwarding to tp-full, found on PATH (testscript
// puts both there) or next to tp (tpBinary).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tp":            func() { os.Exit(cli.Main(nil)) },
		"task-passport": func() { os.Exit(cli.Main(nil)) },
		"tp-full":       func() { os.Exit(cli.Main(full())) },
	})
}

// tpBinary is this test binary as "tp", with "tp-full" beside it, for tests
// that must run a real process in a terminal. They are hard links (a copy
// where linking fails) so that the core finds tp-full next to itself.
func tpBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot find the test binary:", err)
	}
	dir := t.TempDir()
	for _, name := range []string{"tp", cli.FullName} {
		if err := linkOrCopy(exe, filepath.Join(dir, name)); err != nil {
			t.Skip("cannot place the test binary:", err)
		}
	}
	return filepath.Join(dir, "tp")
}

func linkOrCopy(from, to string) error {
	if os.Link(from, to) == nil {
		return nil
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
