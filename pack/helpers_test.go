package pack

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

// refObject is the pack object of the reference handoff fixture.
func refObject(t testing.TB) *ojson.Value {
	t.Helper()
	b, err := os.ReadFile("testdata/ref/handoff.taskpack.json")
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
	payload := append([]file{{"data/passport.json", passport}}, prefixed(luggage)...)
	var m strings.Builder
	var octets int
	for _, p := range payload {
		fmt.Fprintf(&m, "%s  %s\n", hexSum(p.data), p.name)
		octets += len(p.data)
	}
	info := fmt.Sprintf("Bag-Software-Agent: test\nBagging-Date: 2026-09-03\nExternal-Identifier: TP-TEST-0001\nPayload-Oxum: %d.%d\nBag-Spec: taskpack/0.1\n", octets, len(payload))
	tags := []file{{"bagit.txt", []byte(bagitTxt)}, {"bag-info.txt", []byte(info)}, {"manifest-sha256.txt", []byte(m.String())}}
	var tm strings.Builder
	for _, f := range tags {
		fmt.Fprintf(&tm, "%s  %s\n", hexSum(f.data), f.name)
	}
	entries := append(append(tags, file{"tagmanifest-sha256.txt", []byte(tm.String())}), payload...)
	if edit != nil {
		edit(&entries)
	}
	return zipOf(t, entries)
}

func prefixed(l []file) []file {
	out := make([]file, len(l))
	for i, f := range l {
		out[i] = file{"data/files/" + f.name, f.data}
	}
	return out
}

func zipOf(t testing.TB, entries []file) []byte {
	t.Helper()
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

// rawFlat builds a flat file around a pack object; attachments are given as
// JSON objects (so tests can leave fields out).
func rawFlat(t testing.TB, obj *ojson.Value, atts ...*ojson.Value) []byte {
	t.Helper()
	top := ojson.NewObject()
	top.Set("taskpack", ojson.NewString("0.1"))
	top.Set("encoding", ojson.NewString("flat"))
	top.Set("note_to_reader", ojson.NewString("data"))
	top.Set("passport", obj)
	top.Set("attachments", ojson.NewArray(atts...))
	return ojson.Canonical(top)
}

// att is a flat attachment with every field right.
func att(name string, data []byte) *ojson.Value {
	a := ojson.NewObject()
	a.Set("name", ojson.NewString(name))
	a.Set("encoding", ojson.NewString("base64"))
	a.Set("sha256", ojson.NewString(hexSum(data)))
	a.Set("bytes", ojson.NewInt(int64(len(data))))
	a.Set("data", ojson.NewString(base64.StdEncoding.EncodeToString(data)))
	return a
}

func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// srcOf makes a Source from in-memory luggage.
func srcOf(obj *ojson.Value, luggage ...file) Source {
	s := Source{Object: obj}
	for _, l := range luggage {
		data := l.data
		s.Luggage = append(s.Luggage, LuggageSource{Name: l.name, Size: int64(len(data)),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
	}
	return s
}

// wantRule asserts err is (or wraps) an *Error with rule.
func wantRule(t testing.TB, err error, rule string) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error with rule %q, got none", rule)
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("want *Error, got %T: %v", err, err)
	}
	var all []string
	var re *RefusalError
	if errors.As(err, &re) {
		for _, it := range re.Items {
			if it.Rule == rule {
				return it
			}
			all = append(all, it.Rule)
		}
		t.Fatalf("want rule %q among %v: %v", rule, all, err)
	}
	if pe.Rule != rule {
		t.Fatalf("want rule %q, got %q: %v", rule, pe.Rule, err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("error is not one line: %q", err.Error())
	}
	return pe
}
