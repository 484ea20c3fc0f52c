package scan

import (
	"crypto/sha256"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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
