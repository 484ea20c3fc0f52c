package landing

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

// refData is the reference implementation's fixtures, kept beside the
// format package.
var refData = filepath.Join("..", "pack", "testdata", "ref")

// refObject is the pack object of the reference handoff fixture.
func refObject(t testing.TB) *ojson.Value {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(refData, "handoff.taskpack.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.ParseStrict(b)
	if err != nil {
		t.Fatal(err)
	}
	return v.Get("passport")
}

type file struct {
	name string
	data []byte
}

// rawBag builds a ZIP the way a conformant writer would, from exactly the
// bytes given: no sealing, no refusals, so tests can build wrong packs.
// edit may change entries (and the manifests) before they are zipped.
func rawBag(t testing.TB, passport []byte, luggage []file, edit func(entries *[]file)) []byte {
	t.Helper()
	payload := []file{{"data/passport.json", passport}}
	for _, f := range luggage {
		payload = append(payload, file{"data/files/" + f.name, f.data})
	}
	var m strings.Builder
	var octets int
	for _, p := range payload {
		fmt.Fprintf(&m, "%s  %s\n", hexSum(p.data), p.name)
		octets += len(p.data)
	}
	info := fmt.Sprintf("Bag-Software-Agent: test\nBagging-Date: 2026-09-03\nExternal-Identifier: TP-TEST-0001\nPayload-Oxum: %d.%d\nBag-Spec: taskpack/0.1\n", octets, len(payload))
	tags := []file{{"bagit.txt", []byte("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")}, {"bag-info.txt", []byte(info)}, {"manifest-sha256.txt", []byte(m.String())}}
	var tm strings.Builder
	for _, f := range tags {
		fmt.Fprintf(&tm, "%s  %s\n", hexSum(f.data), f.name)
	}
	entries := append(append(tags, file{"tagmanifest-sha256.txt", []byte(tm.String())}), payload...)
	if edit != nil {
		edit(&entries)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func hexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
