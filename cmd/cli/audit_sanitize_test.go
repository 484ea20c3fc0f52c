package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditConformanceReasonsSanitised: D11 — the judge's reasons quote the
// pack verbatim in places (packed_at for C10, root_id for C4); printed by
// tp conformance they must not carry a control sequence to the terminal.
func TestAuditConformanceReasonsSanitised(t *testing.T) {
	t.Parallel()
	flat, err := os.ReadFile("../../pack/testdata/ref/handoff.taskpack.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to string }{
		{`"packed_at": "2026-09-03T14:20:00Z"`, `"packed_at": "2026-09-03\u001b[2J\u009b31m"`},
		{`"root_id": "`, `"root_id": "\u001b]0;owned\u0007`},
	} {
		if !bytes.Contains(flat, []byte(tc.from)) {
			t.Fatalf("fixture has no %s", tc.from)
		}
		p := filepath.Join(t.TempDir(), "esc.taskpack.json")
		os.WriteFile(p, bytes.Replace(flat, []byte(tc.from), []byte(tc.to), 1), 0o644)
		var out bytes.Buffer
		run([]string{"conformance", "--plain", p}, &IO{In: strings.NewReader(""), Out: &out, Err: &out, Env: func(string) string { return "" }})
		if s := out.String(); strings.ContainsAny(s, "\x1b\x07\u009b") {
			t.Errorf("%s: a control character reached the terminal: %q", tc.to, s)
		}
	}
}
