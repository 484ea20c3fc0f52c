package pack

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// naiveTagLines is the obvious reading of BagIt §2.2.2, kept as the oracle
// for the linear parser (fine on small inputs).
func naiveTagLines(b []byte) map[string]string {
	out := map[string]string{}
	s := strings.TrimPrefix(string(b), "\xEF\xBB\xBF")
	cur := ""
	active := false
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if active {
				out[cur] += " " + strings.TrimSpace(line)
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		cur = strings.TrimSpace(k)
		_, dup := out[cur]
		active = !dup
		if active {
			out[cur] = strings.TrimSpace(v)
		}
	}
	return out
}

func TestParseTagLines(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]string
	}{
		{"BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n", map[string]string{"BagIt-Version": "1.0", "Tag-File-Character-Encoding": "UTF-8"}},
		{"\xEF\xBB\xBFA: 1\r\nB: 2\r\n", map[string]string{"A": "1", "B": "2"}},
		{"External-Description: one\n  two\n\tthree\nNext: x", map[string]string{"External-Description": "one two three", "Next": "x"}},
		{"A: first\n more\nA: second\n ignored\n", map[string]string{"A": "first more"}},
		{" orphan continuation\nno colon\nA:b:c\n", map[string]string{"A": "b:c"}},
	} {
		got, err := parseTagLines([]byte(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// A label followed by continuation lines is read in linear time and memory:
// the bytes allocated stay within a small multiple of the input (string
// concatenation per line allocated the square of it).
func TestParseTagLinesAllocatesLinearly(t *testing.T) {
	in := []byte("External-Description: x\n" + strings.Repeat(" a\n", MaxTagLines-2))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := parseTagLines(in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got["External-Description"]); n != 1+2*(MaxTagLines-2) {
		t.Fatalf("folded value is %d bytes", n)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(64*len(in)) {
		t.Fatalf("parsing %d bytes allocated %d bytes: not linear", len(in), alloc)
	}
}

// More lines than MaxTagLines is refused with the work limit named, by the
// lenient reader (landing) and by the judge (C1).
func TestTagFileLineLimit(t *testing.T) {
	for _, tag := range []string{"bag-info.txt", "bagit.txt"} {
		t.Run(tag, func(t *testing.T) {
			b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), nil, func(es *[]file) {
				for i := range *es {
					if (*es)[i].Name == tag {
						d := append((*es)[i].Data, "Extra-Notes: x\n"...)
						(*es)[i].Data = append(d, bytes.Repeat([]byte(" a\n"), MaxTagLines)...)
					}
				}
				rehashTags(es)
			})
			path := packtest.WriteTemp(t, "x.taskpack", b)
			_, err := Open(path, Options{})
			e := wantRule(t, err, RuleLimitWork)
			if e.Entry != tag || e.File != path {
				t.Fatalf("error names %q in %q: %v", e.Entry, e.File, err)
			}
		})
	}
	// At the limit it is read.
	b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), nil, func(es *[]file) {
		for i := range *es {
			if (*es)[i].Name == "bag-info.txt" {
				d := append((*es)[i].Data, "Extra-Notes: x\n"...)
				d = append(d, bytes.Repeat([]byte(" a\n"), MaxTagLines-bytes.Count(d, []byte("\n")))...)
				(*es)[i].Data = d
			}
		}
		rehashTags(es)
	})
	if _, err := Open(packtest.WriteTemp(t, "y.taskpack", b), Options{}); err != nil {
		t.Fatalf("a tag file of exactly %d lines: %v", MaxTagLines, err)
	}
}

// rehashTags rewrites tagmanifest-sha256.txt after a tag file changed.
func rehashTags(es *[]file) {
	var tm strings.Builder
	for _, f := range *es {
		if !strings.HasPrefix(f.Name, "data/") && f.Name != "tagmanifest-sha256.txt" {
			tm.WriteString(packtest.HexSum(f.Data) + "  " + f.Name + "\n")
		}
	}
	for i := range *es {
		if (*es)[i].Name == "tagmanifest-sha256.txt" {
			(*es)[i].Data = []byte(tm.String())
		}
	}
}

func FuzzParseTagLines(f *testing.F) {
	for _, s := range []string{
		"BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n",
		"A: 1\n  b\n\tc\r\nA: 2\n d\n",
		"\xEF\xBB\xBF:\n :\n\r\n",
		"x\ny: z\r\r\n w",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := parseTagLines(b)
		if err != nil {
			if err != errTagLines {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if want := naiveTagLines(b); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %q, want %q", b, got, want)
		}
	})
}
