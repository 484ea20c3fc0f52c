package pack

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// patchLocalName rewrites the name in the local header of entry (same
// length), leaving the central directory as it was.
func patchLocalName(t testing.TB, b []byte, entry, name string) []byte {
	t.Helper()
	if len(name) != len(entry) {
		t.Fatalf("%q and %q differ in length", entry, name)
	}
	out := append([]byte{}, b...)
	i := bytes.Index(out, []byte("PK\x03\x04"))
	for i >= 0 {
		n := int(binary.LittleEndian.Uint16(out[i+26:]))
		if string(out[i+30:i+30+n]) == entry {
			copy(out[i+30:], name)
			return out
		}
		j := bytes.Index(out[i+4:], []byte("PK\x03\x04"))
		if j < 0 {
			break
		}
		i += 4 + j
	}
	t.Fatalf("no local header for %q", entry)
	return nil
}

// patchLocalField overwrites two bytes at off in the local header of entry.
func patchLocalField(t testing.TB, b []byte, entry string, off int, v uint16) []byte {
	t.Helper()
	out := append([]byte{}, b...)
	for i := bytes.Index(out, []byte("PK\x03\x04")); i >= 0; {
		n := int(binary.LittleEndian.Uint16(out[i+26:]))
		if string(out[i+30:i+30+n]) == entry {
			binary.LittleEndian.PutUint16(out[i+off:], v)
			return out
		}
		j := bytes.Index(out[i+4:], []byte("PK\x03\x04"))
		if j < 0 {
			break
		}
		i += 4 + j
	}
	t.Fatalf("no local header for %q", entry)
	return nil
}

// toZip64Offsets rewrites every central directory record so that its local
// header offset lives in a ZIP64 extra field (as a writer does past 4 GiB).
func toZip64Offsets(t testing.TB, b []byte) []byte {
	t.Helper()
	eocd := len(b) - 22
	if binary.LittleEndian.Uint32(b[eocd:]) != 0x06054b50 {
		t.Fatal("no EOCD (or a comment)")
	}
	cdSize := int(binary.LittleEndian.Uint32(b[eocd+12:]))
	cdOff := int(binary.LittleEndian.Uint32(b[eocd+16:]))
	cd := b[cdOff : cdOff+cdSize]
	var ncd []byte
	for p := 0; p < len(cd); {
		nl := int(binary.LittleEndian.Uint16(cd[p+28:]))
		el := int(binary.LittleEndian.Uint16(cd[p+30:]))
		cl := int(binary.LittleEndian.Uint16(cd[p+32:]))
		if binary.LittleEndian.Uint32(cd[p+20:]) == 0xffffffff || binary.LittleEndian.Uint32(cd[p+24:]) == 0xffffffff {
			t.Fatal("sizes already ZIP64")
		}
		rec := append([]byte{}, cd[p:p+46+nl]...)
		off := binary.LittleEndian.Uint32(rec[42:])
		binary.LittleEndian.PutUint32(rec[42:], 0xffffffff)
		var ext [12]byte
		binary.LittleEndian.PutUint16(ext[0:], 1)
		binary.LittleEndian.PutUint16(ext[2:], 8)
		binary.LittleEndian.PutUint64(ext[4:], uint64(off))
		rec = append(rec, ext[:]...)
		rec = append(rec, cd[p+46+nl:p+46+nl+el+cl]...)
		binary.LittleEndian.PutUint16(rec[30:], uint16(el+12))
		ncd = append(ncd, rec...)
		p += 46 + nl + el + cl
	}
	out := append([]byte{}, b[:cdOff]...)
	out = append(out, ncd...)
	end := append([]byte{}, b[eocd:]...)
	binary.LittleEndian.PutUint32(end[12:], uint32(len(ncd)))
	return append(out, end...)
}

// TestDuplicateAfterNormalisation is D10: two names that differ only in
// Unicode normalisation (é as one code point and as e + combining accent)
// are one file on macOS, so they collide like a case-folded pair, in the
// bag, in the flat form and in the writer.
func TestDuplicateAfterNormalisation(t *testing.T) {
	nfc, nfd := "caf\u00e9.txt", "cafe\u0301.txt"
	dir := t.TempDir()
	bag := filepath.Join(dir, "n.taskpack")
	os.WriteFile(bag, hostileZip(t, func(zw *zip.Writer) {
		addFile("data/files/"+nfc, []byte("one"), nil)(zw)
		addFile("data/files/"+nfd, []byte("two"), nil)(zw)
	}), 0o644)
	flat := filepath.Join(dir, "n.taskpack.json")
	os.WriteFile(flat, rawFlat(t, refObject(t), att(nfc, []byte("one")), att(nfd, []byte("two"))), 0o644)
	for _, path := range []string{bag, flat} {
		p, err := Open(path, Options{})
		if p != nil {
			p.Close()
		}
		wantRule(t, err, RuleDuplicate)
	}
	src := Source{Object: refObject(t), Luggage: []LuggageSource{memLuggage(nfc, "one"), memLuggage(nfd, "two")}}
	out := filepath.Join(dir, "w.taskpack")
	if err := Write(out, src, EncodingBag, WriteOptions{}); err == nil {
		t.Fatal("the writer packed two names that are one file on macOS")
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a refused write left a file")
	}
	// One name alone, in either form, is fine.
	for _, n := range []string{nfc, nfd} {
		src := Source{Object: refObject(t), Luggage: []LuggageSource{memLuggage(n, "one")}}
		if err := Write(filepath.Join(dir, "ok.taskpack"), src, EncodingBag, WriteOptions{}); err != nil {
			t.Fatalf("%q: %v", n, err)
		}
	}
}

func memLuggage(name, data string) LuggageSource {
	return LuggageSource{Name: name, Size: int64(len(data)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(data)), nil
	}}
}
