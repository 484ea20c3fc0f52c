package pack

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// overlapping duplicates the last central directory record under another
// name of the same length, so two entries share one body.
func overlapping(t testing.TB, b []byte, newName string) []byte {
	t.Helper()
	eocd := len(b) - 22
	if binary.LittleEndian.Uint32(b[eocd:]) != 0x06054b50 {
		t.Fatal("no EOCD")
	}
	n := binary.LittleEndian.Uint16(b[eocd+10:])
	cdSize := binary.LittleEndian.Uint32(b[eocd+12:])
	cdOff := binary.LittleEndian.Uint32(b[eocd+16:])
	cd := b[cdOff : cdOff+cdSize]
	// find the last record
	var last []byte
	for p := 0; p < len(cd); {
		nl := int(binary.LittleEndian.Uint16(cd[p+28:]))
		el := int(binary.LittleEndian.Uint16(cd[p+30:]))
		cl := int(binary.LittleEndian.Uint16(cd[p+32:]))
		last = cd[p : p+46+nl+el+cl]
		p += 46 + nl + el + cl
	}
	rec := append([]byte{}, last...)
	nl := int(binary.LittleEndian.Uint16(rec[28:]))
	if len(newName) != nl {
		t.Fatalf("name length %d, want %d", len(newName), nl)
	}
	copy(rec[46:], newName)
	out := append([]byte{}, b[:cdOff]...)
	out = append(out, cd...)
	out = append(out, rec...)
	end := append([]byte{}, b[eocd:]...)
	binary.LittleEndian.PutUint16(end[8:], n+1)
	binary.LittleEndian.PutUint16(end[10:], n+1)
	binary.LittleEndian.PutUint32(end[12:], cdSize+uint32(len(rec)))
	return append(out, end...)
}

// TestHostileInput is D10: every rule has an input that breaks it, and each
// is refused with a one-line error naming the file and the rule, by Open
// (lenient as well as strict), and by Convert without leaving anything.
func TestHostileInput(t *testing.T) {
	small := Limits{MaxTotal: 1 << 20, MaxEntries: 9, MaxRatio: 10, RatioFloor: 1024}
	cases := []struct {
		name string
		file string
		b    func(t testing.TB) []byte
		lim  Limits
		rule string
	}{
		{"path traversal", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/../../../etc/cron.d/x", []byte("x"), nil))
		}, Limits{}, RulePathTraversal},
		{"absolute path", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("/etc/passwd", []byte("x"), nil))
		}, Limits{}, RulePathAbsolute},
		{"drive letter", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("C:/Windows/x.dll", []byte("x"), nil))
		}, Limits{}, RulePathAbsolute},
		{"backslash", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile(`data\files\..\..\x`, []byte("x"), nil))
		}, Limits{}, RulePathBackslash},
		{"NUL in name", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/a\x00.txt", []byte("x"), nil))
		}, Limits{}, RulePathNUL},
		{"name not UTF-8", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/\xff\xfe.txt", []byte("x"), nil))
		}, Limits{}, RulePathEncoding},
		{"duplicate name", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/outline.md", []byte("second copy"), nil))
		}, Limits{}, RuleDuplicate},
		{"duplicate after case folding", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/OUTLINE.md", []byte("x"), nil))
		}, Limits{}, RuleDuplicate},
		{"symlink", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/link", []byte("/etc/passwd"), func(fh *zip.FileHeader) { fh.SetMode(os.ModeSymlink | 0o777) }))
		}, Limits{}, RuleSymlink},
		{"encrypted", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/secret", []byte("x"), func(fh *zip.FileHeader) { fh.Flags |= 1 }))
		}, Limits{}, RuleEncrypted},
		{"unknown compression method", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, func(zw *zip.Writer) {
				w, _ := zw.CreateRaw(&zip.FileHeader{Name: "data/files/x.bz2", Method: 12, CompressedSize64: 1, UncompressedSize64: 1})
				w.Write([]byte("x"))
			})
		}, Limits{}, RuleMethod},
		{"too many entries", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, func(zw *zip.Writer) {
				for i := 0; i < 5; i++ {
					packtest.AddFile("data/files/f"+itoa(i), []byte("x"), nil)(zw)
				}
			})
		}, small, RuleLimitEntries},
		{"too many bytes", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/big", bytes.Repeat([]byte("0123456789abcdef"), 1<<17), nil))
		}, small, RuleLimitTotal},
		{"compression ratio past the limit", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/zeros", packtest.Zeros(64<<10), nil))
		}, small, RuleLimitRatio},
		{"bomb past the default 1000:1", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, func(zw *zip.Writer) {
				zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestCompression) })
				packtest.AddFile("data/files/zeros", packtest.Zeros(48<<20), nil)(zw)
			})
		}, Limits{}, RuleLimitRatio},
		{"bomb lying about its size", "x.taskpack", func(t testing.TB) []byte {
			var body bytes.Buffer
			fw, _ := flate.NewWriter(&body, flate.BestCompression)
			fw.Write(packtest.Zeros(8 << 20))
			fw.Close()
			return packtest.HostileZip(t, func(zw *zip.Writer) {
				w, _ := zw.CreateRaw(&zip.FileHeader{Name: "data/files/small.txt", Method: zip.Deflate,
					CompressedSize64: uint64(body.Len()), UncompressedSize64: 100, CRC32: 0})
				w.Write(body.Bytes())
			})
		}, Limits{}, RuleZipFormat},
		{"CRC does not match", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, func(zw *zip.Writer) {
				w, _ := zw.CreateRaw(&zip.FileHeader{Name: "data/files/c.txt", Method: zip.Store,
					CompressedSize64: 5, UncompressedSize64: 5, CRC32: 12345})
				w.Write([]byte("hello"))
			})
		}, Limits{}, RuleDigest},
		{"entries sharing one body", "x.taskpack", func(t testing.TB) []byte {
			b := packtest.HostileZip(t, packtest.AddFile("data/files/aaaa", []byte("some body"), nil))
			return overlapping(t, b, "data/files/bbbb")
		}, Limits{}, RuleZipFormat},
		{"truncated", "x.taskpack", func(t testing.TB) []byte {
			b := packtest.BagOf(t, packtest.RefObject(t))
			return b[:len(b)/2]
		}, Limits{}, RuleTruncated},
		{"truncated in the directory", "x.taskpack", func(t testing.TB) []byte {
			b := packtest.BagOf(t, packtest.RefObject(t))
			return b[:len(b)-10]
		}, Limits{}, RuleTruncated},
		{"trailing garbage", "x.taskpack", func(t testing.TB) []byte {
			return append(packtest.BagOf(t, packtest.RefObject(t)), []byte("#!/bin/sh\nrm -rf ~\n")...)
		}, Limits{}, RuleTrailing},
		{"payload file missing from the manifest", "x.taskpack", func(t testing.TB) []byte {
			return packtest.HostileZip(t, packtest.AddFile("data/files/stowaway.sh", []byte("echo hi"), nil))
		}, Limits{}, RuleUnlisted},
		{"digest does not match", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) {
				(*es)[len(*es)-1].Data = []byte("tampered")
			})
		}, Limits{}, RuleDigest},
		{"listed but missing", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) { *es = (*es)[:len(*es)-1] })
		}, Limits{}, RuleMissing},
		{"malformed passport.json", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, []byte(`{"spec": "task-passport-bag/0.1",}`), nil, nil)
		}, Limits{}, RuleJSON},
		{"passport.json not an object", "x.taskpack", func(t testing.TB) []byte { return packtest.RawBag(t, []byte("[]\n"), nil, nil) }, Limits{}, RuleObject},
		{"unknown spec", "x.taskpack", func(t testing.TB) []byte {
			return packtest.BagOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Set("spec", ojson.NewString("task-passport-bag/0.2")) }))
		}, Limits{}, RuleSpec},
		{"unknown kind", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.FlatOf(t, packtest.Mutate(t, func(o *ojson.Value) { o.Set("kind", ojson.NewString("instructions")) }))
		}, Limits{}, RuleKind},
		{"unknown Bag-Spec", "x.taskpack", func(t testing.TB) []byte {
			return packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), nil, func(es *[]file) {
				(*es)[1].Data = []byte("Bag-Spec: something/9\n")
				packtest.FixTagManifest(es)
			})
		}, Limits{}, RuleBagSpec},
		{"flat: unknown taskpack", "x.taskpack.json", func(t testing.TB) []byte {
			return bytes.Replace(packtest.FlatOf(t, packtest.RefObject(t)), []byte(`"taskpack": "0.1"`), []byte(`"taskpack": "1.0"`), 1)
		}, Limits{}, RuleTaskpack},
		{"flat: malformed JSON", "x.taskpack.json", func(t testing.TB) []byte {
			return bytes.Replace(packtest.FlatOf(t, packtest.RefObject(t)), []byte(`"kind": "handoff",`), []byte(`"kind": "handoff",,`), 1)
		}, Limits{}, RuleJSON},
		{"flat: truncated", "x.taskpack.json", func(t testing.TB) []byte {
			b := packtest.FlatOf(t, packtest.RefObject(t))
			return b[:len(b)-40]
		}, Limits{}, RuleTruncated},
		{"flat: trailing garbage", "x.taskpack.json", func(t testing.TB) []byte {
			return append(packtest.FlatOf(t, packtest.RefObject(t)), []byte("{}")...)
		}, Limits{}, RuleTrailing},
		{"flat: sha256 does not match", "x.taskpack.json", func(t testing.TB) []byte {
			a := packtest.Att("a.txt", []byte("hello"))
			a.Set("data", ojson.NewString("aGVsbG8h"))
			return packtest.RawFlat(t, packtest.RefObject(t), a)
		}, Limits{}, RuleAttachmentSHA},
		{"flat: attachment climbs out", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.RawFlat(t, packtest.RefObject(t), packtest.Att("../../.bashrc", []byte("x")))
		}, Limits{}, RulePathTraversal},
		{"flat: absolute attachment", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.RawFlat(t, packtest.RefObject(t), packtest.Att("/etc/passwd", []byte("x")))
		}, Limits{}, RulePathAbsolute},
		{"flat: duplicate attachment after case folding", "x.taskpack.json", func(t testing.TB) []byte {
			return packtest.RawFlat(t, packtest.RefObject(t), packtest.Att("Notes.txt", []byte("x")), packtest.Att("notes.TXT", []byte("y")))
		}, Limits{}, RuleDuplicate},
		{"flat: unknown attachment encoding", "x.taskpack.json", func(t testing.TB) []byte {
			a := packtest.Att("a.txt", []byte("x"))
			a.Set("encoding", ojson.NewString("rot13"))
			return packtest.RawFlat(t, packtest.RefObject(t), a)
		}, Limits{}, RuleAttachment},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, c.b(t), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, strict := range []bool{false, true} {
				p, err := Open(path, Options{Limits: c.lim, Strict: strict})
				if p != nil {
					p.Close()
				}
				e := wantRule(t, err, c.rule)
				if e.File != path || !strings.HasPrefix(err.Error(), path+": ") {
					t.Errorf("error does not name the file: %v", err)
				}
			}
			if c.lim == (Limits{}) {
				out := filepath.Join(dir, "out.taskpack.json")
				if err := Convert(path, out, WriteOptions{AllowLarge: true}); err == nil {
					t.Fatal("Convert accepted hostile input")
				}
				left, _ := os.ReadDir(dir)
				if len(left) != 1 {
					t.Fatalf("Convert left files behind: %v", left)
				}
			}
		})
	}
}

func TestSniffIgnoresTheName(t *testing.T) {
	dir := t.TempDir()
	bag := filepath.Join(dir, "looks-flat.taskpack.json")
	flat := filepath.Join(dir, "looks-like-a.taskpack")
	os.WriteFile(bag, packtest.BagOf(t, packtest.RefObject(t)), 0o644)
	os.WriteFile(flat, packtest.FlatOf(t, packtest.RefObject(t)), 0o644)
	for path, want := range map[string]Encoding{bag: EncodingBag, flat: EncodingFlat} {
		p, err := Open(path, Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		if p.Encoding != want {
			t.Errorf("%s: encoding %s, want %s", path, p.Encoding, want)
		}
		p.Close()
	}
}
