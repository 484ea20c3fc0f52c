package judge

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestJudgeAsStrictAsTheWriter (issue 18): each pack here is one the
// writer would not produce, judged non-conformant under the check that
// says so, beside a near miss that must still pass. Both encodings.
func TestJudgeAsStrictAsTheWriter(t *testing.T) {
	t.Parallel()
	lineage := func(root string, from int64, chain ...string) func(o *ojson.Value) {
		return func(o *ojson.Value) {
			l := o.Get("lineage")
			l.Set("root_id", ojson.NewString(root))
			l.Set("from_version", ojson.NewInt(from))
			if chain == nil {
				l.Obj().Delete("chain")
				return
			}
			l.Set("chain", ojson.NewStrings(chain))
		}
	}
	set := func(path []string, v *ojson.Value) func(o *ojson.Value) {
		return func(o *ojson.Value) {
			x := o
			for _, k := range path[:len(path)-1] {
				x = x.Get(k)
			}
			x.Set(path[len(path)-1], v)
		}
	}
	for _, c := range []struct {
		name  string
		edit  func(o *ojson.Value)
		check string // "" = conformant
		want  string
	}{
		{"C4 from_version not the chain's last", lineage("TP-K7WF-3NQX", 5, "TP-K7WF-3NQX@6"), "C4", "from_version 5 is not the version of the chain's last entry"},
		{"C4 root_id not chain[0]", lineage("TP-ZZZZ-ZZZZ", 6, "TP-K7WF-3NQX@6"), "C4", "is not the chain's first passport"},
		{"C4 chain entry malformed", lineage("TP-K7WF-3NQX", 6, "TP-K7WF-3NQX"), "C4", "not <passport id>@<version>"},
		{"C4 chain empty", lineage("TP-K7WF-3NQX", 6, []string{}...), "C4", "not a list"},
		{"C4 two hops (near miss)", lineage("TP-K7WF-3NQX", 2, "TP-K7WF-3NQX@6", "TP-AAAA-BBBB@2"), "", ""},
		{"C4 no chain (near miss)", lineage("TP-K7WF-3NQX", 6), "", ""},
		{"C10 not a date-time", set([]string{"packed_at"}, ojson.NewString("yesterday")), "C10", "not an RFC 3339 date-time"},
		{"C10 date only", set([]string{"packed_at"}, ojson.NewString("2026-09-03")), "C10", "not an RFC 3339 date-time"},
		{"C10 offset and fraction (near miss)", set([]string{"packed_at"}, ojson.NewString("2026-09-03T16:20:00.123+02:00")), "", ""},
		{"C8 how_to_use_this_file", set([]string{"how_to_use_this_file"}, ojson.NewString("read me first")), "C8", "instruction field"},
		{"C8 system_prompt in the state", set([]string{"passport", "system_prompt"}, ojson.NewString("You are a helpful assistant.")), "C8", "passport.system_prompt"},
		{"C8 a field named review_notes (near miss)", set([]string{"passport", "review_notes"}, ojson.NewString("fill in the numbers")), "", ""},
	} {
		obj := packtest.Mutate(t, c.edit)
		for _, enc := range []string{"bag", "flat"} {
			t.Run(c.name+"/"+enc, func(t *testing.T) {
				var b []byte
				name := "x.taskpack"
				if enc == "bag" {
					b = packtest.BagOf(t, obj)
				} else {
					b, name = packtest.FlatOf(t, obj), "x.taskpack.json"
				}
				r, err := Conformance(packtest.WriteTemp(t, name, b), pack.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if c.check == "" {
					if !r.Conformant {
						t.Fatalf("near miss judged non-conformant: %v %+v", failing(r), r.Checks)
					}
					return
				}
				got := checkOf(r, c.check)
				if got.Pass || !strings.Contains(got.Reason, c.want) {
					t.Fatalf("%s = %+v, want a failure saying %q", c.check, got, c.want)
				}
				if f := failing(r); len(f) != 1 {
					t.Fatalf("failing %v, want only %s", f, c.check)
				}
			})
		}
	}
}

// TestLoneSurrogateIsARepair: a utf8 attachment holding "\ud800abc" can
// only be read by replacing the surrogate, so C0 fails and the lenient
// reader (landing, convert) lists the repair; the near miss, a surrogate
// pair, is read as its character and passes.
func TestLoneSurrogateIsARepair(t *testing.T) {
	t.Parallel()
	att := func(data string, bytes string) *ojson.Value {
		a := ojson.NewObject()
		a.Set("name", ojson.NewString("s.txt"))
		a.Set("encoding", ojson.NewString("utf8"))
		a.Set("sha256", ojson.NewString(packtest.HexSum([]byte(bytes))))
		a.Set("bytes", ojson.NewInt(int64(len(bytes))))
		a.Set("data", ojson.NewString(data))
		return a
	}
	for _, c := range []struct {
		name, data, bytes string
		repair            bool
	}{
		{"lone high", "\xed\xa0\x80abc", "\uFFFDabc", true}, // WTF-8 for \ud800, as ojson holds it
		{"lone low", "ab\xed\xb0\x80", "ab\uFFFD", true},
		{"pair (near miss)", "😀abc", "😀abc", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := packtest.RawFlat(t, packtest.RefObject(t), att(c.data, c.bytes))
			if c.repair && !strings.Contains(string(raw), `\ud`) {
				t.Fatalf("the fixture holds no \\udxxx escape: %s", raw[len(raw)-200:])
			}
			path := packtest.WriteTemp(t, "s.taskpack.json", raw)
			r, err := Conformance(path, pack.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c0 := checkOf(r, "C0")
			if c.repair != !c0.Pass {
				t.Fatalf("C0 = %+v (repair expected: %v)", c0, c.repair)
			}
			if c.repair && !strings.Contains(c0.Reason, pack.RepairSurrogate) {
				t.Fatalf("C0 reason %q does not name %s", c0.Reason, pack.RepairSurrogate)
			}
			p, err := pack.Open(path, pack.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			found := false
			for _, rp := range p.Repairs {
				found = found || rp.Rule == pack.RepairSurrogate && rp.Where == "s.txt"
			}
			if found != c.repair {
				t.Fatalf("lenient read repairs %+v", p.Repairs)
			}
		})
	}
}

// TestTranscriptInLuggage (issue 18, §4.1): a chat transcript in text
// luggage fails C8 and is refused by the writer, as it is in the pack
// object; ordinary notes with a role-like line (the near miss) pass both.
func TestTranscriptInLuggage(t *testing.T) {
	t.Parallel()
	chat := []byte("call notes\nUser: can you fix the build?\nAssistant: yes, here is the patch\n")
	notes := []byte("User: maria\nSystem: Ubuntu 22.04\n")
	for _, c := range []struct {
		name string
		data []byte
		bad  bool
	}{{"chat.txt", chat, true}, {"notes.txt", notes, false}} {
		t.Run(c.name, func(t *testing.T) {
			b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), []file{{Name: c.name, Data: c.data}}, nil)
			r, err := Conformance(packtest.WriteTemp(t, "x.taskpack", b), pack.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c8 := checkOf(r, "C8")
			if c8.Pass == c.bad || c.bad && !strings.Contains(c8.Reason, "data/files/"+c.name) {
				t.Fatalf("C8 = %+v", c8)
			}
			src := pack.Source{Object: packtest.RefObject(t), Luggage: []pack.LuggageSource{{Name: c.name, Size: int64(len(c.data)),
				Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(c.data)), nil }}}}
			err = pack.Write(filepath.Join(t.TempDir(), "w.taskpack"), src, pack.EncodingBag, pack.WriteOptions{})
			if refused := err != nil && strings.Contains(err.Error(), pack.RuleTranscript); refused != c.bad {
				t.Fatalf("write: %v (refusal expected: %v)", err, c.bad)
			}
		})
	}
}

// TestCredentialInLuggageName (issue 18, D5): a token used as a luggage
// file name fails C7 and is refused by the writer; an ordinary name (the
// near miss) passes both.
func TestCredentialInLuggageName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		bad  bool
	}{{packtest.FakeGitHubToken + ".txt", true}, {"ghp_notes.txt", false}} {
		t.Run(c.name, func(t *testing.T) {
			data := []byte("hello\n")
			b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), []file{{Name: c.name, Data: data}}, nil)
			r, err := Conformance(packtest.WriteTemp(t, "x.taskpack", b), pack.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c7 := checkOf(r, "C7"); c7.Pass == c.bad || c.bad && !strings.Contains(c7.Reason, "(its name)") {
				t.Fatalf("C7 = %+v", c7)
			}
			src := pack.Source{Object: packtest.RefObject(t), Luggage: []pack.LuggageSource{{Name: c.name, Size: int64(len(data)),
				Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}}}
			err = pack.Write(filepath.Join(t.TempDir(), "w.taskpack"), src, pack.EncodingBag, pack.WriteOptions{})
			if refused := err != nil && strings.Contains(err.Error(), pack.RuleCredential); refused != c.bad {
				t.Fatalf("write: %v (refusal expected: %v)", err, c.bad)
			}
		})
	}
}
