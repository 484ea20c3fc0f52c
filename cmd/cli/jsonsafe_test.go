package cli

import (
	"bytes"
	"testing"

	"github.com/tp-dev/tp/display"
)

// A --json run's output passes through jsonSafeWriter in whatever pieces
// the encoder writes, in a buffer it reuses: cut anywhere, even inside a
// multi-byte rune, the bytes that come out are those of one write of the
// whole.
func TestJSONSafeWriterAnySplit(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{"a":"plain"}`,
		`{"claim":"café ✓ 𝄞 done","x":"\u0085"}` + "\u0085\u200b",
		"é", "𝄞𝄞𝄞", "a\xffb", // not UTF-8 at all: passed as it is
	} {
		want := string(display.JSON([]byte(doc)))
		for cut1 := 0; cut1 <= len(doc); cut1++ {
			for cut2 := cut1; cut2 <= len(doc); cut2++ {
				var out bytes.Buffer
				w := &jsonSafeWriter{w: &out}
				for _, part := range []string{doc[:cut1], doc[cut1:cut2], doc[cut2:]} {
					p := []byte(part)
					if n, err := w.Write(p); err != nil || n != len(part) {
						t.Fatalf("Write: %d, %v", n, err)
					}
					for i := range p {
						p[i] = 'X' // as bufio reuses its buffer: nothing may be kept of p
					}
				}
				w.Flush()
				if out.String() != want {
					t.Fatalf("%q cut at %d and %d: got %q, want %q", doc, cut1, cut2, out.String(), want)
				}
			}
		}
	}
}
