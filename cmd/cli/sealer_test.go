package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ageseal"
	"github.com/tp-dev/tp/internal/sealed"
)

// sealingIO is the process's IO with age's Sealer, as tp-full has it: the
// scripts run the whole tree in one process, sealed packs included, where
// tp forwards those to tp-full (D26; cmd/tp-full's forward scripts).
func sealingIO() *IO {
	io := stdIO()
	io.Sealer = ageseal.Sealer{}
	return io
}

// TestSealedWorkNeedsFull: without a Sealer (tp, which links no age) each
// command that seals or opens a sealed pack goes to tp-full before it has
// done anything, and is refused by name where there is none; the same
// commands on a plain pack run where they are.
func TestSealedWorkNeedsFull(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sealedPack := filepath.Join(dir, "p.taskpack.age")
	if err := os.WriteFile(sealedPack, []byte(sealed.Magic+"-> X25519 whatever\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		what string
	}{
		{[]string{"conformance", sealedPack}, "tp conformance of a sealed pack"},
		{[]string{"convert", sealedPack, "--out", filepath.Join(dir, "out.taskpack.json")}, "tp convert of a sealed pack"},
		{[]string{"land", sealedPack, "--plain", "--dry-run"}, "tp land of a sealed pack"},
		{[]string{"pack", "TP-NONE-0000", "--out", filepath.Join(dir, "x.taskpack"), "--to", "age1whatever"}, "tp pack --to"},
	} {
		t.Run(c.what, func(t *testing.T) {
			t.Parallel()
			for _, forward := range []bool{false, true} {
				var out, errb bytes.Buffer
				io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Env: func(k string) string {
					if k == "HOME" || k == "TP_STORE" {
						return filepath.Join(dir, k)
					}
					return ""
				}}
				var forwarded []string
				if forward {
					io.Forward = func(what string) error { forwarded = append(forwarded, what); return silentExit(7) }
				}
				code := run(c.args, io)
				switch {
				case forward && (code != 7 || len(forwarded) != 1 || forwarded[0] != c.what):
					t.Errorf("forwarded %q, exit %d; want %q once and tp-full's exit 7\n%s", forwarded, code, c.what, errb.String())
				case !forward && (code != exitError || !strings.Contains(errb.String(), c.what+" needs tp-full")):
					t.Errorf("without tp-full: exit %d, stderr %q", code, errb.String())
				}
				if out.Len() > 0 || (forward && errb.Len() > 0) {
					t.Errorf("printed before forwarding: %q %q", out.String(), errb.String())
				}
				if _, err := os.Stat(filepath.Join(dir, "TP_STORE")); err == nil {
					t.Errorf("the store was created before forwarding")
				}
			}
		})
	}
	// A plain pack is judged by tp itself.
	var out, errb bytes.Buffer
	io := &IO{In: strings.NewReader(""), Out: &out, Err: &errb, Env: func(string) string { return "" },
		Forward: func(what string) error { t.Errorf("forwarded %s", what); return nil }}
	if code := run([]string{"conformance", filepath.Join("..", "..", "examples", "handoff.taskpack")}, io); code != exitOK {
		t.Errorf("plain pack: exit %d\n%s", code, errb.String())
	}
}
