package pack

import (
	"bufio"
	"bytes"
	"io"

	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// payloadOf reads a pack's payload as D3 compares it: the pack object's
// canonical bytes and every luggage file's bytes, by name.
func payloadOf(t testing.TB, path string) (obj []byte, files map[string][]byte, order []string) {
	t.Helper()
	p, err := Open(path, Options{Strict: true})
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
		if int64(len(b)) != l.Size || packtest.HexSum(b) != l.SHA256 {
			t.Fatalf("%s: size/digest in Luggage wrong", l.Name)
		}
		files[l.Name] = b
		order = append(order, l.Name)
	}
	return p.Raw, files, order
}

// TestOpenRepairs: a lenient read repairs what D4 lists, says so, and
// hands back the repaired object; a strict read refuses.
func TestOpenRepairs(t *testing.T) {
	obj := packtest.Mutate(t, func(o *ojson.Value) {
		f := o.Get("passport").Get("facts").Items()[2]
		f.Set("verified", ojson.NewBool(true))
		o.Get("asks").Items()[0].Obj().Delete("id")
		o.Get("asks").Items()[0].Obj().Delete("status")
		o.Get("landing_checks").Items()[1].Obj().Delete("id")
		o.Get("landing_checks").Items()[1].Obj().Delete("required")
	})
	a := packtest.Att("a.txt", []byte("hello"))
	a.Obj().Delete("sha256")
	flat := append([]byte("\xEF\xBB\xBF"), packtest.RawFlat(t, obj, a)...)
	path := packtest.WriteTemp(t, "r.taskpack.json", flat)
	p, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var rules []string
	for _, r := range p.Repairs {
		rules = append(rules, r.Rule)
		if r.Where == "" || r.Detail == "" {
			t.Errorf("repair without where/detail: %+v", r)
		}
	}
	got := strings.Join(rules, ",")
	for _, want := range []string{RepairSeal, RepairAskID, RepairAskStatus, RepairCheckID, RepairCheckRequired, RepairAttachmentSHA, RepairBOM} {
		if !strings.Contains(got, want) {
			t.Errorf("repair %s not recorded (got %s)", want, got)
		}
	}
	o := p.Object
	if v, _ := o.Get("passport").Get("facts").Items()[2].Get("verified").Bool(); v {
		t.Error("fact not sealed in Object")
	}
	if o.Get("asks").Items()[0].Get("id").Text() != "a1" || o.Get("asks").Items()[0].Get("status").Text() != "open" {
		t.Error("ask defaults not applied")
	}
	if o.Get("landing_checks").Items()[1].Get("id").Text() != "c2" {
		t.Error("check id default not applied")
	}
	if r, _ := o.Get("landing_checks").Items()[1].Get("required").Bool(); !r {
		t.Error("check required default not applied")
	}
	// Raw stays the object as read (what a signature and the digests
	// cover), though Object is repaired in place.
	raw, _, err := ojson.Parse(p.Raw)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := raw.Get("passport").Get("facts").Items()[2].Get("verified").Bool(); !v {
		t.Error("Raw shows the repair: the fact is sealed in it")
	}
	if raw.Get("asks").Items()[0].Get("id") != nil {
		t.Error("Raw shows the repair: the ask has an id in it")
	}
	_, err = Open(path, Options{Strict: true})
	wantRule(t, err, RuleRepair)

	// A bag's non-canonical data/passport.json is a repair too.
	bag := packtest.WriteTemp(t, "n.taskpack", packtest.RawBag(t, append(ojson.Compact(packtest.RefObject(t)), '\n'), nil, nil))
	p2, err := Open(bag, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if len(p2.Repairs) != 1 || p2.Repairs[0].Rule != RepairCanonical {
		t.Errorf("repairs %+v, want one %s", p2.Repairs, RepairCanonical)
	}
	if !bytes.Equal(p2.Raw, ojson.Canonical(packtest.RefObject(t))) {
		t.Error("Raw is not the canonical form")
	}
}

// TestRetiredTPX is §8: a .tpx/0.1 file is read (mapped as the reference
// maps it), converts to a bag, and is never written.
func TestRetiredTPX(t *testing.T) {
	tpx := `{
  "tpx": "0.1", "kind": "handoff", "issued_at": "2026-08-15T11:47:56Z",
  "origin": {"actor": "贺方升", "machine": "zhuanz-win11", "harness": "claude-code"},
  "lineage": {"root_id": "TP-G6RZ-DS3B", "from_version": 2, "chain": ["TP-G6RZ-DS3B@2"]},
  "passport": {"id": "TP-G6RZ-DS3B", "title": "FDE 培训班交付", "goal": "交付体验课"},
  "facts": [{"claim": "体验课时间定为 2026-08-22", "scope": "universal", "verified": true, "source": "r1"}],
  "asks": [{"id": "a1", "what": "提供封面提示词", "accept": "一段可直接投喂的中文提示词", "status": "open"}],
  "landing_checks": [{"id": "c1", "check": "附件 sha256 一致", "how": "import 自动校验", "required": true}],
  "attachments": [{"name": "brief.txt", "encoding": "utf8", "data": "hi\n"}]
}`
	path := packtest.WriteTemp(t, "old.tpx", []byte(tpx))
	p, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Encoding != EncodingTPX {
		t.Errorf("encoding %s", p.Encoding)
	}
	o := p.Object
	if o.Get("spec").Text() != "task-passport-bag/0.1" || o.Get("packed_at").Text() != "2026-08-15T11:47:56Z" ||
		o.Get("lineage").Get("root_id").Text() != "TP-G6RZ-DS3B" || o.Get("passport").Get("facts").Items()[0].Get("claim").Text() == "" {
		t.Errorf("tpx mapped wrong: %s", ojson.Compact(o))
	}
	out := filepath.Join(t.TempDir(), "new.taskpack")
	if err := Convert(path, out, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, files, _ := payloadOf(t, out)
	if string(files["brief.txt"]) != "hi\n" {
		t.Error("tpx attachment lost")
	}
}

// TestFlatDecoding: what JavaScript would hold for odd but valid JSON text.
func TestFlatDecoding(t *testing.T) {
	cases := []struct{ json, want string }{
		{`"plain"`, "plain"},
		{`"esc \" \\ \/ \b \f \n \r \t"`, "esc \" \\ / \b \f \n \r \t"},
		{`"\u00e9\u4e2d"`, "é中"},
		{`"\ud83d\ude00"`, "😀"},
		{`"lone \ud83d end"`, "lone \uFFFD end"},
		{`"lone \ude00"`, "lone \uFFFD"},
		{`"two highs \ud83d\ud83d\ude00"`, "two highs \uFFFD😀"},
		{"\"raw 中文\"", "raw 中文"},
		{"\"bad \xff byte\"", "bad \uFFFD byte"},
	}
	for _, c := range cases {
		path := packtest.WriteTemp(t, "s", []byte(c.json))
		rc, err := openFlatData(path, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.json, got, err, c.want)
		}
	}
	// Base64 as leniently as Node: whitespace, URL-safe letters, no padding.
	for in, want := range map[string]string{
		`"aGVsbG8="`: "hello", `"aGVs\nbG8"`: "hello", `"aGVsbG8"`: "hello", `"-_-_"`: "\xfb\xff\xbf", `""`: "",
	} {
		path := packtest.WriteTemp(t, "b", []byte(in))
		rc, _ := openFlatData(path, 0, true)
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(got) != want {
			t.Errorf("base64 %s: got %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestStreamingEncoders: the flat writer's streaming encoders give the same
// bytes as the one-shot ones whatever the write boundaries.
func TestStreamingEncoders(t *testing.T) {
	text := []byte("héllo \"wörld\"\n\t中文 😀 \x01 end\\")
	for split := 1; split < len(text); split++ {
		var buf bytes.Buffer
		w := bufioWriter(&buf)
		j := &jsonStringWriter{w: w}
		j.Write(text[:split])
		j.Write(text[split:])
		w.Flush()
		want := ojson.Compact(ojson.NewString(string(text)))
		if got := `"` + buf.String() + `"`; got != string(want) {
			t.Fatalf("split %d: %s, want %s", split, got, want)
		}
		var tc = textCheck{ok: true}
		tc.Write(text[:split])
		tc.Write(text[split:])
		if !tc.done() {
			t.Fatalf("split %d: valid UTF-8 judged not text", split)
		}
	}
}

func bufioWriter(w io.Writer) *bufio.Writer { return bufio.NewWriter(w) }

// TestOpenProgress: Progress sees every payload byte, in order.
func TestOpenProgress(t *testing.T) {
	path := packtest.WriteTemp(t, "p.taskpack", packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.MixedLuggage, nil))
	var last, total int64
	calls := 0
	p, err := Open(path, Options{Progress: func(done, tot int64) {
		if done < last {
			t.Fatalf("progress went back: %d after %d", done, last)
		}
		last, total = done, tot
		calls++
	}})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if calls == 0 || last != total {
		t.Fatalf("progress ended at %d of %d after %d calls", last, total, calls)
	}
}

func TestSpecialWord(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c == '"' || c == '\\' || c < 0x20 || c >= 0x80
		for pos := 0; pos < 8; pos++ {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			v := uint64(0)
			for i := 7; i >= 0; i-- {
				v = v<<8 | uint64(b[i])
			}
			if specialWord(v) != want {
				t.Fatalf("byte %#x at %d: special %v, want %v", c, pos, !want, want)
			}
		}
	}
}

// Options.NoRaw opens the same pack without its bytes: the same object and
// the same ObjectSHA256 (the sha256 of Raw), in both encodings, and a
// non-canonical bag is still judged as written.
func TestOpenNoRaw(t *testing.T) {
	obj := packtest.RefObject(t)
	canon := ojson.Canonical(obj)
	indentedDiff := bytes.Replace(canon, []byte("\n  "), []byte("\n   "), 1) // not D1 canonical
	for name, b := range map[string][]byte{
		"bag":         packtest.BagOf(t, obj),
		"flat":        packtest.FlatOf(t, obj),
		"bag, not D1": packtest.RawBag(t, indentedDiff, nil, nil),
	} {
		ext := ".taskpack"
		if strings.HasPrefix(name, "flat") {
			ext = ".taskpack.json"
		}
		path := packtest.WriteTemp(t, "p"+ext, b)
		full, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		full.Close()
		bare, err := Open(path, Options{NoRaw: true})
		if err != nil {
			t.Fatalf("%s NoRaw: %v", name, err)
		}
		bare.Close()
		if bare.Raw != nil {
			t.Errorf("%s: NoRaw kept Raw", name)
		}
		if full.ObjectSHA256 != packtest.HexSum(full.Raw) || bare.ObjectSHA256 != full.ObjectSHA256 {
			t.Errorf("%s: ObjectSHA256 %s (NoRaw %s), want sha256 of Raw %s", name, full.ObjectSHA256, bare.ObjectSHA256, packtest.HexSum(full.Raw))
		}
		if !bytes.Equal(ojson.Canonical(bare.Object), ojson.Canonical(full.Object)) || len(bare.Repairs) != len(full.Repairs) {
			t.Errorf("%s: NoRaw read another object or other repairs (%v, %v)", name, bare.Repairs, full.Repairs)
		}
		if name != "bag, not D1" && full.ObjectSHA256 != packtest.HexSum(canon) {
			t.Errorf("%s: ObjectSHA256 is not the digest of the canonical object", name)
		}
	}
}
