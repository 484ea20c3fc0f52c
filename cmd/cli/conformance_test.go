package cli

import (
	"bytes"
	"encoding/json"
	"github.com/tp-dev/tp/internal/ojson"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConformanceExitCodes: 0 conformant, 2 a pack but not conformant, 1 not
// a pack at all (docs/architecture.md, command-line conventions, issue 2).
func TestConformanceExitCodes(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	flat, _ := os.ReadFile("../../pack/testdata/ref/handoff.taskpack.json")
	p := filepath.Join(t.TempDir(), "esc.taskpack.json")
	os.WriteFile(p, bytes.Replace(flat, []byte(`"kind": "handoff"`), []byte(`"kind": "\u001b[31mevil"`), 1), 0o644)
	var out bytes.Buffer
	run([]string{"conformance", p}, &IO{In: strings.NewReader(""), Out: &out, Err: &out, Env: func(string) string { return "" }})
	if strings.Contains(out.String(), "\x1b") {
		t.Fatalf("escape reached the terminal: %q", out.String())
	}
}

// TestConformanceOddFiles: the exit code and the output for files a careful
// user will point tp conformance at by mistake. Not a pack (a folder, an
// empty file, a JSON array, a missing file): exit 1, one line on stderr
// naming the file and the rule, nothing on stdout. A file that sniffs as a
// pack but is cut short: exit 2 with every check failed and the container
// error as C1's reason (or C2's for the flat form); --json is one document.
func TestConformanceOddFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ref, err := os.ReadFile("../../pack/testdata/ref/handoff.taskpack")
	if err != nil {
		t.Fatal(err)
	}
	flat, _ := os.ReadFile("../../pack/testdata/ref/handoff.taskpack.json")
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	folder := filepath.Join(dir, "folder.taskpack")
	os.Mkdir(folder, 0o755)
	for _, c := range []struct {
		name, file string
		want       exitCode
		enc        string // the report's encoding, for exit 2
		failing    string // the check whose reason names the damage
	}{
		{"folder", folder, exitError, "", ""},
		{"empty file", write("empty.taskpack", nil), exitError, "", ""},
		{"JSON array", write("array.taskpack.json", []byte(`[{"taskpack": "0.1"}]`)), exitError, "", ""},
		{"missing file", filepath.Join(dir, "nothere.taskpack"), exitError, "", ""},
		{"truncated ZIP", write("cut.taskpack", ref[:len(ref)/2]), exitNotConformant, "taskpack", "C1"},
		{"ZIP header only", write("pk.taskpack", []byte("PK\x03\x04")), exitNotConformant, "taskpack", "C1"},
		{"truncated flat", write("cut.taskpack.json", flat[:len(flat)/2]), exitNotConformant, "taskpack.json", "C1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, asJSON := range []bool{false, true} {
				var out, errb bytes.Buffer
				args := []string{"conformance", c.file}
				if asJSON {
					args = append(args, "--json")
				}
				got := run(args, &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Env: func(string) string { return "" }})
				if got != c.want {
					t.Fatalf("%v: exit %d, want %d\n%s%s", args, got, c.want, out.String(), errb.String())
				}
				if c.want == exitError {
					line := strings.TrimSuffix(errb.String(), "\n")
					if strings.Contains(line, "\n") || !strings.Contains(line, filepath.Base(c.file)) || !strings.Contains(line, "(not-a-pack)") {
						t.Fatalf("%v: want one stderr line naming the file and the rule; got stderr %q", args, errb.String())
					}
					// stdout: nothing, or with --json one error document (docs/architecture.md, command-line conventions).
					if !asJSON && out.Len() != 0 {
						t.Fatalf("%v: stdout %q, want nothing", args, out.String())
					}
					if asJSON {
						v, err := ojson.ParseStrict(out.Bytes())
						if err != nil || v.Get("ok").Kind() != ojson.Bool || !strings.Contains(v.Get("error").Text(), "(not-a-pack)") {
							t.Fatalf("%v: want one JSON error document, got %q (%v)", args, out.String(), err)
						}
					}
					continue
				}
				if errb.Len() != 0 {
					t.Errorf("%v: stderr %q", args, errb.String())
				}
				if !asJSON {
					if !strings.Contains(out.String(), "("+"taskpack/0.1, "+c.enc+")") || !strings.Contains(out.String(), "FAIL "+c.failing) {
						t.Errorf("%v: output:\n%s", args, out.String())
					}
					continue
				}
				dec := json.NewDecoder(&out)
				var r struct {
					Encoding   string
					Conformant bool
					Checks     []struct {
						ID     string
						Pass   bool
						Reason string
					}
				}
				if err := dec.Decode(&r); err != nil {
					t.Fatalf("--json: %v", err)
				}
				if _, err := dec.Token(); err != io.EOF {
					t.Fatalf("--json printed more than one document")
				}
				if r.Conformant || r.Encoding != c.enc || len(r.Checks) != 11 {
					t.Fatalf("--json: %+v", r)
				}
				for _, ch := range r.Checks {
					if ch.Pass {
						t.Errorf("%s passes on a file that could not be read", ch.ID)
					}
					if ch.ID == c.failing && !strings.Contains(ch.Reason, filepath.Base(c.file)) {
						t.Errorf("%s reason does not name the file: %q", ch.ID, ch.Reason)
					}
				}
			}
		})
	}
}
