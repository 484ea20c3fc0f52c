// Package packtest holds test fixtures for TaskPack readers: raw bags,
// flat files, hostile ZIPs, ZIP patching and the reference object. It
// builds packs from exactly the bytes given (no sealing, no refusals) so
// tests can build wrong packs. It is imported only by _test.go files.
package packtest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

// PatchLocalName rewrites the name in the local header of entry (same
// length), leaving the central directory as it was.
func PatchLocalName(t testing.TB, b []byte, entry, name string) []byte {
	t.Helper()
	if len(name) != len(entry) {
		t.Fatalf("%q and %q differ in length", entry, name)
	}
	out := append([]byte{}, b...)
	i := bytes.Index(out, []byte("PK\x03\x04"))
	for i >= 0 {
		n := int(binary.LittleEndian.Uint16(out[i+26:]))
		if string(out[i+30:i+30+n]) == entry {
			copy(out[i+30:], name)
			return out
		}
		j := bytes.Index(out[i+4:], []byte("PK\x03\x04"))
		if j < 0 {
			break
		}
		i += 4 + j
	}
	t.Fatalf("no local header for %q", entry)
	return nil
}

// PatchLocalField overwrites two bytes at off in the local header of entry.
func PatchLocalField(t testing.TB, b []byte, entry string, off int, v uint16) []byte {
	t.Helper()
	out := append([]byte{}, b...)
	for i := bytes.Index(out, []byte("PK\x03\x04")); i >= 0; {
		n := int(binary.LittleEndian.Uint16(out[i+26:]))
		if string(out[i+30:i+30+n]) == entry {
			binary.LittleEndian.PutUint16(out[i+off:], v)
			return out
		}
		j := bytes.Index(out[i+4:], []byte("PK\x03\x04"))
		if j < 0 {
			break
		}
		i += 4 + j
	}
	t.Fatalf("no local header for %q", entry)
	return nil
}

// ToZip64Offsets rewrites every central directory record so that its local
// header offset lives in a ZIP64 extra field (as a writer does past 4 GiB).
func ToZip64Offsets(t testing.TB, b []byte) []byte {
	t.Helper()
	eocd := len(b) - 22
	if binary.LittleEndian.Uint32(b[eocd:]) != 0x06054b50 {
		t.Fatal("no EOCD (or a comment)")
	}
	cdSize := int(binary.LittleEndian.Uint32(b[eocd+12:]))
	cdOff := int(binary.LittleEndian.Uint32(b[eocd+16:]))
	cd := b[cdOff : cdOff+cdSize]
	var ncd []byte
	for p := 0; p < len(cd); {
		nl := int(binary.LittleEndian.Uint16(cd[p+28:]))
		el := int(binary.LittleEndian.Uint16(cd[p+30:]))
		cl := int(binary.LittleEndian.Uint16(cd[p+32:]))
		if binary.LittleEndian.Uint32(cd[p+20:]) == 0xffffffff || binary.LittleEndian.Uint32(cd[p+24:]) == 0xffffffff {
			t.Fatal("sizes already ZIP64")
		}
		rec := append([]byte{}, cd[p:p+46+nl]...)
		off := binary.LittleEndian.Uint32(rec[42:])
		binary.LittleEndian.PutUint32(rec[42:], 0xffffffff)
		var ext [12]byte
		binary.LittleEndian.PutUint16(ext[0:], 1)
		binary.LittleEndian.PutUint16(ext[2:], 8)
		binary.LittleEndian.PutUint64(ext[4:], uint64(off))
		rec = append(rec, ext[:]...)
		rec = append(rec, cd[p+46+nl:p+46+nl+el+cl]...)
		binary.LittleEndian.PutUint16(rec[30:], uint16(el+12))
		ncd = append(ncd, rec...)
		p += 46 + nl + el + cl
	}
	out := append([]byte{}, b[:cdOff]...)
	out = append(out, ncd...)
	end := append([]byte{}, b[eocd:]...)
	binary.LittleEndian.PutUint32(end[12:], uint32(len(ncd)))
	return append(out, end...)
}

var TestLuggage = []File{
	{"outline.md", []byte("# Outline\n\n1. numbers\n")},
	{"figures/chart.bin", []byte{0, 1, 2, 3, 0xff, 0xfe, 'x'}},
}

func BagOf(t testing.TB, obj *ojson.Value) []byte {
	return RawBag(t, ojson.Canonical(obj), TestLuggage, nil)
}

func FlatOf(t testing.TB, obj *ojson.Value) []byte {
	var atts []*ojson.Value
	for _, l := range TestLuggage {
		atts = append(atts, Att(l.Name, l.Data))
	}
	return RawFlat(t, obj, atts...)
}

// Mutate returns a copy of the reference object changed by f.
func Mutate(t testing.TB, f func(o *ojson.Value)) *ojson.Value {
	o := RefObject(t).Clone()
	f(o)
	return o
}

const FakeGitHubToken = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

func FixTagManifest(es *[]File) {
	var tm strings.Builder
	for _, f := range *es {
		if f.Name == "bagit.txt" || f.Name == "bag-info.txt" || f.Name == "manifest-sha256.txt" {
			tm.WriteString(HexSum(f.Data) + "  " + f.Name + "\n")
		}
	}
	for i, f := range *es {
		if f.Name == "tagmanifest-sha256.txt" {
			(*es)[i].Data = []byte(tm.String())
		}
	}
}

// FixManifests rewrites the manifest and bag-info to vouch for every data/
// entry, then the tag manifest.
func FixManifests(es *[]File) {
	var m strings.Builder
	n, octets := 0, 0
	var passport []byte
	for _, f := range *es {
		if f.Name == "data/passport.json" {
			passport = f.Data
		}
		if strings.HasPrefix(f.Name, "data/") {
			m.WriteString(HexSum(f.Data) + "  " + f.Name + "\n")
			n++
			octets += len(f.Data)
		}
	}
	for i, f := range *es {
		switch f.Name {
		case "manifest-sha256.txt":
			(*es)[i].Data = []byte(m.String())
		case "bag-info.txt":
			(*es)[i].Data = []byte(BagInfo(passport, int64(octets), n))
		}
	}
	FixTagManifest(es)
}

// Seeds loads the fuzz Seeds from testdata/vectors. A fuzz target without
// Seeds fails rather than silently fuzzing from nothing.
func Seeds(f *testing.F, patterns ...string) {
	n := 0
	for _, p := range patterns {
		files, _ := filepath.Glob(p)
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("no Seeds found for %v", patterns)
	}
}

// QuickMinimize caps the fuzzer's minimising of each new interesting input
// at a quarter of a second, unless -fuzzminimizetime was given. A pack is a
// ZIP with CRCs and sha256 manifests (or JSON with sha256 sums): almost no
// cut keeps an input's coverage, so the minimiser's quadratic pass runs to
// its 60 s default on every input that finds new coverage, even a 1 KiB one,
// and the workers spent the whole run minimising (6 execs in 20 s).
// Crashers are still minimised, within the same cap.
func QuickMinimize(f *testing.F) {
	set := false
	flag.Visit(func(fl *flag.Flag) { set = set || fl.Name == "test.fuzzminimizetime" })
	if !set {
		if err := flag.Set("test.fuzzminimizetime", "250ms"); err != nil {
			f.Fatal(err)
		}
	}
}

// RefObject is the pack object of the reference handoff fixture.
func RefObject(t testing.TB) *ojson.Value {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(refDir(), "handoff.taskpack.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.ParseStrict(b)
	if err != nil {
		t.Fatal(err)
	}
	return v.Get("passport")
}

type File struct {
	Name string
	Data []byte
}

// RawBag builds a ZIP the way a conformant writer would, from exactly the
// bytes given: no sealing, no refusals, so tests can build wrong packs.
// edit may change entries (and the manifests) before they are zipped.
func RawBag(t testing.TB, passport []byte, luggage []File, edit func(entries *[]File)) []byte {
	t.Helper()
	payload := append([]File{{"data/passport.json", passport}}, prefixed(luggage)...)
	var m strings.Builder
	var octets int
	for _, p := range payload {
		fmt.Fprintf(&m, "%s  %s\n", HexSum(p.Data), p.Name)
		octets += len(p.Data)
	}
	info := BagInfo(passport, int64(octets), len(payload))
	tags := []File{{"bagit.txt", []byte("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")}, {"bag-info.txt", []byte(info)}, {"manifest-sha256.txt", []byte(m.String())}}
	var tm strings.Builder
	for _, f := range tags {
		fmt.Fprintf(&tm, "%s  %s\n", HexSum(f.Data), f.Name)
	}
	entries := append(append(tags, File{"tagmanifest-sha256.txt", []byte(tm.String())}), payload...)
	if edit != nil {
		edit(&entries)
	}
	return ZipOf(t, entries)
}

// BagInfo is bag-info.txt as D2 derives it from the pack object (given as
// bytes) and the payload's size and count, with Bag-Software-Agent "test":
// an independent statement of D2 for tests. When passport is not a JSON
// object, the labels that need one say so.
func BagInfo(passport []byte, octets int64, count int) string {
	obj, _, err := ojson.Parse(passport)
	if err != nil || obj.Kind() != ojson.Object {
		obj = ojson.NewObject()
	}
	text := func(v *ojson.Value, d string) string {
		s, _ := v.Str()
		s = strings.Join(strings.Fields(strings.ReplaceAll(strings.ReplaceAll(s, "\r", " "), "\n", " ")), " ")
		if s == "" {
			return d
		}
		return s
	}
	st := obj.Get("passport")
	id := text(st.Get("id"), "")
	date := text(obj.Get("packed_at"), "")
	if len(date) > 10 {
		date = date[:10]
	}
	return fmt.Sprintf("Bag-Software-Agent: test\nBagging-Date: %s\nExternal-Identifier: %s\nExternal-Description: %s\nSource-Organization: %s\nInternal-Sender-Identifier: %s\nPayload-Oxum: %d.%d\nBag-Spec: taskpack/0.1\n",
		date, id, text(st.Get("title"), id), text(obj.Get("origin").Get("actor"), "unknown"), text(obj.Get("origin").Get("machine"), "unknown"), octets, count)
}

func prefixed(l []File) []File {
	out := make([]File, len(l))
	for i, f := range l {
		out[i] = File{"data/files/" + f.Name, f.Data}
	}
	return out
}

func ZipOf(t testing.TB, entries []File) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.Name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.Data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func HexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// RawFlat builds a flat File around a pack object; attachments are given as
// JSON objects (so tests can leave fields out).
func RawFlat(t testing.TB, obj *ojson.Value, atts ...*ojson.Value) []byte {
	t.Helper()
	top := ojson.NewObject()
	top.Set("taskpack", ojson.NewString("0.1"))
	top.Set("encoding", ojson.NewString("flat"))
	top.Set("note_to_reader", ojson.NewString("data"))
	top.Set("passport", obj)
	top.Set("attachments", ojson.NewArray(atts...))
	return ojson.Canonical(top)
}

// Att is a flat attachment with every field right.
func Att(name string, data []byte) *ojson.Value {
	a := ojson.NewObject()
	a.Set("name", ojson.NewString(name))
	a.Set("encoding", ojson.NewString("base64"))
	a.Set("sha256", ojson.NewString(HexSum(data)))
	a.Set("bytes", ojson.NewInt(int64(len(data))))
	a.Set("data", ojson.NewString(base64.StdEncoding.EncodeToString(data)))
	return a
}

func WriteTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// HostileZip builds a ZIP whose entries are a good bag plus whatever add
// writes with the raw archive/zip writer.
func HostileZip(t testing.TB, add func(zw *zip.Writer)) []byte {
	t.Helper()
	good := BagOf(t, RefObject(t))
	zr, err := zip.NewReader(bytes.NewReader(good), int64(len(good)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	add(zw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func AddFile(name string, data []byte, edit func(fh *zip.FileHeader)) func(zw *zip.Writer) {
	return func(zw *zip.Writer) {
		fh := &zip.FileHeader{Name: name, Method: zip.Deflate}
		if edit != nil {
			edit(fh)
		}
		w, err := zw.CreateHeader(fh)
		if err != nil {
			panic(err)
		}
		w.Write(data)
	}
}

func Zeros(n int) []byte { return make([]byte, n) }

// ReferenceCLI finds the reference implementation (task-passport 0.3.0,
// JavaScript): $TP_REFERENCE_DIR names a checkout holding cli.js. It is
// never part of this repository. The test is skipped when node or the
// reference is missing.
func ReferenceCLI(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	d := os.Getenv("TP_REFERENCE_DIR")
	if d == "" {
		t.Skip("TP_REFERENCE_DIR is not set (a task-passport 0.3.0 checkout; see INTEROP.md)")
	}
	return filepath.Join(d, "cli.js")
}

type RefReport struct {
	OK     bool `json:"ok"`
	Checks []struct {
		ID     string `json:"id"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	} `json:"checks"`
}

func RefConformance(t *testing.T, cli, path string) RefReport {
	t.Helper()
	out, _ := exec.Command("node", cli, "conformance", path).Output()
	var r RefReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("reference conformance of %s: %v: %s", path, err, out)
	}
	return r
}

func MustZipEntry(t testing.TB, path, name string) io.Reader {
	zr, m := ReadZip(t, path)
	zr.Close()
	return bytes.NewReader(m[name])
}

func EqualFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func WithoutNote(t testing.TB, b []byte) []byte {
	v, err := ojson.ParseStrict(b)
	if err != nil {
		t.Fatal(err)
	}
	v.Set("note_to_reader", ojson.NewString(""))
	return ojson.Canonical(v)
}

var MixedLuggage = func() []File {
	rnd := make([]byte, 200<<10)
	rand.Read(rnd)
	return []File{
		{"outline.md", []byte("# Outline\n\n" + strings.Repeat("Revenue by region, not by product.\n", 4000))},
		{"figures/noise.bin", rnd},
		{"nul.txt", []byte("text with a NUL\x00 inside")},
		{"latin1.txt", []byte("caf\xe9")},
		{"empty", nil},
		{"100%/odd name é.txt", []byte("percent and accents")},
	}
}()

func ReadZip(t testing.TB, path string) (*zip.ReadCloser, map[string][]byte) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		m[f.Name] = b
	}
	return zr, m
}

// SparseFile is luggage of size bytes of Zeros with a marker at the end,
// made without writing the Zeros to disk.
func SparseFile(t *testing.T, size int64) string {
	p := filepath.Join(t.TempDir(), "huge.bin")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size - 4); err != nil {
		t.Fatal(err)
	}
	f.Seek(size-4, io.SeekStart)
	f.Write([]byte("end\n"))
	f.Close()
	return p
}

// refDir is pack/testdata/ref, found from this file so that every test
// package reads the same fixture whatever its working directory.
func refDir() string {
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		panic("packtest: cannot locate its own source")
	}
	return filepath.Join(filepath.Dir(self), "..", "..", "pack", "testdata", "ref")
}

// FakePrivateKey is an OpenSSH private key block in its file's shape
// (header, a body wrapped at 70 columns that starts as every OpenSSH key
// body does, footer) with made-up bytes: something the credential scan
// must find, built at test time so no key sits in the source.
func FakePrivateKey() string {
	dash5 := strings.Repeat("-", 5)
	body := []byte("openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01")
	for i := 0; len(body) < 400; i++ {
		body = append(body, byte(i*131+7))
	}
	enc := base64.StdEncoding.EncodeToString(body)
	var b strings.Builder
	b.WriteString(dash5 + "BEGIN OPENSSH PRIVATE KEY" + dash5 + "\n")
	for len(enc) > 70 {
		b.WriteString(enc[:70] + "\n")
		enc = enc[70:]
	}
	b.WriteString(enc + "\n" + dash5 + "END OPENSSH PRIVATE KEY" + dash5 + "\n")
	return b.String()
}
