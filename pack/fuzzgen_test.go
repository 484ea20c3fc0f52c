//go:build fuzzgen

package pack

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// TestGenFuzzVectors writes the tiny seed vectors of FuzzOpenBag and
// FuzzOpenFlat into testdata/vectors (tiny-*). Run it only to regenerate them:
//
//	go test -tags fuzzgen -run TestGenFuzzVectors ./pack
//
// They are kept well under a KiB so that the fuzzer's minimising of an
// interesting input takes milliseconds, not the minute the reference
// fixtures cost (see BENCHMARKS.md, Fuzzing).
func TestGenFuzzVectors(t *testing.T) {
	obj, err := ojson.ParseStrict([]byte(tinyObj))
	if err != nil {
		t.Fatal(err)
	}
	pass := ojson.Canonical(obj)
	lug := []file{{Name: "a.txt", Data: []byte("hi\n")}}
	out := map[string][]byte{
		// Stored entries: the fuzzer mutates the pack object and tag files
		// themselves, not a deflate stream.
		"tiny-stored.taskpack":  storedOnly(t, packtest.RawBag(t, pass, lug, nil)),
		"tiny-deflate.taskpack": packtest.RawBag(t, pass, lug, nil),
		"tiny-empty.taskpack":   storedOnly(t, packtest.RawBag(t, pass, nil, nil)),
		"tiny.taskpack.json":    packtest.RawFlat(t, obj, packtest.Att("a.txt", []byte("hi\n")), utf8Att("b.md", "# b\n")),
		"tiny-empty.json":       packtest.RawFlat(t, obj),
	}
	for name, b := range out {
		path := filepath.Join("testdata/vectors", name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		// Every vector is a pack tp accepts, so the fuzzer starts inside
		// the reader, past the first rejection.
		p, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p.Close()
		t.Logf("%s: %d bytes", name, len(b))
	}
}

const tinyObj = `{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-09-03T14:20:00Z",
 "lineage":{"root_id":"TP-AAAA-AAAA","from_version":1,"chain":["TP-AAAA-AAAA@1"]},
 "passport":{"id":"TP-AAAA-AAAA","goal":"G","version":1,"facts":[{"claim":"c","scope":"universal","verified":true}]},
 "asks":[{"id":"a1","what":"w","accept":"x","status":"open","answer":null}],
 "landing_checks":[{"id":"c1","check":"k","how":"ls","required":true}]}`

func utf8Att(name, data string) *ojson.Value {
	a := packtest.Att(name, []byte(data))
	a.Set("encoding", ojson.NewString("utf8"))
	a.Set("data", ojson.NewString(data))
	return a
}

// storedOnly rewrites a ZIP with every entry stored (no compression).
func storedOnly(t *testing.T, b []byte) []byte {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var entries []file
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		buf.ReadFrom(rc)
		rc.Close()
		entries = append(entries, file{Name: f.Name, Data: buf.Bytes()})
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Store})
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
