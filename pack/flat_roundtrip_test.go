package pack

import (
	"bufio"
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tp-dev/tp/internal/packtest"
)

// codecTrip sends data through the flat form's encoder (utf8 when the
// bytes are valid UTF-8 without NUL, base64 otherwise: what Write chooses)
// and back through the reader's decoder.
func codecTrip(t testing.TB, data []byte) []byte {
	t.Helper()
	tc := &textCheck{ok: true}
	tc.Write(data)
	b64 := !tc.done()
	var enc bytes.Buffer
	w := bufio.NewWriter(&enc)
	if b64 {
		e := &base64Stream{w: w}
		e.Write(data)
		e.close()
	} else {
		(&jsonStringWriter{w: w}).Write(data)
	}
	w.WriteByte('"')
	w.Flush()
	sd := newStringDecoder(bufio.NewReader(&enc))
	var r io.Reader = sd
	if b64 {
		r = newB64Decoder(sd)
	}
	back, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%q: decoding what was encoded: %v", data, err)
	}
	return back
}

// flatTripInputs are the bytes the flat codec must carry unchanged: JSON's
// special characters, every control character, multi-byte UTF-8, invalid
// UTF-8 and NUL (base64), and sizes around base64's 3-byte groups.
func flatTripInputs() [][]byte {
	var ctl []byte
	for c := 0; c < 0x20; c++ {
		ctl = append(ctl, byte(c))
	}
	in := [][]byte{
		nil, []byte("a"), []byte(`"\`), []byte("line\nnext\r\n\ttab"), []byte("é中𝄞\u2028\u2029"),
		ctl[1:], ctl, []byte{0xff, 0xfe}, []byte("text then \x00 NUL"), []byte("cut rune \xe4\xb8"),
		[]byte(strings.Repeat("abc\"\\ é\n", 100_000)),
	}
	for n := 1; n <= 7; n++ {
		in = append(in, bytes.Repeat([]byte{0x80}, n))
	}
	return in
}

// TestFlatLuggageRoundTrip: C9 counts on this for every luggage file (D3):
// bytes written into the flat form by Write and read back by Open and
// OpenLuggage are the same bytes, whichever encoding Write chose.
func TestFlatLuggageRoundTrip(t *testing.T) {
	obj := packtest.RefObject(t)
	for i, data := range flatTripInputs() {
		if back := codecTrip(t, data); !bytes.Equal(back, data) {
			t.Fatalf("input %d: the codec gives back %d bytes, want %d", i, len(back), len(data))
		}
		path := filepath.Join(t.TempDir(), "t.taskpack.json")
		if err := Write(path, srcOf(obj, file{Name: "x.bin", Data: data}), EncodingFlat, WriteOptions{AllowLarge: true}); err != nil {
			t.Fatal(err)
		}
		p, err := Open(path, Options{Strict: true})
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		rc, err := p.OpenLuggage("x.bin")
		if err != nil {
			t.Fatal(err)
		}
		back, err := io.ReadAll(rc)
		rc.Close()
		p.Close()
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("input %d: Write then Open gives back %d bytes (%v), want %d", i, len(back), err, len(data))
		}
	}
}

// FuzzFlatLuggageRoundTrip: any bytes survive the flat codec.
func FuzzFlatLuggageRoundTrip(f *testing.F) {
	for _, in := range flatTripInputs() {
		if len(in) < 4096 {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if back := codecTrip(t, data); !bytes.Equal(back, data) {
			t.Fatalf("%q comes back as %q (valid UTF-8: %v)", data, back, utf8.Valid(data))
		}
	})
}
