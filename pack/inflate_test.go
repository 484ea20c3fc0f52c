package pack

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/klauspost/compress/zip"
)

// TestInflatersKeepEntriesApart: the recycled DEFLATE readers never mix two
// entries' bytes, open side by side or one after another, and a reader
// closed (its inflater handed to the next entry) refuses to read on.
func TestInflatersKeepEntriesApart(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	want := map[string][]byte{}
	for i := range 40 {
		name := fmt.Sprintf("f%02d", i)
		body := bytes.Repeat([]byte(fmt.Sprintf("entry %d says %d\n", i, i*i)), 50+i*300)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(body)
		want[name] = body
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	zr.RegisterDecompressor(zip.Deflate, inflate)
	// Pairs read in turn, a few bytes each, then closed.
	for i := 0; i+1 < len(zr.File); i += 2 {
		a, _ := zr.File[i].Open()
		b, _ := zr.File[i+1].Open()
		var ga, gb bytes.Buffer
		for ea, eb := false, false; !ea || !eb; {
			if !ea {
				_, err := io.CopyN(&ga, a, 97)
				ea = err == io.EOF
			}
			if !eb {
				_, err := io.CopyN(&gb, b, 131)
				eb = err == io.EOF
			}
		}
		for _, c := range []struct {
			f   *zip.File
			got []byte
		}{{zr.File[i], ga.Bytes()}, {zr.File[i+1], gb.Bytes()}} {
			if !bytes.Equal(c.got, want[c.f.Name]) {
				t.Fatalf("%s: %d bytes read, want %d as written", c.f.Name, len(c.got), len(want[c.f.Name]))
			}
		}
		a.Close()
		b.Close()
		// The next entry takes a's inflater: a must not read it.
		c, _ := zr.File[(i+2)%len(zr.File)].Open()
		if n, err := a.Read(make([]byte, 10)); n != 0 || err == nil {
			t.Fatalf("read after Close: %d bytes, %v", n, err)
		}
		c.Close()
		c.Close() // a second Close hands nothing back twice
		d1, _ := zr.File[0].Open()
		d2, _ := zr.File[1].Open()
		g1, err1 := io.ReadAll(d1)
		g2, err2 := io.ReadAll(d2)
		if err1 != nil || err2 != nil || !bytes.Equal(g1, want["f00"]) || !bytes.Equal(g2, want["f01"]) {
			t.Fatalf("after a double Close: %v %v, entries mixed: %v", err1, err2, !bytes.Equal(g1, want["f00"]))
		}
		d1.Close()
		d2.Close()
	}
	if _, err := (&inflating{}).Read(nil); !errors.Is(err, errReadAfterClose) {
		t.Fatalf("an emptied reader: %v", err)
	}
}
