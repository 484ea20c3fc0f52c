package ojson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCanonicalGolden(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty object", `{}`, "{}\n"},
		{"empty array", `[]`, "[]\n"},
		{"nested empties", `{"a":{},"b":[]}`, "{\n  \"a\": {},\n  \"b\": []\n}\n"},
		{"key order kept", `{"z":1,"a":2}`, "{\n  \"z\": 1,\n  \"a\": 2\n}\n"},
		{"integer keys first ascending", `{"b":1,"10":2,"2":3,"01":4,"-1":5}`, "{\n  \"2\": 3,\n  \"10\": 2,\n  \"b\": 1,\n  \"01\": 4,\n  \"-1\": 5\n}\n"},
		{"max array index", `{"x":0,"4294967295":1,"4294967294":2}`, "{\n  \"4294967294\": 2,\n  \"x\": 0,\n  \"4294967295\": 1\n}\n"},
		{"duplicate keeps first place, last value", `{"a":1,"b":2,"a":3}`, "{\n  \"a\": 3,\n  \"b\": 2\n}\n"},
		{"numbers", `[1e21,1e20,1e-7,0.000001,-0,0.1,100,1.5e300,-2.5E-3,123456789012345678901234567890]`,
			"[\n  1e+21,\n  100000000000000000000,\n  1e-7,\n  0.000001,\n  0,\n  0.1,\n  100,\n  1.5e+300,\n  -0.0025,\n  1.2345678901234568e+29\n]\n"},
		{"overflow is null", `[1e400,-1e400]`, "[\n  null,\n  null\n]\n"},
		{"escapes", `"a\"b\\c\/d\b\f\n\r\t\u0001\u001f\u007f"`, "\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\\u0001\\u001f\u007f\"\n"},
		{"no html escaping", `"<a&b>"`, "\"<a&b>\"\n"},
		{"unicode literal", `"\u00e9\u4e2d\u2028"`, "\"é中\u2028\"\n"},
		{"surrogate pair joins", `"\ud83d\ude00"`, "\"😀\"\n"},
		{"lone high surrogate", `"a\ud800b"`, "\"a\\ud800b\"\n"},
		{"lone low surrogate", `"\uDC00"`, "\"\\udc00\"\n"},
		{"reversed pair stays two", `"\udc00\ud800"`, "\"\\udc00\\ud800\"\n"},
		{"literals", `[true,false,null]`, "[\n  true,\n  false,\n  null\n]\n"},
		{"whitespace", " \t\r\n{ \"a\" : [ 1 , 2 ] }\n ", "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Canonicalize(%s)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{
		``, ` `, `{`, `[1,]`, `{"a":1,}`, `{a:1}`, `'a'`, `01`, `1.`, `.5`, `-`, `1e`, `+1`,
		`NaN`, `Infinity`, `tru`, `nul`, `"abc`, "\"a\x01b\"", `"\x"`, `"\u12"`, `{} {}`,
		`[1 2]`, `{"a" 1}`, `"\u00G0"`, "\"\t\"",
	} {
		if _, _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) accepted malformed JSON", in)
		}
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	_, _, err := Parse([]byte("{\n  \"a\": 1,\n  \"b\" 2\n}"))
	se, ok := err.(*SyntaxError)
	if !ok {
		t.Fatalf("want *SyntaxError, got %T %v", err, err)
	}
	if se.Line != 3 {
		t.Errorf("line = %d, want 3 (%v)", se.Line, se)
	}
}

func TestQuirks(t *testing.T) {
	_, q, err := Parse([]byte("\xEF\xBB\xBF{\"a\":\"\xff\",\"a\":1}"))
	if err != nil {
		t.Fatal(err)
	}
	if !q.BOM || !q.InvalidUTF8 || len(q.DuplicateKeys) != 1 {
		t.Errorf("quirks = %+v", q)
	}
	for _, in := range []string{"\xEF\xBB\xBF{}", "\"\xff\"", `{"a":1,"a":2}`} {
		if _, err := ParseStrict([]byte(in)); err == nil {
			t.Errorf("ParseStrict(%q) accepted a quirk", in)
		}
	}
	if _, err := ParseStrict([]byte(`{"a":"é"}`)); err != nil {
		t.Errorf("ParseStrict rejected clean input: %v", err)
	}
}

func TestDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)
	if _, _, err := Parse([]byte(deep)); err == nil {
		t.Error("accepted nesting past MaxDepth")
	}
	ok := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if _, _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("rejected 100 levels: %v", err)
	}
}

func TestObjSetOrder(t *testing.T) {
	v := NewObject()
	v.Set("b", NewInt(1))
	v.Set("a", NewInt(2))
	v.Set("7", NewInt(3))
	v.Set("3", NewInt(4))
	v.Set("b", NewInt(5)) // replace in place
	if got := strings.Join(v.Obj().Keys(), ","); got != "3,7,b,a" {
		t.Errorf("keys = %s", got)
	}
	if n, _ := v.Get("b").Int(); n != 5 {
		t.Errorf("b = %d", n)
	}
	v.Obj().Delete("7")
	if got := strings.Join(v.Obj().Keys(), ","); got != "3,b,a" {
		t.Errorf("after delete keys = %s", got)
	}
}

func TestUnknownFieldsSurvive(t *testing.T) {
	in := "{\n  \"spec\": \"x\",\n  \"zz_unknown\": {\n    \"deep\": [\n      1,\n      {\n        \"k\": \"v\"\n      }\n    ]\n  },\n  \"a\": 1\n}\n"
	v, _, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	v.Set("a", NewInt(2))
	v.Set("new", NewString("n"))
	want := strings.Replace(in, "\"a\": 1\n", "\"a\": 2,\n  \"new\": \"n\"\n", 1)
	if got := string(Canonical(v)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFromGoAndDecode(t *testing.T) {
	type T struct {
		B string `json:"b"`
		A int    `json:"a"`
		H string `json:"h"`
	}
	got, err := MarshalCanonical(T{B: "x", A: 1, H: "<&>"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"b\": \"x\",\n  \"a\": 1,\n  \"h\": \"<&>\"\n}\n"; string(got) != want {
		t.Errorf("got %q want %q", got, want)
	}
	v, _, _ := Parse(got)
	var back T
	if err := v.Decode(&back); err != nil || back.A != 1 || back.H != "<&>" {
		t.Errorf("Decode = %+v, %v", back, err)
	}
}

func TestFormatNumber(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0", math.Copysign(0, -1): "0", 1: "1", -1: "-1", pointOne + pointTwo: "0.30000000000000004",
		1e21: "1e+21", 1e-6: "0.000001", 1e-7: "1e-7", 123e-20: "1.23e-18", 5e-324: "5e-324",
		math.MaxFloat64: "1.7976931348623157e+308", 1 << 53: "9007199254740992", 1.5: "1.5",
		123456.789: "123456.789", 1e100: "1e+100", math.Inf(1): "null", math.NaN(): "null",
	} {
		if got := FormatNumber(f); got != want {
			t.Errorf("FormatNumber(%v) = %s, want %s", f, got, want)
		}
	}
}

// --- differential tests against node (D1) ---

// nodeCanonical runs JSON.stringify(JSON.parse(s), null, 2) + "\n" in node
// for every input at once.
func nodeCanonical(t *testing.T, inputs []string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed; skipping differential test")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	b, _ := json.Marshal(inputs)
	if err := os.WriteFile(in, b, 0o600); err != nil {
		t.Fatal(err)
	}
	script := `const fs=require('fs');const xs=JSON.parse(fs.readFileSync(process.argv[1],'utf8'));
process.stdout.write(JSON.stringify(xs.map(s=>{try{return JSON.stringify(JSON.parse(s),null,2)+"\n"}catch(e){return null}})))`
	out, err := exec.Command(node, "-e", script, in).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var res []*string
	v, _, err := Parse(out)
	if err != nil {
		t.Fatalf("node output: %v", err)
	}
	for _, e := range v.Items() {
		if e.IsNull() {
			res = append(res, nil)
		} else {
			s := e.Text()
			res = append(res, &s)
		}
	}
	outS := make([]string, len(res))
	for i, r := range res {
		if r == nil {
			outS[i] = "<error>"
		} else {
			outS[i] = *r
		}
	}
	return outS
}

var edgeInputs = []string{
	`{"a":1,"b":2,"a":3}`, `{"2":1,"1":2,"b":3,"0":4,"00":5,"4294967294":6,"4294967295":7,"-0":8,"1.5":9}`,
	`[1e21,1e-7,0.1,0.2,0.30000000000000004,-0,-0.0,1E400,-1e400,5e-324,2.2250738585072014e-308,1.7976931348623157e308]`,
	`[123456789012345678901234567890,9007199254740993,0.000001,0.0000001,1e6,1e20,1e22,100e-2,12.50]`,
	`"\u0000\u0001\u0008\u0009\u000a\u000b\u000c\u000d\u001b\u001f\u0020\u007f\u0080\u009f\u00a0"`,
	`"\ud800" `, `"\udfff\ud800x\ud83d\ude00\ud83d"`, `"\u2028\u2029\ufeff\uffff"`, `"😀中文 é"`,
	`{"__proto__":{"x":1},"constructor":2}`, `{"":{"":[]}}`, `[[],[[]],{},{"a":{}}]`,
	`"\/\\\"<>&'"`, `{"k\u0000":"v"}`, "\t[ 1 ,\r\n 2 ]\n",
	`{"b":{"z":1,"1":2},"a":[{"3":0,"2":0}]}`,
}

func TestDifferentialEdgeCases(t *testing.T) {
	want := nodeCanonical(t, edgeInputs)
	for i, in := range edgeInputs {
		got, err := Canonicalize([]byte(in))
		g := string(got)
		if err != nil {
			g = "<error>"
		}
		if g != want[i] {
			t.Errorf("input %s\n go   %q\n node %q", in, g, want[i])
		}
	}
}

func TestDifferentialGenerated(t *testing.T) {
	r := rand.New(rand.NewSource(20261129))
	var inputs []string
	for i := 0; i < 2000; i++ {
		inputs = append(inputs, genJSON(r, 0))
	}
	want := nodeCanonical(t, inputs)
	fails := 0
	for i, in := range inputs {
		got, err := Canonicalize([]byte(in))
		g := string(got)
		if err != nil {
			g = "<error>"
		}
		if g != want[i] {
			fails++
			if fails < 5 {
				t.Errorf("input %s\n go   %q\n node %q", in, g, want[i])
			}
		}
	}
	if fails > 0 {
		t.Errorf("%d of %d generated inputs differ from node", fails, len(inputs))
	}
}

// genJSON writes random JSON text, with random whitespace, escapes,
// duplicate and integer-like keys, and awkward numbers.
func genJSON(r *rand.Rand, depth int) string {
	ws := func() string { return []string{"", " ", "\n", "\t", "\r\n  "}[r.Intn(5)] }
	k := r.Intn(10)
	if depth > 4 {
		k = r.Intn(6)
	}
	switch k {
	case 0:
		return []string{"null", "true", "false"}[r.Intn(3)]
	case 1, 2:
		return genNumber(r)
	case 3, 4, 5:
		return genString(r)
	case 6, 7:
		n := r.Intn(5)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = ws() + genJSON(r, depth+1) + ws()
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		n := r.Intn(6)
		parts := make([]string, n)
		var keys []string
		for i := range parts {
			var key string
			if len(keys) > 0 && r.Intn(6) == 0 {
				key = keys[r.Intn(len(keys))] // duplicate
			} else if r.Intn(3) == 0 {
				key = fmt.Sprintf(`"%d"`, []int{0, 1, 2, 10, 42, 4294967294, 4294967295, 99999999999}[r.Intn(8)])
			} else {
				key = genString(r)
			}
			keys = append(keys, key)
			parts[i] = ws() + key + ws() + ":" + ws() + genJSON(r, depth+1)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

func genNumber(r *rand.Rand) string {
	switch r.Intn(6) {
	case 0:
		return fmt.Sprint(r.Int63n(1<<60) - 1<<59)
	case 1:
		return fmt.Sprintf("%g", r.NormFloat64()*math.Pow(10, float64(r.Intn(60)-30)))
	case 2:
		return fmt.Sprintf("%de%d", r.Intn(1000), r.Intn(700)-350)
	case 3:
		return fmt.Sprintf("-%d.%dE+%d", r.Intn(100), r.Intn(100000), r.Intn(30))
	case 4:
		return []string{"0", "-0", "0.0", "1e21", "1e-7", "0.1", "9007199254740993", "1E400", "0.000001"}[r.Intn(9)]
	default:
		return fmt.Sprintf("%.17g", r.Float64())
	}
}

func genString(r *rand.Rand) string {
	var b strings.Builder
	b.WriteByte('"')
	n := r.Intn(8)
	for i := 0; i < n; i++ {
		switch r.Intn(9) {
		case 0:
			fmt.Fprintf(&b, `\u%04x`, r.Intn(0x30))
		case 1:
			fmt.Fprintf(&b, `\u%04X`, 0xD800+r.Intn(0x800)) // surrogates, lone or paired by chance
		case 2:
			b.WriteString([]string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`}[r.Intn(8)])
		case 3:
			b.WriteString([]string{"é", "中", "😀", "\u2028", "\u007f", "\u0085", "\ufeff"}[r.Intn(7)])
		case 4:
			fmt.Fprintf(&b, `\u%04x`, r.Intn(0x10000))
		default:
			b.WriteByte(byte('a' + r.Intn(26)))
		}
	}
	b.WriteByte('"')
	return b.String()
}

func FuzzCanonical(f *testing.F) {
	for _, s := range edgeInputs {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, _, err := Parse(data)
		if err != nil {
			return
		}
		c := Canonical(v)
		// Canonical output is a fixed point and valid JSON.
		v2, q, err := Parse(c)
		if err != nil {
			t.Fatalf("canonical output does not parse: %v\n%q", err, c)
		}
		if q.Any() {
			t.Fatalf("canonical output has quirks %+v", q)
		}
		if c2 := Canonical(v2); !bytes.Equal(c, c2) {
			t.Fatalf("not a fixed point:\n%q\n%q", c, c2)
		}
		if !json.Valid(c) {
			t.Fatalf("encoding/json rejects canonical output %q", c)
		}
	})
}

// Variables, so 0.1+0.2 is float64 arithmetic, not an exact constant.
var pointOne, pointTwo = 0.1, 0.2

// Keys added to a large object stay findable, in order, whatever mix of
// ordinary and array-index keys arrives (the lookup index is kept up to
// date incrementally).
func TestObjLargeIndex(t *testing.T) {
	v := NewObject()
	var want []string
	for i := 0; i < 200; i++ {
		k := fmt.Sprintf("k%d", i)
		v.Set(k, NewInt(int64(i)))
		want = append(want, k)
		if i%50 == 0 {
			v.Set(fmt.Sprint(i), NewInt(-1)) // array index: goes first
		}
	}
	for i := 0; i < 200; i++ {
		if n, _ := v.Get(fmt.Sprintf("k%d", i)).Int(); n != int64(i) {
			t.Fatalf("k%d = %d", i, n)
		}
	}
	keys := v.Obj().Keys()
	if strings.Join(keys[:4], ",") != "0,50,100,150" || strings.Join(keys[4:], ",") != strings.Join(want, ",") {
		t.Errorf("keys = %v", keys[:8])
	}
	v.Obj().Delete("k7")
	if v.Has("k7") || !v.Has("k8") {
		t.Error("delete broke the index")
	}
}

func BenchmarkParseWideObject(b *testing.B) {
	var sb strings.Builder
	sb.WriteByte('{')
	for i := 0; i < 5000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `"key%d":%d`, i, i)
	}
	sb.WriteByte('}')
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// Clone is a deep copy cut from shared slabs (issue 20): equal to the
// original, and changing either one (setting, deleting, appending to an
// array or to a neighbouring array of the same slab) leaves the other
// as it was.
func TestCloneIsIndependent(t *testing.T) {
	t.Parallel()
	doc := `{"a":[1,[2,3],{"b":"c"}],"d":{"e":[],"f":{}},"g":[4],"h":[5,6],"i":null,"j":true,"k":"ü"}`
	orig, _, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := orig.Clone()
	if got := string(Canonical(c)); got != string(Canonical(orig)) {
		t.Fatalf("clone %s, want %s", got, Canonical(orig))
	}
	c.Get("g").Append(NewInt(7))
	c.Get("a").Items()[1].Append(NewInt(8))
	c.Get("a").Items()[2].Set("b", NewString("changed"))
	c.Get("d").Obj().Delete("e")
	c.Set("new", NewBool(false))
	if got := string(Compact(orig)); got != doc {
		t.Errorf("original changed: %s", got)
	}
	want := `{"a":[1,[2,3,8],{"b":"changed"}],"d":{"f":{}},"g":[4,7],"h":[5,6],"i":null,"j":true,"k":"ü","new":false}`
	if got := string(Compact(c)); got != want {
		t.Errorf("clone %s, want %s", got, want)
	}
	orig.Get("h").Append(NewInt(9))
	if got := string(Compact(c.Get("h"))); got != `[5,6]` {
		t.Errorf("clone's h %s after appending to the original's", got)
	}
	if (*Value)(nil).Clone() != nil {
		t.Error("nil clones to non-nil")
	}
}
