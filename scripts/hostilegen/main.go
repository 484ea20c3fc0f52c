// Command hostilegen writes the small hostile packs of issue 11 — inputs
// whose reading is work out of proportion to their size — from a base bag
// (an ordinary .taskpack), so nothing large is committed. scripts/work-limits.sh
// runs tp on each under /usr/bin/time and checks the bounds.
//
//	hostilegen -base examples/handoff.taskpack -case tagcont -n 300000 -out x.taskpack
//
// Cases:
//
//	tagcont  bag-info.txt: one label followed by n continuation lines (" a")
//	extra    n unlisted payload entries outside data/files/ (data/x/<i>)
//	zeros    n luggage files of 1 MiB of zeros each, deflated at level 9
//	deep     data/passport.json gets an unknown field holding 900 nested
//	         arrays around n small elements
package main

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
)

type entry struct {
	name string
	data []byte // nil for zeros entries, which stream
	size int64
}

func main() {
	base := flag.String("base", "examples/handoff.taskpack", "an ordinary .taskpack to start from")
	kind := flag.String("case", "", "tagcont, extra, zeros or deep")
	n := flag.Int("n", 1000, "how many lines, entries, files or elements")
	out := flag.String("out", "", "the pack to write")
	flag.Parse()
	if *out == "" || *kind == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*base, *kind, *n, *out); err != nil {
		fmt.Fprintln(os.Stderr, "hostilegen:", err)
		os.Exit(1)
	}
}

func run(base, kind string, n int, out string) error {
	zr, err := zip.OpenReader(base)
	if err != nil {
		return err
	}
	defer zr.Close()
	var payload []entry
	tags := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		if strings.HasPrefix(f.Name, "data/") {
			payload = append(payload, entry{f.Name, b, int64(len(b))})
		} else {
			tags[f.Name] = b
		}
	}
	zeros := 0
	unlisted := map[string]bool{}
	switch kind {
	case "tagcont":
		tags["bag-info.txt"] = append(tags["bag-info.txt"], "External-Description: x\n"+strings.Repeat(" a\n", n)...)
	case "extra":
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("data/x/%d", i)
			payload = append(payload, entry{name, []byte{}, 0})
			unlisted[name] = true
		}
	case "zeros":
		zeros = n
	case "deep":
		p := payload[0].data
		if payload[0].name != "data/passport.json" {
			return fmt.Errorf("the base's first payload entry is not data/passport.json")
		}
		// Insert the field right after the opening brace, in the compact
		// form an attacker would send (the canonical form is the problem).
		var b bytes.Buffer
		b.WriteString("{\"x\": ")
		b.WriteString(strings.Repeat("[", 900))
		b.WriteString(strings.TrimSuffix(strings.Repeat("0,", n), ","))
		b.WriteString(strings.Repeat("]", 900))
		b.WriteString(", ")
		b.Write(bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimSpace(p), []byte("{")), " \n"))
		b.WriteString("\n")
		payload[0].data = b.Bytes()
		payload[0].size = int64(b.Len())
	default:
		return fmt.Errorf("unknown case %q", kind)
	}

	// Manifest, Payload-Oxum, tag manifest.
	var m strings.Builder
	var octets int64
	count := 0
	for _, e := range payload {
		if !unlisted[e.name] {
			fmt.Fprintf(&m, "%s  %s\n", sum(e.data), e.name)
		}
		octets += e.size
		count++
	}
	zsum := ""
	if zeros > 0 {
		zsum = hex.EncodeToString(zeroSum())
		for i := 0; i < zeros; i++ {
			fmt.Fprintf(&m, "%s  data/files/z/%d\n", zsum, i)
			octets += 1 << 20
			count++
		}
	}
	tags["manifest-sha256.txt"] = []byte(m.String())
	var info strings.Builder
	for _, line := range strings.SplitAfter(string(tags["bag-info.txt"]), "\n") {
		if strings.HasPrefix(line, "Payload-Oxum:") {
			line = fmt.Sprintf("Payload-Oxum: %d.%d\n", octets, count)
		}
		info.WriteString(line)
	}
	tags["bag-info.txt"] = []byte(info.String())
	var tm strings.Builder
	for _, t := range []string{"bagit.txt", "bag-info.txt", "manifest-sha256.txt"} {
		fmt.Fprintf(&tm, "%s  %s\n", sum(tags[t]), t)
	}
	tags["tagmanifest-sha256.txt"] = []byte(tm.String())

	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	write := func(name string, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	for _, t := range []string{"bagit.txt", "bag-info.txt", "manifest-sha256.txt", "tagmanifest-sha256.txt"} {
		if err := write(t, tags[t]); err != nil {
			return err
		}
	}
	for _, e := range payload {
		if err := write(e.name, e.data); err != nil {
			return err
		}
	}
	if zeros > 0 {
		// Deflate 1 MiB of zeros once and copy the compressed body: the
		// same bytes every time, and fast to write many of.
		var body bytes.Buffer
		fw, _ := flate.NewWriter(&body, flate.BestCompression)
		fw.Write(make([]byte, 1<<20))
		fw.Close()
		crc := zeroCRC()
		for i := 0; i < zeros; i++ {
			w, err := zw.CreateRaw(&zip.FileHeader{Name: fmt.Sprintf("data/files/z/%d", i), Method: zip.Deflate,
				CRC32: crc, CompressedSize64: uint64(body.Len()), UncompressedSize64: 1 << 20})
			if err != nil {
				return err
			}
			if _, err := w.Write(body.Bytes()); err != nil {
				return err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func sum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func zeroSum() []byte { s := sha256.Sum256(make([]byte, 1<<20)); return s[:] }

func zeroCRC() uint32 { return crc32.ChecksumIEEE(make([]byte, 1<<20)) }
