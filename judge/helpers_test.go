package judge

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/pack"
)

// from pack/bag_local_test.go
// patchLocalName rewrites the name in the local header of entry (same
// length), leaving the central directory as it was.
func patchLocalName(t testing.TB, b []byte, entry, name string) []byte {
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

// from pack/bag_local_test.go
// patchLocalField overwrites two bytes at off in the local header of entry.
func patchLocalField(t testing.TB, b []byte, entry string, off int, v uint16) []byte {
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

// from pack/bag_local_test.go
// toZip64Offsets rewrites every central directory record so that its local
// header offset lives in a ZIP64 extra field (as a writer does past 4 GiB).
func toZip64Offsets(t testing.TB, b []byte) []byte {
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

// from pack/bench_test.go
// genLuggage writes n bytes of generated luggage: random (incompressible)
// or text (compressible, like logs and source).
func genLuggage(b *testing.B, dir, name string, n int64, text bool) pack.LuggageSource {
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewSource(int64(len(name))))
	buf := make([]byte, 1<<20)
	words := []string{"revenue ", "region ", "slide ", "deck ", "close ", "numbers ", "EMEA ", "APAC ", "\n", "2026-09-03 ", "ok "}
	for written := int64(0); written < n; {
		if text {
			buf = buf[:0]
			for len(buf) < 1<<20-16 {
				buf = append(buf, words[r.Intn(len(words))]...)
			}
		} else {
			buf = buf[:1<<20]
			r.Read(buf)
		}
		k := int64(len(buf))
		if written+k > n {
			k = n - written
		}
		f.Write(buf[:k])
		written += k
	}
	f.Close()
	return pack.LuggageSource{Name: name, Size: n, Open: func() (io.ReadCloser, error) { return os.Open(p) }}
}

// from pack/bench_test.go
const benchBytes = 64 << 20

// from pack/bench_test.go
func benchSource(b *testing.B) (pack.Source, string) {
	dir := b.TempDir()
	src := pack.Source{Object: refObject(b)}
	src.Luggage = append(src.Luggage,
		genLuggage(b, dir, "random.bin", benchBytes/2, false),
		genLuggage(b, dir, "text.log", benchBytes/2, true))
	return src, dir
}

// from pack/conformance_test.go
var testLuggage = []file{
	{"outline.md", []byte("# Outline\n\n1. numbers\n")},
	{"figures/chart.bin", []byte{0, 1, 2, 3, 0xff, 0xfe, 'x'}},
}

// from pack/conformance_test.go
func bagOf(t testing.TB, obj *ojson.Value) []byte {
	return rawBag(t, ojson.Canonical(obj), testLuggage, nil)
}

// from pack/conformance_test.go
func flatOf(t testing.TB, obj *ojson.Value) []byte {
	var atts []*ojson.Value
	for _, l := range testLuggage {
		atts = append(atts, att(l.name, l.data))
	}
	return rawFlat(t, obj, atts...)
}

// from pack/conformance_test.go
// mutate returns a copy of the reference object changed by f.
func mutate(t testing.TB, f func(o *ojson.Value)) *ojson.Value {
	o := refObject(t).Clone()
	f(o)
	return o
}

// from pack/conformance_test.go
const fakeGitHubToken = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

// from pack/conformance_test.go
func fixTagManifest(es *[]file) {
	var tm strings.Builder
	for _, f := range *es {
		if f.name == "bagit.txt" || f.name == "bag-info.txt" || f.name == "manifest-sha256.txt" {
			tm.WriteString(hexSum(f.data) + "  " + f.name + "\n")
		}
	}
	for i, f := range *es {
		if f.name == "tagmanifest-sha256.txt" {
			(*es)[i].data = []byte(tm.String())
		}
	}
}

// from pack/conformance_test.go
// fixManifests rewrites the manifest and bag-info to vouch for every data/
// entry, then the tag manifest.
func fixManifests(es *[]file) {
	var m strings.Builder
	n, octets := 0, 0
	for _, f := range *es {
		if strings.HasPrefix(f.name, "data/") {
			m.WriteString(hexSum(f.data) + "  " + f.name + "\n")
			n++
			octets += len(f.data)
		}
	}
	for i, f := range *es {
		switch f.name {
		case "manifest-sha256.txt":
			(*es)[i].data = []byte(m.String())
		case "bag-info.txt":
			(*es)[i].data = []byte("Payload-Oxum: " + strconv.Itoa(octets) + "." + strconv.Itoa(n) + "\n")
		}
	}
	fixTagManifest(es)
}

// from pack/fuzz_test.go
// seeds loads the fuzz seeds from testdata/vectors. A fuzz target without
// seeds fails rather than silently fuzzing from nothing.
func seeds(f *testing.F, patterns ...string) {
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
		f.Fatalf("no seeds found for %v", patterns)
	}
}

// from pack/fuzz_test.go
// quickMinimize caps the fuzzer's minimising of each new interesting input
// at a quarter of a second, unless -fuzzminimizetime was given. A pack is a
// ZIP with CRCs and sha256 manifests (or JSON with sha256 sums): almost no
// cut keeps an input's coverage, so the minimiser's quadratic pass runs to
// its 60 s default on every input that finds new coverage, even a 1 KiB one,
// and the workers spent the whole run minimising (6 execs in 20 s).
// Crashers are still minimised, within the same cap.
func quickMinimize(f *testing.F) {
	set := false
	flag.Visit(func(fl *flag.Flag) { set = set || fl.Name == "test.fuzzminimizetime" })
	if !set {
		if err := flag.Set("test.fuzzminimizetime", "250ms"); err != nil {
			f.Fatal(err)
		}
	}
}

// from pack/helpers_test.go
// refObject is the pack object of the reference handoff fixture.
func refObject(t testing.TB) *ojson.Value {
	t.Helper()
	b, err := os.ReadFile("../pack/testdata/ref/handoff.taskpack.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.ParseStrict(b)
	if err != nil {
		t.Fatal(err)
	}
	return v.Get("passport")
}

// from pack/helpers_test.go
type file struct {
	name string
	data []byte
}

// from pack/helpers_test.go
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
	tags := []file{{"bagit.txt", []byte("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")}, {"bag-info.txt", []byte(info)}, {"manifest-sha256.txt", []byte(m.String())}}
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

// from pack/helpers_test.go
func prefixed(l []file) []file {
	out := make([]file, len(l))
	for i, f := range l {
		out[i] = file{"data/files/" + f.name, f.data}
	}
	return out
}

// from pack/helpers_test.go
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

// from pack/helpers_test.go
func hexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// from pack/helpers_test.go
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

// from pack/helpers_test.go
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

// from pack/helpers_test.go
func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// from pack/helpers_test.go
// srcOf makes a pack.Source from in-memory luggage.
func srcOf(obj *ojson.Value, luggage ...file) pack.Source {
	s := pack.Source{Object: obj}
	for _, l := range luggage {
		data := l.data
		s.Luggage = append(s.Luggage, pack.LuggageSource{Name: l.name, Size: int64(len(data)),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
	}
	return s
}

// from pack/helpers_test.go
// wantRule asserts err is (or wraps) an *pack.Error with rule.
func wantRule(t testing.TB, err error, rule string) *pack.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error with rule %q, got none", rule)
	}
	var pe *pack.Error
	if !errors.As(err, &pe) {
		t.Fatalf("want *pack.Error, got %T: %v", err, err)
	}
	var all []string
	var re *pack.RefusalError
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

// from pack/hostile_test.go
// hostileZip builds a ZIP whose entries are a good bag plus whatever add
// writes with the raw archive/zip writer.
func hostileZip(t testing.TB, add func(zw *zip.Writer)) []byte {
	t.Helper()
	good := bagOf(t, refObject(t))
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

// from pack/hostile_test.go
func addFile(name string, data []byte, edit func(fh *zip.FileHeader)) func(zw *zip.Writer) {
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

// from pack/hostile_test.go
func zeros(n int) []byte { return make([]byte, n) }

// from pack/reference_test.go
// referenceCLI finds the reference implementation (task-passport 0.3.0,
// JavaScript): $TP_REFERENCE_DIR names a checkout holding cli.js. It is
// never part of this repository. The test is skipped when node or the
// reference is missing.
func referenceCLI(t *testing.T) string {
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

// from pack/reference_test.go
type refReport struct {
	OK     bool `json:"ok"`
	Checks []struct {
		ID     string `json:"id"`
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
	} `json:"checks"`
}

// from pack/reference_test.go
func refConformance(t *testing.T, cli, path string) refReport {
	t.Helper()
	out, _ := exec.Command("node", cli, "conformance", path).Output()
	var r refReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("reference conformance of %s: %v: %s", path, err, out)
	}
	return r
}

// from pack/roundtrip_test.go
// payloadOf reads a pack's payload as D3 compares it: the pack object's
// canonical bytes and every luggage file's bytes, by name.
func payloadOf(t testing.TB, path string) (obj []byte, files map[string][]byte, order []string) {
	t.Helper()
	p, err := pack.Open(path, pack.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	files = map[string][]byte{}
	for _, l := range p.Luggage {
		rc, err := p.OpenLuggage(l.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(b)) != l.Size || hexSum(b) != l.SHA256 {
			t.Fatalf("%s: size/digest in pack.Luggage wrong", l.Name)
		}
		files[l.Name] = b
		order = append(order, l.Name)
	}
	return p.Raw, files, order
}

// from pack/roundtrip_test.go
func mustZipEntry(t testing.TB, path, name string) io.Reader {
	zr, m := readZip(t, path)
	zr.Close()
	return bytes.NewReader(m[name])
}

// from pack/roundtrip_test.go
func equalFiles(a, b map[string][]byte) bool {
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

// from pack/roundtrip_test.go
func withoutNote(t testing.TB, b []byte) []byte {
	v, err := ojson.ParseStrict(b)
	if err != nil {
		t.Fatal(err)
	}
	v.Set("note_to_reader", ojson.NewString(""))
	return ojson.Canonical(v)
}

// from pack/write_test.go
var mixedLuggage = func() []file {
	rnd := make([]byte, 200<<10)
	rand.Read(rnd)
	return []file{
		{"outline.md", []byte("# Outline\n\n" + strings.Repeat("Revenue by region, not by product.\n", 4000))},
		{"figures/noise.bin", rnd},
		{"nul.txt", []byte("text with a NUL\x00 inside")},
		{"latin1.txt", []byte("caf\xe9")},
		{"empty", nil},
		{"100%/odd name é.txt", []byte("percent and accents")},
	}
}()

// from pack/write_test.go
func readZip(t testing.TB, path string) (*zip.ReadCloser, map[string][]byte) {
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

// from pack/zip64_test.go
// sparseFile is luggage of size bytes of zeros with a marker at the end,
// made without writing the zeros to disk.
func sparseFile(t *testing.T, size int64) string {
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
