package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConformanceExitCodes: 0 conformant, 2 a pack but not conformant, 1 not
// a pack at all (DESIGN.md §4, issue 2).
func TestConformanceExitCodes(t *testing.T) {
	dir := t.TempDir()
	ref, err := os.ReadFile("../../pack/testdata/ref/handoff.taskpack")
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.taskpack")
	os.WriteFile(good, ref, 0o644)
	bad := filepath.Join(dir, "bad.taskpack")
	os.WriteFile(bad, append(append([]byte{}, ref...), "trailing"...), 0o644)
	flat, _ := os.ReadFile("../../pack/testdata/ref/handoff.taskpack.json")
	red := filepath.Join(dir, "red.taskpack.json")
	os.WriteFile(red, bytes.Replace(flat, []byte(`"kind": "handoff"`), []byte(`"kind": "memo"`), 1), 0o644)
	notPack := filepath.Join(dir, "notes.txt")
	os.WriteFile(notPack, []byte("hello"), 0o644)
	for _, c := range []struct {
		file string
		args []string
		want exitCode
		out  string
	}{
		{good, nil, exitOK, "conformant: 11/11"},
		{good, []string{"--json"}, exitOK, `"conformant": true`},
		{red, nil, exitNotConformant, "FAIL C3"},
		{red, []string{"--json"}, exitNotConformant, `"conformant": false`},
		{bad, nil, exitNotConformant, "trailing-garbage"},
		{notPack, nil, exitError, ""},
	} {
		var out, errb bytes.Buffer
		io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Env: func(string) string { return "" }}
		got := run(append([]string{"conformance", c.file}, c.args...), io)
		if got != c.want {
			t.Errorf("%s %v: exit %d, want %d\n%s%s", c.file, c.args, got, c.want, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), c.out) {
			t.Errorf("%s %v: output lacks %q:\n%s", c.file, c.args, c.out, out.String())
		}
	}
}

// TestConformanceSanitizes: a reason quoting the pack cannot drive the
// terminal (D11).
func TestConformanceSanitizes(t *testing.T) {
	flat, _ := os.ReadFile("../../pack/testdata/ref/handoff.taskpack.json")
	p := filepath.Join(t.TempDir(), "esc.taskpack.json")
	os.WriteFile(p, bytes.Replace(flat, []byte(`"kind": "handoff"`), []byte(`"kind": "\u001b[31mevil"`), 1), 0o644)
	var out bytes.Buffer
	run([]string{"conformance", p}, &IO{In: strings.NewReader(""), Out: &out, Err: &out, Env: func(string) string { return "" }})
	if strings.Contains(out.String(), "\x1b") {
		t.Fatalf("escape reached the terminal: %q", out.String())
	}
}
