package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/tp-dev/tp/internal/store"
)

// runTTY runs tp as on a terminal, with screens that record they were
// opened.
func runTTY(t *testing.T, env map[string]string, args ...string) (code exitCode, stderr string, opened []string) {
	t.Helper()
	screen := func(name string) func(*IO, *globalOpts, *store.Store, string) error {
		return func(*IO, *globalOpts, *store.Store, string) error { opened = append(opened, name); return nil }
	}
	screens := &Screens{
		Home: func(*cobra.Command, *IO, *globalOpts) error { opened = append(opened, "home"); return nil },
		Land: func(_ *cobra.Command, _ *IO, _ *globalOpts, file string, _ landOptions) error {
			opened = append(opened, "land")
			return nil
		},
		Show: screen("show"), Asks: screen("asks"), Checks: screen("checks"),
	}
	var out, errb bytes.Buffer
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, TTY: true, Env: func(k string) string { return env[k] }, Screens: screens}
	code = run(args, io)
	return code, errb.String(), opened
}

// TestNoScreenForMissingInput: on a terminal, a command whose input is
// missing or unreadable prints the error and exits 1 without opening a
// screen; with good input the screen opens (so the hooks are really the
// ones used).
func TestNoScreenForMissingInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.Create("T", "G", store.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	pk := filepath.Join(dir, "p.taskpack.json")
	notPack := filepath.Join(dir, "notes.taskpack")
	os.WriteFile(pk, []byte(`{"taskpack":"0.1"}`), 0o644)
	os.WriteFile(notPack, []byte("hello"), 0o644)
	env := map[string]string{"TP_STORE": st.Dir(), "TP_ACTS": filepath.Join(dir, "acts")}
	tests := []struct {
		args   []string
		opens  string // "" when no screen may open
		stderr string
	}{
		{[]string{"land", filepath.Join(dir, "nope.taskpack")}, "", "nope.taskpack: open "},
		{[]string{"land", dir}, "", "not a regular file"},
		{[]string{"land", notPack}, "", "neither a ZIP"},
		{[]string{"land", pk}, "land", ""},
		{[]string{"show", "TP-2222-2222"}, "", "passport TP-2222-2222 not found"},
		{[]string{"asks", "TP-2222-2222"}, "", "passport TP-2222-2222 not found"},
		{[]string{"checks", "TP-2222-2222"}, "", "passport TP-2222-2222 not found"},
		{[]string{"show", id}, "show", ""},
		{[]string{"asks", id}, "asks", ""},
		{[]string{"checks", id}, "checks", ""},
		{[]string{}, "home", ""},
		{[]string{"--theme", "dark"}, "", `unknown theme "dark" (known: default, high-contrast, no-color)`},
		{[]string{"show", id, "--theme", "solarized"}, "", `unknown theme "solarized"`},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stderr, opened := runTTY(t, env, tc.args...)
			if tc.opens != "" {
				if code != exitOK || len(opened) != 1 || opened[0] != tc.opens {
					t.Fatalf("code %d, opened %v, stderr %q; want the %s screen", code, opened, stderr, tc.opens)
				}
				return
			}
			if code != exitError || len(opened) != 0 || !strings.HasPrefix(stderr, "tp: error: ") || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("code %d, opened %v, stderr %q", code, opened, stderr)
			}
		})
	}
	// NO_COLOR overrides the theme on the screen; it must not hide a
	// mistyped one.
	env["NO_COLOR"] = "1"
	if code, stderr, opened := runTTY(t, env, "--theme", "dark"); code != exitError || len(opened) != 0 || !strings.Contains(stderr, "unknown theme") {
		t.Errorf("NO_COLOR: code %d, opened %v, stderr %q", code, opened, stderr)
	}
}
