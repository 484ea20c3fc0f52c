package pack

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// TestWriteBagIsABag checks what bagit.py checks, structurally: bagit.txt,
// every payload file in the manifest with its digest and nothing else,
// Payload-Oxum, the tag manifest; plus D2's entry order and bag-info fields.
func TestWriteBagIsABag(t *testing.T) {
	obj := packtest.RefObject(t)
	path := filepath.Join(t.TempDir(), "out.taskpack")
	if err := Write(path, srcOf(obj, packtest.MixedLuggage...), EncodingBag, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	zr, m := packtest.ReadZip(t, path)
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	want := []string{"bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt", "data/passport.json"}
	for _, l := range packtest.MixedLuggage {
		want = append(want, "data/files/"+l.Name)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("entries %v\nwant (D2) %v", names, want)
	}
	if got := BagEntries(srcOf(obj, packtest.MixedLuggage...)); !slices.Equal(got, names) {
		t.Errorf("BagEntries %v, the bag has %v", got, names)
	}
	if string(m["bagit.txt"]) != "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n" {
		t.Errorf("bagit.txt = %q", m["bagit.txt"])
	}
	if !bytes.Equal(m["data/passport.json"], ojson.Canonical(obj)) {
		t.Error("data/passport.json is not the canonical pack object")
	}
	manifest, err := parseManifest(m["manifest-sha256.txt"])
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, l := range manifest {
		listed[l.path] = l.digest
	}
	octets, count := 0, 0
	for name, b := range m {
		if !strings.HasPrefix(name, "data/") {
			continue
		}
		octets += len(b)
		count++
		if listed[name] != packtest.HexSum(b) {
			t.Errorf("%s: manifest digest %q, bytes %s", name, listed[name], packtest.HexSum(b))
		}
		delete(listed, name)
	}
	if len(listed) > 0 {
		t.Errorf("manifest lists files not in the bag: %v", listed)
	}
	info, _ := parseTagLines(m["bag-info.txt"])
	for k, v := range map[string]string{
		"Bag-Software-Agent": "tp", "Bagging-Date": "2026-09-03", "External-Identifier": "TP-K7WF-3NQX",
		"External-Description": "Prepare the Q4 board deck", "Source-Organization": "Maria",
		"Internal-Sender-Identifier": "studio-imac", "Bag-Spec": "taskpack/0.1",
		"Payload-Oxum": itoa(octets) + "." + itoa(count),
	} {
		if info[k] != v {
			t.Errorf("bag-info %s = %q, want %q", k, info[k], v)
		}
	}
	tm, _ := parseManifest(m["tagmanifest-sha256.txt"])
	if len(tm) != 3 {
		t.Errorf("tagmanifest lists %d files, want 3", len(tm))
	}
	for _, l := range tm {
		if packtest.HexSum(m[l.path]) != l.digest {
			t.Errorf("tagmanifest: %s does not verify", l.path)
		}
	}
	// Incompressible luggage is stored, text is deflated.
	for _, f := range zr.File {
		switch f.Name {
		case "data/files/figures/noise.bin":
			if f.Method != zip.Store {
				t.Errorf("random bytes were deflated")
			}
		case "data/files/outline.md":
			if f.Method != zip.Deflate {
				t.Errorf("text was stored")
			}
		}
	}
	// The percent-encoded manifest path (BagIt §2.1.3) round-trips.
	if !bytes.Contains(m["manifest-sha256.txt"], []byte("data/files/100%25/odd name é.txt")) {
		t.Error("% in a manifest path is not percent-encoded")
	}
	// judge.TestOwnWritesAreConformant judges the same file.
	bagitPy(t, path)
}

// bagitPy validates the unzipped bag with the Library of Congress bagit.py
// when python3 can import it.
func bagitPy(t *testing.T, path string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil || exec.Command(py, "-c", "import bagit").Run() != nil {
		t.Log("bagit.py not importable; structural checks only")
		return
	}
	dir := t.TempDir()
	zr, m := packtest.ReadZip(t, path)
	zr.Close()
	for name, b := range m {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, b, 0o644)
	}
	out, err := exec.Command(py, "-c", "import bagit,sys; bagit.Bag(sys.argv[1]).validate(); print('valid')", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("bagit.py: %v\n%s", err, out)
	}
}

// TestWriteFlat checks the flat form: D1 canonical bytes, utf8 exactly when
// the bytes are valid UTF-8 without NUL (D3), sha256 and bytes per
// attachment, note_to_reader.
func TestWriteFlat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.taskpack.json")
	if err := Write(path, srcOf(packtest.RefObject(t), packtest.MixedLuggage...), EncodingFlat, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	v, err := ojson.ParseStrict(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ojson.Canonical(v), b) {
		t.Fatal("flat file is not JSON.stringify(v, null, 2) + newline")
	}
	if v.Get("taskpack").Text() != "0.1" || v.Get("encoding").Text() != "flat" || v.Get("note_to_reader").Text() == "" {
		t.Error("flat header fields wrong")
	}
	wantEnc := map[string]string{"outline.md": "utf8", "figures/noise.bin": "base64", "nul.txt": "base64",
		"latin1.txt": "base64", "empty": "utf8", "100%/odd name é.txt": "utf8"}
	for i, a := range v.Get("attachments").Items() {
		l := packtest.MixedLuggage[i]
		if a.Get("name").Text() != l.Name {
			t.Fatalf("attachment %d is %q, want %q (order kept)", i, a.Get("name").Text(), l.Name)
		}
		if got := a.Get("encoding").Text(); got != wantEnc[l.Name] {
			t.Errorf("%s: encoding %s, want %s", l.Name, got, wantEnc[l.Name])
		}
		var data []byte
		if a.Get("encoding").Text() == "base64" {
			data, _ = base64.StdEncoding.DecodeString(a.Get("data").Text())
		} else {
			data = []byte(a.Get("data").Text())
		}
		if !bytes.Equal(data, l.Data) {
			t.Errorf("%s: data does not decode to the bytes", l.Name)
		}
		if n, _ := a.Get("bytes").Int(); n != int64(len(l.Data)) || a.Get("sha256").Text() != packtest.HexSum(l.Data) {
			t.Errorf("%s: bytes/sha256 wrong", l.Name)
		}
	}
	// judge.TestOwnWritesAreConformant judges the same file.
}

func TestWriteFlatInlineLimit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.taskpack.json")
	big := file{Name: "scan.tiff", Data: bytes.Repeat([]byte{7}, MaxInlineBytes+1)}
	err := Write(path, srcOf(packtest.RefObject(t), big), EncodingFlat, WriteOptions{})
	e := wantRule(t, err, RuleInlineLimit)
	if e.Entry != "scan.tiff" || !strings.Contains(e.Detail, "1 MiB") || !strings.Contains(e.Detail, ".taskpack") {
		t.Errorf("the refusal does not say why: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("a refused flat file was written")
	}
	if err := Write(path, srcOf(packtest.RefObject(t), big), EncodingFlat, WriteOptions{AllowLarge: true}); err != nil {
		t.Fatal(err)
	}
	// Exactly 1 MiB is allowed.
	ok := file{Name: "ok.bin", Data: bytes.Repeat([]byte{7}, MaxInlineBytes)}
	if err := Write(filepath.Join(dir, "ok.taskpack.json"), srcOf(packtest.RefObject(t), ok), EncodingFlat, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestRefusalsNameEverything is §4.1, §4.3, §4.5, D5, D13: nothing is
// written, and the error names every offending field and file with its rule.
func TestRefusalsNameEverything(t *testing.T) {
	obj := packtest.Mutate(t, func(o *ojson.Value) {
		o.Get("passport").Get("facts").Items()[0].Set("source", ojson.NewString("see "+packtest.FakeGitHubToken))
		o.Get("passport").Set("current_state", ojson.NewString("User: please fix it\nAssistant: ok, fixing"))
		o.Set("how_to_use_this_file", ojson.NewString("Read me first"))
		o.Get("asks").Items()[0].Obj().Delete("accept")
		o.Get("asks").Items()[1].Set("what", ojson.NewString(""))
	})
	deep := append(bytes.Repeat([]byte("x"), 3<<20), []byte(" AKIAIOSFODNN7EXAMPL3 ")...)
	dir := t.TempDir()
	path := filepath.Join(dir, "refused.taskpack")
	err := Write(path, srcOf(obj, file{Name: "ok.txt", Data: []byte("fine")}, file{Name: "deep.log", Data: deep}), EncodingBag, WriteOptions{})
	var re *RefusalError
	if !errors.As(err, &re) {
		t.Fatalf("want a RefusalError, got %v", err)
	}
	for _, want := range []struct{ rule, where string }{
		{RuleCredential, "passport.facts[0].source"},
		{RuleTranscript, "passport.current_state"},
		{RuleInstruction, "how_to_use_this_file"},
		{RuleAskAccept, "asks[0]"},
		{RuleAskWhat, "asks[1]"},
		{RuleCredential, "data/files/deep.log"},
	} {
		found := false
		for _, it := range re.Items {
			if it.Rule == want.rule && strings.Contains(it.Entry, want.where) {
				found = true
			}
		}
		if !found {
			t.Errorf("refusal does not name %s (%s): %v", want.where, want.rule, err)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Error("refusal is not one line")
	}
	if want := fmt.Sprintf("refusing to pack: %d problems: ", len(re.Items)); !strings.HasPrefix(err.Error(), want) {
		t.Errorf("refusal does not start %q: %v", want, err)
	}
	one := &RefusalError{Items: re.Items[:1]}
	if !strings.HasPrefix(one.Error(), "refusing to pack: 1 problem: ") {
		t.Errorf("one refusal reads %q", one.Error())
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("a refused pack left files: %v", left)
	}
	if Refusals(srcOf(packtest.RefObject(t), packtest.MixedLuggage...)) != nil {
		t.Error("the reference pack is refused")
	}
}

type brokenLuggage struct{ n int }

func (f *brokenLuggage) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("disk on fire")
	}
	k := min(len(p), f.n)
	f.n -= k
	for i := range p[:k] {
		p[i] = 'a'
	}
	return k, nil
}

// TestWriteAtomic: a write that fails half-way leaves the old file as it was
// and no temporary file behind.
func TestWriteAtomic(t *testing.T) {
	for _, enc := range []Encoding{EncodingBag, EncodingFlat} {
		dir := t.TempDir()
		path := filepath.Join(dir, "p")
		os.WriteFile(path, []byte("old contents"), 0o644)
		calls := 0
		src := Source{Object: packtest.RefObject(t), Luggage: []LuggageSource{{Name: "x.txt", Size: 1 << 20, Open: func() (io.ReadCloser, error) {
			calls++
			if calls == 1 {
				return io.NopCloser(bytes.NewReader(bytes.Repeat([]byte("a"), 300<<10))), nil
			}
			return io.NopCloser(&brokenLuggage{n: 200 << 10}), nil
		}}}}
		err := Write(path, src, enc, WriteOptions{AllowLarge: true})
		if err == nil {
			t.Fatal("write with failing luggage succeeded")
		}
		if b, _ := os.ReadFile(path); string(b) != "old contents" {
			t.Errorf("%s: the existing file was changed", enc)
		}
		if left, _ := os.ReadDir(dir); len(left) != 1 {
			t.Errorf("%s: files left behind: %v", enc, left)
		}
	}
}

// TestWriteChangedLuggage: bytes that change between the scan and the write
// are not packed unscanned.
func TestWriteChangedLuggage(t *testing.T) {
	calls := 0
	src := Source{Object: packtest.RefObject(t), Luggage: []LuggageSource{{Name: "x.txt", Open: func() (io.ReadCloser, error) {
		calls++
		if calls == 1 {
			return io.NopCloser(strings.NewReader("harmless")), nil
		}
		return io.NopCloser(strings.NewReader("token " + packtest.FakeGitHubToken)), nil
	}}}}
	path := filepath.Join(t.TempDir(), "p.taskpack")
	if err := Write(path, src, EncodingBag, WriteOptions{}); err == nil {
		t.Fatal("luggage that changed after scanning was packed")
	}
}

func TestWriteDeterministic(t *testing.T) {
	dir := t.TempDir()
	for _, enc := range []Encoding{EncodingBag, EncodingFlat} {
		a, b := filepath.Join(dir, "a"+string(enc)), filepath.Join(dir, "b"+string(enc))
		Write(a, srcOf(packtest.RefObject(t), packtest.MixedLuggage[:3]...), enc, WriteOptions{})
		Write(b, srcOf(packtest.RefObject(t), packtest.MixedLuggage[:3]...), enc, WriteOptions{})
		x, _ := os.ReadFile(a)
		y, _ := os.ReadFile(b)
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: the same pack written twice differs", enc)
		}
	}
}

func TestWriteRefusesWhatReadersRefuse(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		src  Source
		rule string
	}{
		"unknown kind":   {srcOf(packtest.Mutate(t, func(o *ojson.Value) { o.Set("kind", ojson.NewString("memo")) })), RuleKind},
		"unknown spec":   {srcOf(packtest.Mutate(t, func(o *ojson.Value) { o.Set("spec", ojson.NewString("x")) })), RuleSpec},
		"traversal":      {srcOf(packtest.RefObject(t), file{Name: "../x", Data: nil}), RulePathTraversal},
		"absolute":       {srcOf(packtest.RefObject(t), file{Name: "/x", Data: nil}), RulePathAbsolute},
		"backslash":      {srcOf(packtest.RefObject(t), file{Name: `a\b`, Data: nil}), RulePathBackslash},
		"duplicate":      {srcOf(packtest.RefObject(t), file{Name: "A.txt", Data: nil}, file{Name: "a.txt", Data: nil}), RuleDuplicate},
		"file is folder": {srcOf(packtest.RefObject(t), file{Name: "a", Data: nil}, file{Name: "a/b", Data: nil}), RuleDuplicate},
	} {
		path := filepath.Join(dir, "p.taskpack")
		err := Write(path, c.src, EncodingBag, WriteOptions{})
		if err == nil {
			t.Errorf("%s: written", name)
			continue
		}
		wantRule(t, err, c.rule)
	}
	wantRule(t, Write(filepath.Join(dir, "p.tpx"), srcOf(packtest.RefObject(t)), EncodingTPX, WriteOptions{}), RuleWrite)
}

// TestWriteSeals: the writer seals on a copy (§4.2) and leaves the caller's
// object alone.
func TestWriteSeals(t *testing.T) {
	obj := packtest.Mutate(t, func(o *ojson.Value) {
		f := o.Get("passport").Get("facts").Items()[2]
		f.Set("verified", ojson.NewBool(true))
		f.Obj().Delete("needs_reverify")
		f.Obj().Delete("verified_on")
	})
	before := ojson.Canonical(obj)
	path := filepath.Join(t.TempDir(), "p.taskpack")
	if err := Write(path, srcOf(obj), EncodingBag, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, ojson.Canonical(obj)) {
		t.Error("Write changed the caller's object")
	}
	p, err := Open(path, Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f := p.Object.Get("passport").Get("facts").Items()[2]
	if v, _ := f.Get("verified").Bool(); v || f.Get("verified_on").Text() != "studio-imac" {
		t.Errorf("fact not sealed: %s", ojson.Compact(f))
	}
}

// bombLimits are a reader's limits small enough for a small bomb: Go's
// fastest deflate makes zeros about 820:1, past their 100:1 for anything
// over their 64 KiB floor, where D10's 1000:1 needs hundreds of MiB and a
// slower deflate to be passed at all. The writer is given the same limits.
var bombLimits = Limits{MaxRatio: 100, RatioFloor: 64 << 10}

// TestWriteNeverABomb: luggage so repetitive that deflate would pass the
// ratio D10 refuses is written so that tp's own reader, with the same
// limits, accepts it.
func TestWriteNeverABomb(t *testing.T) {
	t.Parallel()
	const size = 4 << 20
	src := Source{Object: packtest.RefObject(t), Luggage: []LuggageSource{{Name: "zeros.img", Size: size,
		Open: func() (io.ReadCloser, error) { return io.NopCloser(io.LimitReader(zeroReader{}, size)), nil }}}}
	path := filepath.Join(t.TempDir(), "z.taskpack")
	if err := Write(path, src, EncodingBag, WriteOptions{ReadLimits: bombLimits}); err != nil {
		t.Fatal(err)
	}
	p, err := Open(path, Options{Strict: true, Limits: bombLimits})
	if err != nil {
		t.Fatalf("tp refuses its own pack: %v", err)
	}
	p.Close()
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestWriteNeverABombAfterAVariedStart: the store/deflate choice samples
// only the first 64 KiB. A file that starts varied (so it is deflated
// normally, not Huffman-only) and then runs into zeros must still come out
// under the ratio tp's own reader refuses (D10; bombLimits).
func TestWriteNeverABombAfterAVariedStart(t *testing.T) {
	t.Parallel()
	head := make([]byte, sampleBytes)
	rng := uint32(1)
	for i := range head {
		// mostly zeros with a random byte every 64: compressible, but far
		// below the 50:1 that switches to Huffman-only coding.
		if i%64 == 0 {
			rng = rng*1664525 + 1013904223
			head[i] = byte(rng >> 24)
		}
	}
	if r := compressRatio(head); r <= 10.0/9 || r > 50 {
		t.Fatalf("the head deflates %.1f:1; the test needs a deflated, not Huffman-only, entry", r)
	}
	const zeros = 8 << 20
	size := int64(len(head)) + zeros
	src := Source{Object: packtest.RefObject(t), Luggage: []LuggageSource{{Name: "disk.img", Size: size,
		Open: func() (io.ReadCloser, error) {
			return io.NopCloser(io.MultiReader(bytes.NewReader(head), io.LimitReader(zeroReader{}, zeros))), nil
		}}}}
	path := filepath.Join(t.TempDir(), "v.taskpack")
	if err := Write(path, src, EncodingBag, WriteOptions{ReadLimits: bombLimits}); err != nil {
		t.Fatal(err)
	}
	p, err := Open(path, Options{Strict: true, Limits: bombLimits})
	if err != nil {
		t.Fatalf("tp refuses its own pack: %v", err)
	}
	p.Close()
}
