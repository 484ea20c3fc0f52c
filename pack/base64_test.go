package pack

import (
	"bytes"
	"encoding/base64"
	"io"
	"math/rand"
	"strings"
	"testing"
)

func decodeB64(t *testing.T, s string) ([]byte, bool) {
	t.Helper()
	d := newB64Decoder(strings.NewReader(s))
	b, err := io.ReadAll(d)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return b, d.NonCanonical()
}

func TestBase64Canonical(t *testing.T) {
	for _, c := range []struct {
		in        string
		want      string
		canonical bool
	}{
		{"", "", true},
		{"QUJD", "ABC", true},
		{"QUI=", "AB", true},
		{"QQ==", "A", true},
		{"QUI", "AB", false},       // padding left out
		{"QQ", "A", false},         // padding left out
		{"QQ=", "A", false},        // half the padding
		{"QUJD====", "ABC", false}, // padding where none is due
		{"QU JD", "ABC", false},    // a space
		{"QUJD\n", "ABC", false},   // a newline
		{"QU\r\nJD", "ABC", false},
		{"QUJ=", "AB", false},     // spare bits not zero
		{"QR==", "A", false},      // spare bits not zero
		{"QUI=QUJD", "AB", false}, // data after the padding
		{"-_8=", "\xfb\xff", false},
		{"Q", "", false},
	} {
		got, nonCanon := decodeB64(t, c.in)
		if string(got) != c.want {
			t.Errorf("%q decodes to %q, want %q", c.in, got, c.want)
		}
		if nonCanon == c.canonical {
			t.Errorf("%q: non-canonical = %v, want %v", c.in, nonCanon, !c.canonical)
		}
	}
}

// Base64 with line breaks (as MIME writes it) decodes to the same bytes
// whatever the read size: the fast path must not run across a line break.
func TestBase64LineBreaksDecodeRight(t *testing.T) {
	data := make([]byte, 300<<10)
	rand.New(rand.NewSource(1)).Read(data)
	enc := base64.StdEncoding.EncodeToString(data)
	var wrapped strings.Builder
	for i := 0; i < len(enc); i += 77 { // 77: lines out of step with quads
		end := min(i+77, len(enc))
		wrapped.WriteString(enc[i:end] + "\r\n")
	}
	got, nonCanon := decodeB64(t, wrapped.String())
	if !bytes.Equal(got, data) {
		t.Fatalf("wrapped base64 decoded to %d bytes, not the %d encoded", len(got), len(data))
	}
	if !nonCanon {
		t.Fatal("wrapped base64 read as canonical")
	}
	got, nonCanon = decodeB64(t, enc)
	if !bytes.Equal(got, data) || nonCanon {
		t.Fatalf("canonical base64: equal=%v nonCanonical=%v", bytes.Equal(got, data), nonCanon)
	}
}
