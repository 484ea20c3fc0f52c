package landing

import (
	"archive/zip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/pack"
)

// badCRCBag converts a flat pack with one luggage file to a bag and gives
// that file's entry a CRC that does not match its bytes (the manifest's
// sha256 still does): only the ZIP reader can tell.
func badCRCBag(t *testing.T) string {
	t.Helper()
	flat := flatPack(t, handObj, attachment("x.txt", strings.Repeat("close,1\n", 100)))
	good := filepath.Join(t.TempDir(), "good.taskpack")
	if _, err := pack.ConvertRepairs(flat, good, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(good)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	bad := filepath.Join(t.TempDir(), "bad crc.taskpack")
	f, err := os.Create(bad)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range zr.File {
		h := e.FileHeader
		if e.Name == "data/files/x.txt" {
			h.CRC32 ^= 0xdeadbeef
		}
		w, err := zw.CreateRaw(&h)
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.OpenRaw()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return bad
}

// "luggage x.txt: zip: checksum error" named neither the pack nor the rule;
// a damaged entry is refused like every other bad input (issue 11).
func TestDamagedEntryNamesThePackAndTheRule(t *testing.T) {
	path := badCRCBag(t)
	st := testStore(t)
	p, err := pack.Open(path, pack.Options{DeferLuggage: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Land(context.Background(), p, pl, st, Decisions{})
	var pe *pack.Error
	if !errors.As(err, &pe) || pe.File != path || pe.Entry != "data/files/x.txt" || pe.Rule != pack.RuleDigest {
		t.Fatalf("land: %v (%#v)", err, pe)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, path+": data/files/x.txt: ") || !strings.HasSuffix(msg, "("+pack.RuleDigest+")") {
		t.Fatalf("message %q", msg)
	}
	if ents, _ := os.ReadDir(st.Dir()); len(ents) != 0 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("the refused landing left %v", names)
	}
}
