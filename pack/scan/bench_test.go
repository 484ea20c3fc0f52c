package scan

import (
	"crypto/sha256"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
)

const benchSize = 64 << 20

// benchData is benchSize bytes of random bytes ("random"), real text (Go
// source, "text"), or text made dense with the table's anchor bytes and
// near-miss prefixes ("anchors": words, code punctuation, hyphenated and
// underscored names, base64 runs), with no credential in any of them.
func benchData(kind string) []byte {
	r := rand.New(rand.NewSource(42))
	b := make([]byte, 0, benchSize)
	switch kind {
	case "random":
		b = b[:benchSize]
		r.Read(b)
		return b
	case "text":
		// Real text: the Go standard library's source and docs, repeated.
		root := filepath.Join(runtime.GOROOT(), "src")
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(b) >= benchSize {
				return filepath.SkipAll
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md")) && !strings.Contains(p, "testdata") {
				if data, err := os.ReadFile(p); err == nil {
					b = append(b, data...)
				}
			}
			return nil
		})
		if len(b) >= benchSize {
			return b[:benchSize]
		}
		// Too little source: fall through to generated text.
	}
	words := []string{"the", "task", "passport", "build", "passes", "on", "machine", "sk", "hf_model", "task-passport",
		"func", "return", "err", "nil", "if", "AKIA", "-", "_", "user_id", "eyJ", "A", "J", "Assistant", "data",
		"https://example.com/path", "SG", "key=value", "--flag", "0x1f", "import", "token", "ghp", "npm_config"}
	for len(b) < benchSize {
		switch r.Intn(20) {
		case 0:
			b = append(b, '\n')
		case 1:
			for i := 0; i < 40; i++ {
				b = append(b, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[r.Intn(64)])
			}
			b = append(b, ' ')
		default:
			b = append(b, words[r.Intn(len(words))]...)
			b = append(b, " .,;:()"[r.Intn(7)])
		}
	}
	return b[:benchSize]
}

func benchScanner(b *testing.B, kind string) {
	data := benchData(kind)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := NewLuggageScanner("bench")
		for off := 0; off < len(data); off += 32 << 10 { // io.Copy's buffer size
			end := off + 32<<10
			if end > len(data) {
				end = len(data)
			}
			s.Write(data[off:end])
		}
		b.ReportMetric(float64(len(s.Findings())), "findings")
	}
}

func benchSHA(b *testing.B, kind string) {
	data := benchData(kind)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := sha256.New()
		for off := 0; off < len(data); off += 32 << 10 {
			end := off + 32<<10
			if end > len(data) {
				end = len(data)
			}
			h.Write(data[off:end])
		}
		h.Sum(nil)
	}
}

func BenchmarkLuggageScannerRandom(b *testing.B)  { benchScanner(b, "random") }
func BenchmarkLuggageScannerAnchors(b *testing.B) { benchScanner(b, "anchors") }
func BenchmarkLuggageScannerText(b *testing.B)    { benchScanner(b, "text") }
func BenchmarkSHA256Random(b *testing.B)          { benchSHA(b, "random") }
func BenchmarkSHA256Text(b *testing.B)            { benchSHA(b, "text") }

func BenchmarkObject(b *testing.B) {
	data, err := os.ReadFile(fixtures + "handoff.taskpack.json")
	if err != nil {
		b.Skip(err)
	}
	v := parse(b, string(data)).Get("passport")
	b.SetBytes(int64(len(ojson.Compact(v))))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Object(v)
	}
}

// TestScanFile measures a whole file end to end, for /usr/bin/time -v (see
// BENCHMARKS.md, pack/scan section); it runs only when TP_SCAN_FILE names a file.
// TP_SCAN_PASSES=scan or =sha256 runs one pass only, so each can be timed
// on its own.
func TestScanFile(t *testing.T) {
	name := os.Getenv("TP_SCAN_FILE")
	if name == "" {
		t.Skip("TP_SCAN_FILE not set")
	}
	pass := func(what string, w io.Writer) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		t0 := time.Now()
		n, err := io.Copy(w, f)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(t0)
		t.Logf("%s: %d bytes in %v, %.0f MB/s", what, n, d.Round(time.Millisecond), float64(n)/d.Seconds()/1e6)
	}
	passes := os.Getenv("TP_SCAN_PASSES") // "scan", "sha256" or both (default)
	if passes == "" || strings.Contains(passes, "scan") {
		s := NewLuggageScanner(filepath.Base(name))
		pass("scan", s)
		t.Logf("scan: %d findings", s.Count())
	}
	if passes == "" || strings.Contains(passes, "sha256") {
		pass("sha256", sha256.New())
	}
}
