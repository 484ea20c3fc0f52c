package judge

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// file is one ZIP entry (or one piece of luggage): name and bytes.
type file = packtest.File

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
	src := pack.Source{Object: packtest.RefObject(b)}
	src.Luggage = append(src.Luggage,
		genLuggage(b, dir, "random.bin", benchBytes/2, false),
		genLuggage(b, dir, "text.log", benchBytes/2, true))
	return src, dir
}

// from pack/helpers_test.go
// srcOf makes a pack.Source from in-memory luggage.
func srcOf(obj *ojson.Value, luggage ...file) pack.Source {
	s := pack.Source{Object: obj}
	for _, l := range luggage {
		data := l.Data
		s.Luggage = append(s.Luggage, pack.LuggageSource{Name: l.Name, Size: int64(len(data)),
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
		if int64(len(b)) != l.Size || packtest.HexSum(b) != l.SHA256 {
			t.Fatalf("%s: size/digest in pack.Luggage wrong", l.Name)
		}
		files[l.Name] = b
		order = append(order, l.Name)
	}
	return p.Raw, files, order
}
