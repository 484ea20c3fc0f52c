package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The folder tp runs in is injected like the environment: plain `tp` lists
// the packs waiting in io.Getwd's folder, not the test process's.
func TestInjectedWorkingFolder(t *testing.T) {
	t.Parallel()
	here := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "handoff.taskpack"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(here, "waiting.taskpack"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TP_STORE": t.TempDir(), "TP_ACTS": t.TempDir()}
	var out, errb bytes.Buffer
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Env: func(k string) string { return env[k] },
		Getwd: func() (string, error) { return here, nil }}
	if code := run([]string{"--plain"}, io); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "waiting.taskpack") {
		t.Fatalf("the injected folder's pack is not listed:\n%s", out.String())
	}
}
