package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rawUnsafe are what must never reach a terminal raw (D11): ESC, BEL, CSI
// (U+009B), a bidi override, a line separator, a Unicode TAG character.
const rawUnsafe = "\x1b\x07\u009b\u202e\u2028\U000E0041"

// Every command path that quotes untrusted text — file names, luggage names,
// spec, error messages — prints it sanitised, in plain text and in --json
// alike; --json output escapes those characters as \u and still parses to
// the same values (issue 11).
func TestUntrustedTextNeverReachesTheTerminalRaw(t *testing.T) {
	t.Parallel()
	flat, err := os.ReadFile("../../pack/testdata/ref/handoff.taskpack.json")
	if err != nil {
		t.Fatal(err)
	}
	evil := "x\x1b]0;t\x07\u009b31m\u202e\u2028\U000E0041"
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jsonEvil, _ := json.Marshal(evil)
	jsonEvil = bytes.Trim(jsonEvil, `"`)
	replace := func(from, to string) []byte {
		if !bytes.Contains(flat, []byte(from)) {
			t.Fatalf("fixture has no %s", from)
		}
		return bytes.Replace(flat, []byte(from), []byte(to), 1)
	}
	files := map[string]string{
		"file name (garbage)":     write("g"+evil+".taskpack", []byte("garbage")),
		"file name (a good pack)": write("ok"+evil+".taskpack.json", flat),
		"spec":                    write("spec.taskpack.json", replace(`"spec": "task-passport-bag/0.1"`, `"spec": "`+string(jsonEvil)+`"`)),
		"luggage name, bad sha":   write("lug.taskpack.json", replace(`"name": "`, `"name": "`+string(jsonEvil))),
		"bad json":                write("bad.taskpack.json", []byte("{\"taskpack\":\"0.1\",\""+evil+"\"")),
	}
	for what, p := range files {
		for _, args := range [][]string{
			{"conformance", "--plain", p},
			{"conformance", "--json", p},
			{"convert", p, "--out", filepath.Join(dir, "out"+evil+".taskpack")},
			{"convert", "--json", p, "--out", filepath.Join(dir, "out2.taskpack")},
			{"land", "--plain", "--dry-run", p},
			{"land", "--json", "--dry-run", p},
		} {
			var out, errb bytes.Buffer
			st := filepath.Join(t.TempDir(), "store")
			run(args, &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Env: func(k string) string {
				if k == "TP_STORE" {
					return st
				}
				return ""
			}})
			for _, s := range []struct{ name, text string }{{"stdout", out.String()}, {"stderr", errb.String()}} {
				if i := strings.IndexAny(s.text, rawUnsafe); i >= 0 {
					t.Errorf("%s: tp %s: %s carries %q raw: %q", what, args[0], s.name, s.text[i:i+4], s.text[max(0, i-40):min(len(s.text), i+20)])
				}
			}
			if args[1] == "--json" && out.Len() > 0 {
				var v any
				if err := json.Unmarshal(out.Bytes(), &v); err != nil {
					t.Errorf("%s: tp %s --json: not JSON: %v", what, args[0], err)
				}
			}
		}
	}
}
