package pack

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/klauspost/compress/zip"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// Bag tag files (§2.1, D2).
const (
	tagBagIt       = "bagit.txt"
	tagBagInfo     = "bag-info.txt"
	tagManifest    = "manifest-sha256.txt"
	tagTagManifest = "tagmanifest-sha256.txt"
	payloadObject  = "data/passport.json"
	payloadFiles   = "data/files/"
)

// maxTagBytes bounds a tag file, which is read into memory (a manifest of
// 100,000 entries is about 10 MB).
const maxTagBytes = 64 << 20

func isUTF8(s string) bool { return utf8.ValidString(s) }

// bagEntry is a ZIP entry the reader kept.
type bagEntry struct {
	f    *zip.File
	name string
}

// loadBag reads the central directory, refuses what D10 forbids, reads the
// tag files and data/passport.json, and lists the luggage. Payload digests
// are checked by verifyBag.
func loadBag(l *loaded, f *os.File, lim Limits) error {
	if err := checkZipEnd(l, f, l.size); err != nil {
		return err
	}
	zr, err := zip.NewReader(newWindowReader(f, l.size), l.size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		if errors.Is(err, zip.ErrFormat) || errors.Is(err, io.ErrUnexpectedEOF) {
			return l.errf("", RuleTruncated, "the ZIP's central directory is damaged or cut short: %v", err)
		}
		return l.errf("", RuleZipFormat, "not a readable ZIP: %v", err)
	}
	zr.RegisterDecompressor(zip.Deflate, inflate)
	if len(zr.File) > lim.MaxEntries {
		return l.errf("", RuleLimitEntries, "%d entries, more than the limit of %d", len(zr.File), lim.MaxEntries)
	}
	var total uint64
	seen := map[string]string{}
	entries := map[string]*zip.File{}
	var order []*zip.File
	for _, zf := range zr.File {
		name := zf.Name
		if rule, why := checkName(name); rule != "" {
			return l.errf(printable(name), rule, "%s", why)
		}
		if zf.Flags&0x1 != 0 || zf.Flags&0x40 != 0 {
			return l.errf(name, RuleEncrypted, "entry is encrypted")
		}
		mode := zf.Mode()
		if mode&fs.ModeSymlink != 0 {
			return l.errf(name, RuleSymlink, "entry is a symbolic link")
		}
		if mode&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice|fs.ModeIrregular) != 0 {
			return l.errf(name, RuleSymlink, "entry is not a regular file")
		}
		if zf.Method != zip.Store && zf.Method != zip.Deflate {
			return l.errf(name, RuleMethod, "compression method %d (only stored and deflated are read)", zf.Method)
		}
		key := foldName(strings.TrimSuffix(name, "/"))
		if prev, dup := seen[key]; dup {
			if prev == name {
				return l.errf(name, RuleDuplicate, "entry appears twice")
			}
			return l.errf(name, RuleDuplicate, "entry collides with %q when case is folded", prev)
		}
		seen[key] = name
		isDir := strings.HasSuffix(name, "/")
		if isDir {
			if zf.UncompressedSize64 != 0 {
				return l.errf(name, RuleZipFormat, "a directory entry with contents")
			}
			continue
		}
		total += zf.UncompressedSize64
		if total > uint64(lim.MaxTotal) {
			return l.errf(name, RuleLimitTotal, "uncompressed size passes the limit of %d bytes", lim.MaxTotal)
		}
		if zf.UncompressedSize64 > uint64(lim.RatioFloor) {
			if zf.CompressedSize64 == 0 || zf.UncompressedSize64/zf.CompressedSize64 > uint64(lim.MaxRatio) {
				return l.errf(name, RuleLimitRatio, "expands %d bytes to %d, past the %d:1 limit", zf.CompressedSize64, zf.UncompressedSize64, lim.MaxRatio)
			}
		}
		entries[name] = zf
		order = append(order, zf)
	}
	if total > uint64(lim.RatioFloor) && l.size > 0 && total/uint64(l.size) > uint64(lim.MaxRatio) {
		return l.errf("", RuleLimitRatio, "the archive expands %d bytes to %d, past the %d:1 limit", l.size, total, lim.MaxRatio)
	}
	// Entries must not share bytes: overlapping entries are how a small
	// file claims to hold many copies of one big body.
	if err := checkOverlap(l, order); err != nil {
		return err
	}
	if err := checkLocalNames(l, f, l.size, zr.File); err != nil {
		return err
	}

	l.bagTags = map[string][]byte{}
	for name, zf := range entries {
		if strings.HasPrefix(name, "data/") {
			continue
		}
		b, err := readEntry(zf, maxTagBytes)
		if err != nil {
			return l.errf(name, ruleForReadErr(err), "%v", err)
		}
		l.bagTags[name] = b
	}
	objFile, ok := entries[payloadObject]
	if !ok {
		if _, bag := l.bagTags[tagBagIt]; !bag && !hasPrefixKey(entries, "data/") {
			return l.errf("", RuleNotAPack, "a ZIP, but neither a BagIt bag nor a pack (no bagit.txt, no data/passport.json)")
		}
		l.objErr = append(l.objErr, l.errf(payloadObject, RuleObject, "missing: the bag carries no pack object"))
		l.problems = append(l.problems, l.errf(payloadObject, RuleMissing, "data/passport.json is not in the bag"))
	} else {
		b, err := readEntry(objFile, MaxObjectBytes)
		if err != nil {
			return l.errf(payloadObject, ruleForReadErr(err), "%v", err)
		}
		l.raw = b
		v, q, perr := ojson.Parse(b)
		l.quirks = q
		switch {
		case perr != nil:
			l.objErr = append(l.objErr, l.errf(payloadObject, RuleJSON, "%v", perr))
		case v.Kind() != ojson.Object:
			l.objErr = append(l.objErr, l.errf(payloadObject, RuleObject, "the pack object is a JSON %s, not an object", v.Kind()))
		default:
			l.obj = v
		}
	}
	for _, zf := range order {
		name := zf.Name
		switch {
		case name == payloadObject || !strings.HasPrefix(name, "data/"):
		case strings.HasPrefix(name, payloadFiles):
			zf := zf
			l.luggage = append(l.luggage, &lentry{name: strings.TrimPrefix(name, payloadFiles), size: int64(zf.UncompressedSize64),
				open: func() (io.ReadCloser, error) { return zf.Open() }})
		default:
			l.extra = append(l.extra, name)
			l.extraFiles = append(l.extraFiles, zf)
		}
	}
	l.checkBagTags()
	return nil
}

func hasPrefixKey(m map[string]*zip.File, p string) bool {
	for k := range m {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

func printable(s string) string {
	return strconv.Quote(s)
}

func ruleForReadErr(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Rule
	}
	switch {
	case errors.Is(err, zip.ErrChecksum):
		return RuleDigest // the CRC does not match: damaged or tampered
	case errors.Is(err, zip.ErrFormat):
		return RuleZipFormat // e.g. more bytes than the entry declared: a bomb lying about its size
	case errors.Is(err, io.ErrUnexpectedEOF):
		return RuleTruncated
	}
	return RuleZipFormat
}

// readEntry reads a small entry whole, refusing one larger than max.
func readEntry(zf *zip.File, max int64) ([]byte, error) {
	if zf.UncompressedSize64 > uint64(max) {
		return nil, &Error{Rule: RuleLimitObject, Detail: fmt.Sprintf("%d bytes, more than the %d a reader holds in memory", zf.UncompressedSize64, max)}
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	// Sized from the declared size, which the limits and the ratio have
	// bounded already: reading a 10 MB object by doubling a buffer made
	// 20 MB of garbage (issue 20). A declared size that lies only costs a
	// read past it, refused below, or a shorter slice.
	b := make([]byte, 0, zf.UncompressedSize64+1)
	for {
		n, err := rc.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			return nil, &Error{Rule: RuleLimitObject, Detail: fmt.Sprintf("more than the %d bytes a reader holds in memory", max)}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// checkZipEnd finds the end-of-central-directory record itself, so that
// bytes after it (trailing garbage) or before the first entry are refused
// rather than silently skipped as ZIP readers do.
func checkZipEnd(l *loaded, f io.ReaderAt, size int64) error {
	if size < 22 {
		return l.errf("", RuleTruncated, "the file is %d bytes, too short to be a ZIP", size)
	}
	n := int64(65535 + 22)
	if n > size {
		n = size
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return l.errf("", RuleTruncated, "%v", err)
	}
	sig := []byte("PK\x05\x06")
	for p := len(buf) - 22; p >= 0; p-- {
		if !bytes.Equal(buf[p:p+4], sig) {
			continue
		}
		clen := int(binary.LittleEndian.Uint16(buf[p+20:]))
		end := p + 22 + clen
		if end > len(buf) {
			continue // not the real record: its comment would run past the file
		}
		if end < len(buf) {
			return l.errf("", RuleTrailing, "%d bytes follow the end of the ZIP", len(buf)-end)
		}
		return nil
	}
	return l.errf("", RuleTruncated, "no end-of-central-directory record: the ZIP is cut short or damaged")
}

func checkOverlap(l *loaded, files []*zip.File) error {
	type span struct {
		start, end int64
		name       string
	}
	spans := make([]span, 0, len(files))
	for _, zf := range files {
		off, err := zf.DataOffset()
		if err != nil {
			return l.errf(zf.Name, RuleTruncated, "local header unreadable: %v", err)
		}
		end := off + int64(zf.CompressedSize64)
		if end > l.size || end < off {
			return l.errf(zf.Name, RuleTruncated, "entry data runs past the end of the file")
		}
		spans = append(spans, span{off - 30 - int64(len(zf.Name)), end, zf.Name})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return l.errf(spans[i].name, RuleZipFormat, "entry overlaps %q (a ZIP bomb shares one body among entries)", spans[i-1].name)
		}
	}
	return nil
}

// checkBagTags judges the bag's declaration and tag files (C1): bagit.txt,
// the manifests' presence, bag-info.txt's Bag-Spec, and the tag manifest.
func (l *loaded) checkBagTags() {
	bagit, ok := l.bagTags[tagBagIt]
	if !ok {
		l.problems = append(l.problems, l.errf(tagBagIt, RuleBagIt, "missing: this ZIP is not a BagIt bag"))
	} else {
		info, err := parseTagLines(bagit)
		if err != nil {
			l.problems = append(l.problems, l.errf(tagBagIt, RuleLimitWork, "%v", err))
		}
		if v := info["BagIt-Version"]; v != "1.0" {
			l.problems = append(l.problems, l.errf(tagBagIt, RuleBagIt, "BagIt-Version is %q, want 1.0", v))
		}
		if e := info["Tag-File-Character-Encoding"]; !strings.EqualFold(e, "UTF-8") {
			l.problems = append(l.problems, l.errf(tagBagIt, RuleBagIt, "Tag-File-Character-Encoding is %q, want UTF-8", e))
		}
	}
	if b, ok := l.bagTags[tagBagInfo]; ok {
		info, err := parseTagLines(b)
		if err != nil {
			l.problems = append(l.problems, l.errf(tagBagInfo, RuleLimitWork, "%v", err))
		}
		if s, has := info["Bag-Spec"]; has && s != model.BagSpecValue && s != model.SpecBag {
			l.problems = append(l.problems, l.errf(tagBagInfo, RuleBagSpec, "Bag-Spec %q is not one this reader knows", s))
		}
	}
	if _, ok := l.bagTags[tagManifest]; !ok {
		l.problems = append(l.problems, l.errf(tagManifest, RuleManifest, "missing: nothing vouches for the payload"))
	}
	tm, ok := l.bagTags[tagTagManifest]
	if !ok {
		l.problems = append(l.problems, l.errf(tagTagManifest, RuleManifest, "missing: nothing vouches for the tag files"))
		return
	}
	lines, err := parseManifest(tm)
	if err != nil {
		l.problems = append(l.problems, l.errf(tagTagManifest, RuleManifest, "%v", err))
		return
	}
	for _, m := range lines {
		b, ok := l.bagTags[m.path]
		if !ok {
			l.problems = append(l.problems, l.errf(m.path, RuleMissing, "listed in %s but not in the bag", tagTagManifest))
			continue
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != m.digest {
			l.problems = append(l.problems, l.errf(m.path, RuleDigest, "does not match its %s digest", tagTagManifest))
		}
	}
}

// MaxTagLines bounds the lines of one tag file (bagit.txt, bag-info.txt)
// read as "Label: value" lines: the files tp writes have ten; a label
// followed by hundreds of thousands of continuation lines is work, not
// metadata (D10's work limit).
const MaxTagLines = 10_000

// errTagLines is parseTagLines' refusal.
var errTagLines = fmt.Errorf("more than %d lines, past the limit for a tag file", MaxTagLines)

// parseTagLines reads "Label: value" lines (BagIt §2.2.2), continuation
// lines (starting with a space or tab) folded into the label they follow,
// joined by one space. The first of two lines with the same label wins,
// with its continuations. Linear in the input; more than MaxTagLines lines
// is refused.
func parseTagLines(b []byte) (map[string]string, error) {
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	lines := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		lines++
	}
	if lines > MaxTagLines {
		return nil, errTagLines
	}
	parts := map[string][]string{}
	var order []string
	var cur []string // parts of the label being read, nil after a dropped duplicate
	curKey := ""
	flush := func() {
		if cur != nil {
			parts[curKey] = cur
		}
	}
	for len(b) > 0 {
		var line []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			line, b = b, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if cur != nil {
				cur = append(cur, strings.TrimSpace(string(line)))
			}
			continue
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		flush()
		curKey = strings.TrimSpace(string(k))
		cur = nil
		if _, dup := parts[curKey]; !dup {
			cur = []string{strings.TrimSpace(string(v))}
			order = append(order, curKey)
		}
	}
	flush()
	out := make(map[string]string, len(order))
	for _, k := range order {
		out[k] = strings.Join(parts[k], " ")
	}
	return out, nil
}

// manifestLine is one manifest entry: path is percent-decoded as BagIt
// §2.1.3 says, raw is the path as written. Some writers (bagit.py among them)
// do not percent-encode, so a payload file literally named "50%25.txt" is
// found under raw when no file is named path.
type manifestLine struct{ digest, path, raw string }

// manifestUnescape undoes manifestPath's percent-encoding (RFC 8493 §2.1.3);
// a Replacer is safe for concurrent use, and building one per line was
// most of what parsing a manifest of small files allocated.
var manifestUnescape = strings.NewReplacer("%0A", "\n", "%0a", "\n", "%0D", "\r", "%0d", "\r", "%25", "%")

// parseManifest reads "<sha256>  <path>" lines; paths are percent-decoded
// for CR, LF and % as BagIt §2.1.3 says.
func parseManifest(b []byte) ([]manifestLine, error) {
	var out []manifestLine
	seen := map[string]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		j := strings.IndexAny(line, " \t")
		if j != 64 {
			return nil, fmt.Errorf("line %d is not \"<sha256>  <path>\"", i+1)
		}
		digest := strings.ToLower(line[:j])
		if _, err := hex.DecodeString(digest); err != nil {
			return nil, fmt.Errorf("line %d: %q is not a sha256 digest", i+1, line[:j])
		}
		p := strings.TrimLeft(line[j:], " \t")
		raw := strings.TrimPrefix(p, "./")
		if strings.IndexByte(p, '%') >= 0 {
			p = manifestUnescape.Replace(p)
		}
		p = strings.TrimPrefix(p, "./")
		if p == "" {
			return nil, fmt.Errorf("line %d names no file", i+1)
		}
		if seen[p] {
			return nil, fmt.Errorf("line %d lists %q a second time", i+1, p)
		}
		seen[p] = true
		out = append(out, manifestLine{digest: digest, path: p, raw: raw})
	}
	return out, nil
}

// entrySink receives one payload entry's bytes during verification (C7
// scanning, C9 round trip); nil means none.
type entrySink func(name string) io.Writer

// verifyBag streams every payload entry once, checks it against
// manifest-sha256.txt and Payload-Oxum, and records what it finds as
// problems. A stream that cannot be read at all (truncation, a bomb lying
// about its size) is returned as an error: nothing after it can be trusted.
func verifyBag(l *loaded, sink entrySink, progress func(done, total int64)) error {
	mb, ok := l.bagTags[tagManifest]
	if !ok {
		return nil // already a problem
	}
	lines, err := parseManifest(mb)
	if err != nil {
		l.problems = append(l.problems, l.errf(tagManifest, RuleManifest, "%v", err))
		return nil
	}
	listed := map[string]string{}
	literal := map[string]string{}
	for _, m := range lines {
		listed[m.path] = m.digest
		if m.raw != m.path {
			literal[m.raw] = m.digest
		}
	}
	lookup := func(name string) (string, bool) {
		if d, ok := listed[name]; ok {
			return d, true
		}
		d, ok := literal[name]
		return d, ok
	}
	payload := map[string]bool{}
	var total int64
	for _, e := range l.luggage {
		total += e.size
	}
	total += int64(len(l.raw))
	var done int64
	var octets, count int64
	check := func(name, digest string, size int64) {
		payload[name] = true
		octets += size
		count++
		want, ok := lookup(name)
		if !ok {
			l.problems = append(l.problems, l.errf(name, RuleUnlisted, "payload file is not in %s: nobody vouched for it", tagManifest))
		} else if want != digest {
			l.problems = append(l.problems, l.errf(name, RuleDigest, "does not match its %s digest", tagManifest))
		}
	}
	if l.raw != nil {
		sum := sha256.Sum256(l.raw)
		check(payloadObject, hex.EncodeToString(sum[:]), int64(len(l.raw)))
		if sink != nil {
			if w := sink(payloadObject); w != nil {
				w.Write(l.raw)
			}
		}
		done += int64(len(l.raw))
	}
	buf, release := copyBuf(len(l.luggage))
	defer release()
	for _, e := range l.luggage {
		name := payloadFiles + e.name
		if l.deferLuggage {
			// Checked against its digest as OpenLuggage streams it.
			e.declared, _ = lookup(name)
			check(name, e.declared, e.size)
			continue
		}
		rc, err := e.open()
		if err != nil {
			return l.errf(name, ruleForReadErr(err), "%v", err)
		}
		h := sha256.New()
		var w io.Writer = h
		if sink != nil {
			if s := sink(name); s != nil {
				w = io.MultiWriter(h, s)
			}
		}
		var n int64
		step := func(k int) {
			n += int64(k)
			done += int64(k)
			if progress != nil {
				progress(done, total)
			}
		}
		var rerr error
		if e.size > pipelineAbove {
			rerr = pipeline(rc, w, step)
		} else {
			rerr = copyChunks(rc, w, buf, step)
		}
		rc.Close()
		if rerr != nil {
			return l.errf(name, ruleForReadErr(rerr), "cannot read the entry: %v", rerr)
		}
		e.actual = hex.EncodeToString(h.Sum(nil))
		e.declared, _ = lookup(name)
		check(name, e.actual, n)
	}
	for i, x := range l.extra {
		zf := l.extraFiles[i] // appended together with l.extra
		b, err := readEntryDigest(zf)
		if err != nil {
			return l.errf(x, ruleForReadErr(err), "%v", err)
		}
		check(x, b, int64(zf.UncompressedSize64))
	}
	for _, m := range lines {
		if !payload[m.path] && !payload[m.raw] {
			l.problems = append(l.problems, l.errf(m.path, RuleMissing, "listed in %s but not in the bag", tagManifest))
		}
	}
	if b, ok := l.bagTags[tagBagInfo]; ok {
		info, _ := parseTagLines(b) // a refusal is already a problem
		if ox, has := info["Payload-Oxum"]; has {
			want := strconv.FormatInt(octets, 10) + "." + strconv.FormatInt(count, 10)
			if ox != want {
				l.problems = append(l.problems, l.errf(tagBagInfo, RuleOxum, "Payload-Oxum is %s, the payload is %s", ox, want))
			}
		}
	}
	return nil
}

func readEntryDigest(zf *zip.File) (string, error) {
	rc, err := zf.Open()
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, bufio.NewReader(rc)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
