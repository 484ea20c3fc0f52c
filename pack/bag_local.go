package pack

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/klauspost/compress/zip"
)

// maxCentralDirectory bounds the central directory read into memory to
// compare names: 100,000 entries of a few hundred bytes each fit well inside.
const maxCentralDirectory = 64 << 20

// checkLocalNames compares every entry's name in its local header with the
// name the central directory gives it (D10). A ZIP whose two names differ
// shows one file to a reader that walks the central directory (tp, Go,
// Python) and another to one that streams local headers (many unzip tools,
// some scanners): what was judged would not be what is extracted.
// files is zip.Reader.File, in central directory order.
func checkLocalNames(l *loaded, r io.ReaderAt, size int64, files []*zip.File) error {
	bad := func(detail string) error { return l.errf("", RuleZipFormat, "%s", detail) }
	// The end of central directory record, as checkZipEnd found it.
	n := min(int64(65535+22), size)
	tail := make([]byte, n)
	if _, err := r.ReadAt(tail, size-n); err != nil && err != io.EOF {
		return l.errf("", RuleTruncated, "%v", err)
	}
	p := -1
	for i := len(tail) - 22; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) == 0x06054b50 && i+22+int(binary.LittleEndian.Uint16(tail[i+20:])) == len(tail) {
			p = i
			break
		}
	}
	if p < 0 {
		return bad("no end-of-central-directory record")
	}
	eocd := tail[p:]
	dirEnd := size - n + int64(p)
	cdSize := uint64(binary.LittleEndian.Uint32(eocd[12:]))
	cdOff := uint64(binary.LittleEndian.Uint32(eocd[16:]))
	if binary.LittleEndian.Uint16(eocd[10:]) == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff {
		// ZIP64: the locator sits just before the record and points at the
		// ZIP64 end of central directory record.
		if dirEnd < 20 {
			return bad("ZIP64 end-of-central-directory locator missing")
		}
		var loc [20]byte
		if _, err := r.ReadAt(loc[:], dirEnd-20); err != nil || binary.LittleEndian.Uint32(loc[:]) != 0x07064b50 {
			return bad("ZIP64 end-of-central-directory locator missing")
		}
		at := int64(binary.LittleEndian.Uint64(loc[8:]))
		var rec [56]byte
		if at < 0 || at+56 > size {
			return bad("ZIP64 end-of-central-directory record out of range")
		}
		if _, err := r.ReadAt(rec[:], at); err != nil || binary.LittleEndian.Uint32(rec[:]) != 0x06064b50 {
			return bad("ZIP64 end-of-central-directory record missing")
		}
		dirEnd = at
		cdSize = binary.LittleEndian.Uint64(rec[40:])
		cdOff = binary.LittleEndian.Uint64(rec[48:])
	}
	if cdSize > maxCentralDirectory || cdSize > uint64(dirEnd) {
		return bad("central directory larger than the file or the limit")
	}
	// As zip.Reader does: data prepended to the archive shifts every offset.
	base := dirEnd - int64(cdSize) - int64(cdOff)
	if base > 0 {
		var sig [4]byte
		if _, err := r.ReadAt(sig[:], int64(cdOff)); err == nil && binary.LittleEndian.Uint32(sig[:]) == 0x02014b50 {
			base = 0
		}
	}
	if base < 0 {
		return bad("central directory offset out of range")
	}
	cd := make([]byte, cdSize)
	if _, err := r.ReadAt(cd, base+int64(cdOff)); err != nil {
		return l.errf("", RuleTruncated, "central directory unreadable: %v", err)
	}
	var local []byte // a local header and its name; grown to the longest name
	q := 0
	for _, zf := range files {
		if q+46 > len(cd) || binary.LittleEndian.Uint32(cd[q:]) != 0x02014b50 {
			return bad("central directory record unreadable")
		}
		nl := int(binary.LittleEndian.Uint16(cd[q+28:]))
		el := int(binary.LittleEndian.Uint16(cd[q+30:]))
		cl := int(binary.LittleEndian.Uint16(cd[q+32:]))
		if q+46+nl+el+cl > len(cd) {
			return bad("central directory record unreadable")
		}
		name := cd[q+46 : q+46+nl]
		extra := cd[q+46+nl : q+46+nl+el]
		if string(name) != zf.Name {
			return bad("central directory records out of step with the reader")
		}
		off := uint64(binary.LittleEndian.Uint32(cd[q+42:]))
		if off == 0xffffffff {
			var ok bool
			if off, ok = zip64Offset(extra, binary.LittleEndian.Uint32(cd[q+24:]) == 0xffffffff, binary.LittleEndian.Uint32(cd[q+20:]) == 0xffffffff); !ok {
				return l.errf(printable(zf.Name), RuleZipFormat, "ZIP64 offset missing from the central directory")
			}
		}
		rec := q
		q += 46 + nl + el + cl
		at := base + int64(off)
		if at < 0 || at+30 > size {
			return l.errf(printable(zf.Name), RuleTruncated, "local header out of range")
		}
		if cap(local) < 30+nl {
			local = make([]byte, 30+max(nl, 256))
		}
		h := local[:min(int64(30+nl), size-at)]
		if _, err := r.ReadAt(h, at); err != nil && err != io.EOF {
			return l.errf(printable(zf.Name), RuleTruncated, "local header unreadable: %v", err)
		}
		if binary.LittleEndian.Uint32(h) != 0x04034b50 {
			return l.errf(printable(zf.Name), RuleZipFormat, "no local header where the central directory points")
		}
		ln := int(binary.LittleEndian.Uint16(h[26:]))
		if ln != nl || len(h) < 30+nl || !bytes.Equal(h[30:30+nl], name) {
			got := "(unreadable)"
			if ln <= len(h)-30 {
				got = printable(string(h[30 : 30+ln]))
			} else if len(h) >= 30+nl {
				got = printable(string(h[30:30+nl]) + "…")
			}
			return l.errf(printable(zf.Name), RuleZipFormat, "the local header names it %s: a ZIP that shows different names to different tools", got)
		}
		// The same for how the bytes are stored: a streaming unzip takes the
		// method and the encryption flag from the local header.
		if lm, cm := binary.LittleEndian.Uint16(h[8:]), binary.LittleEndian.Uint16(cd[rec+10:]); lm != cm {
			return l.errf(printable(zf.Name), RuleZipFormat, "the local header says compression method %d, the central directory %d", lm, cm)
		}
		if binary.LittleEndian.Uint16(h[6:])&0x41 != 0 {
			return l.errf(printable(zf.Name), RuleEncrypted, "the local header marks the entry encrypted")
		}
	}
	return nil
}

// zip64Offset finds the local header offset in a central directory record's
// ZIP64 extra field (id 1), whose values appear only for the fields that
// overflowed, in the order uncompressed size, compressed size, offset.
func zip64Offset(extra []byte, usize, csize bool) (uint64, bool) {
	for len(extra) >= 4 {
		id := binary.LittleEndian.Uint16(extra)
		sz := int(binary.LittleEndian.Uint16(extra[2:]))
		if 4+sz > len(extra) {
			return 0, false
		}
		body := extra[4 : 4+sz]
		extra = extra[4+sz:]
		if id != 1 {
			continue
		}
		skip := 0
		if usize {
			skip += 8
		}
		if csize {
			skip += 8
		}
		if len(body) < skip+8 {
			return 0, false
		}
		return binary.LittleEndian.Uint64(body[skip:]), true
	}
	return 0, false
}
