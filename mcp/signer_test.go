package mcp_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
	"github.com/tp-dev/tp/internal/trust"
	"github.com/tp-dev/tp/pack"
)

// The land tool reports the signer (D22): unsigned, a key the person has
// not trusted, and the name the person's trust store gives a known key;
// no tool adds a key to the store.
func TestLandReportsSigner(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "m2")
	cs := w.serve(t)
	signer := sshtest.Signer(t)
	sign := func(msg []byte) (string, error) { return sshsign.Sign(signer, pack.SignatureNamespace, msg) }
	write := func(name string, opts pack.WriteOptions) string {
		p := filepath.Join(w.Work, name)
		if err := pack.Write(p, pack.Source{Object: packtest.RefObject(t)}, pack.EncodingBag, opts); err != nil {
			t.Fatal(err)
		}
		return p
	}
	state := func(r result) (string, string) {
		s, _ := r.Doc["signer"].(map[string]any)
		st, _ := s["state"].(string)
		n, _ := s["name"].(string)
		return st, n
	}
	if st, _ := state(ok(t, cs, "task_passport_land", map[string]any{"path": write("plain.taskpack", pack.WriteOptions{}), "dry_run": true})); st != "unsigned" {
		t.Fatalf("unsigned pack: signer %q", st)
	}
	signed := write("signed.taskpack", pack.WriteOptions{Sign: sign})
	if st, _ := state(ok(t, cs, "task_passport_land", map[string]any{"path": signed, "dry_run": true})); st != "unknown" {
		t.Fatalf("signed by a key not trusted: signer %q", st)
	}
	ts, err := trust.OpenDefault(func(k string) string { return w.Env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.Senders().Trust("maria", signer.PublicKey(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if st, n := state(ok(t, cs, "task_passport_land", map[string]any{"path": signed, "dry_run": true})); st != "known" || n != "maria" {
		t.Fatalf("signed by a trusted key: signer %q %q", st, n)
	}
}
