package scan

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// wantLuggage is what a streamed scan of data must report: what a scanner
// written the whole of it at once reports. Its own findings (not those
// inside a wrapper) must be the whole-string scan's, with Where filled in.
func wantLuggage(name string, data []byte) []Finding {
	s := NewLuggageScanner(name)
	s.Write(data)
	got := s.Findings()
	fs := Credentials(string(data))
	for i := range fs {
		fs[i].Where = fmt.Sprintf("data/files/%s@%d", name, fs[i].Offset)
	}
	if len(fs) > MaxLuggageFindings {
		fs = fs[:MaxLuggageFindings]
	}
	var own []Finding
	for _, f := range got {
		if !strings.Contains(f.Where, ", inside ") {
			f.part = ""
			own = append(own, f)
		}
	}
	if len(fs) < MaxLuggageFindings && !reflect.DeepEqual(own, fs) {
		panic(fmt.Sprintf("one write: got %+v, the whole-string scan %+v", own, fs))
	}
	return got
}

func scanChunks(name string, data []byte, sizes func() int) []Finding {
	s := NewLuggageScanner(name)
	for len(data) > 0 {
		n := sizes()
		if n > len(data) || n <= 0 {
			n = len(data)
		}
		if k, err := s.Write(data[:n]); k != n || err != nil {
			panic(fmt.Sprintf("Write = %d, %v", k, err))
		}
		data = data[n:]
	}
	return s.Findings()
}

// A credential split at any byte is found exactly as if written whole.
func TestLuggageSplitAnywhere(t *testing.T) {
	for _, c := range credFires() {
		data := []byte("luggage line one\n" + c.text + "\ntail")
		want := wantLuggage("notes.txt", data)
		if len(want) != 1 {
			t.Fatalf("%s: whole scan found %d", c.rule, len(want))
		}
		for cut := 0; cut <= len(data); cut++ {
			s := NewLuggageScanner("notes.txt")
			s.Write(data[:cut])
			s.Write(data[cut:])
			if got := s.Findings(); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s split at %d: got %+v, want %+v", c.rule, cut, got, want)
			}
		}
		one := func() int { return 1 }
		if got := scanChunks("notes.txt", data, one); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s byte by byte: got %+v, want %+v", c.rule, got, want)
		}
	}
}

// Tokens placed across the scanner's own buffer boundary, written in one
// piece and in odd-sized pieces.
func TestLuggageAcrossInternalBoundary(t *testing.T) {
	ensureTables() // maxWindow is known once the tables are built
	r := rand.New(rand.NewSource(1))
	fires := credFires()
	var data []byte
	for len(data) < 3*luggageChunk+maxWindow*3 {
		data = append(data, randomText(r, r.Intn(luggageChunk/3))...)
		data = append(data, ' ')
		data = append(data, fires[r.Intn(len(fires))].text...)
		data = append(data, ' ')
	}
	// Also one token straddling each place the scanner cuts its buffer.
	for k := 1; k <= 3; k++ {
		for _, d := range []int{-maxWindow - 3, -keepBack, -1, 0, 1, 7} {
			at := k*(luggageChunk+maxWindow) + d
			if at > 0 && at < len(data) {
				tok := " " + fires[(k*7+d&0xff)%len(fires)].text + " "
				data = append(data[:at:at], append([]byte(tok), data[at:]...)...)
			}
		}
	}
	want := wantLuggage("big.bin", data)
	if len(want) < 10 {
		t.Fatalf("only %d findings in the test data", len(want))
	}
	for name, sizes := range map[string]func() int{
		"whole":  func() int { return len(data) },
		"4096":   func() int { return 4096 },
		"odd":    func() int { return 1 + r.Intn(70000) },
		"primes": func() int { return 65521 },
	} {
		if got := scanChunks("big.bin", data, sizes); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %d findings, want %d", name, len(got), len(want))
			for i := range got {
				if i < len(want) && got[i] != want[i] {
					t.Errorf("first difference at %d: got %+v want %+v", i, got[i], want[i])
					break
				}
			}
		}
	}
}

// Memory does not grow with the file: the buffer keeps its capacity after
// many megabytes.
func TestLuggageMemoryBounded(t *testing.T) {
	s := NewLuggageScanner("zero.bin")
	c0 := bufSize
	block := bytes.Repeat([]byte("sk-ghp_AKIA eyJ hf_ "), 1<<14)
	for i := 0; i < 200; i++ { // ~64 MiB
		s.Write(block)
	}
	if cap(s.buf) > c0 {
		t.Errorf("buffer grew from %d to %d", c0, cap(s.buf))
	}
	if len(s.Findings()) != 0 {
		t.Errorf("found credentials in anchor soup")
	}
}

func TestLuggageFindingsCapped(t *testing.T) {
	tok := "AK" + "IA" + upper(16) + "\n"
	s := NewLuggageScanner("keys.txt")
	io.Copy(s, strings.NewReader(strings.Repeat(tok, MaxLuggageFindings+50)))
	if got := len(s.Findings()); got != MaxLuggageFindings {
		t.Errorf("kept %d findings, want %d", got, MaxLuggageFindings)
	}
	if s.Count() != MaxLuggageFindings+50 {
		t.Errorf("Count = %d", s.Count())
	}
	if _, err := s.Write([]byte("x")); err != ErrScannerDone {
		t.Errorf("Write after Findings: %v", err)
	}
}

func TestLuggageWhere(t *testing.T) {
	s := NewLuggageScanner("dir/env.txt")
	s.Write([]byte("HF_TOKEN=" + "h" + "f_" + alnum(34)))
	fs := s.Findings()
	if len(fs) != 1 || fs[0].Where != "data/files/dir/env.txt@9" || fs[0].Excerpt != "HF_TOKEN=hf_a…" {
		t.Errorf("got %+v", fs)
	}
}

func TestLuggagePayloadPathName(t *testing.T) {
	a, b := NewLuggageScanner("figures/x.csv"), NewLuggageScanner("data/files/figures/x.csv")
	for _, s := range []*LuggageScanner{a, b} {
		s.Write([]byte("AK" + "IA" + upper(16)))
	}
	fa, fb := a.Findings(), b.Findings()
	if len(fa) != 1 || !reflect.DeepEqual(fa, fb) || fa[0].Where != "data/files/figures/x.csv@0" {
		t.Errorf("got %+v and %+v", fa, fb)
	}
}

func TestLuggageEmpty(t *testing.T) {
	s := NewLuggageScanner("empty")
	if fs := s.Findings(); len(fs) != 0 {
		t.Errorf("got %+v", fs)
	}
}
