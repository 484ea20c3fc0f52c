package pack

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zip"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// bagitTxt is bagit.txt (D2).
const bagitTxt = "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"

// sampleBytes is how much of a luggage file is test-compressed to decide
// between deflate and store.
const sampleBytes = 64 << 10

// bagProfile is what bag-info.txt says of its writer rather than of the
// content: Bag-Software-Agent and Bag-Spec (D2, D3).
type bagProfile struct {
	Agent string // "tp" when empty
	Spec  string // model.BagSpecValue when empty
}

// bagTagFiles builds the four tag files of D2 from the pack object, the
// payload digests and the extension tag files only (D3), so that the flat
// form can rebuild them exactly. payload lists data/... paths and their
// digests in manifest order; ext's entries are listed in the tag manifest
// after manifest-sha256.txt, in ExtensionTags' order.
func bagTagFiles(obj *ojson.Value, payload []payloadSum, prof bagProfile, ext map[string][]byte) (bagit, info, manifest, tagmanifest []byte) {
	agent := prof.Agent
	var m bytes.Buffer
	var octets int64
	for _, p := range payload {
		fmt.Fprintf(&m, "%s  %s\n", p.sha256, manifestPath(p.path))
		octets += p.size
	}
	if agent == "" {
		agent = "tp"
	}
	po := model.PackObject{V: obj}
	st := po.Passport()
	desc := st.Title()
	if desc == "" {
		desc = st.ID()
	}
	date := po.PackedAt()
	if len(date) > 10 {
		date = date[:10]
	}
	or := func(s, d string) string {
		if s == "" {
			return d
		}
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Bag-Software-Agent: %s\n", tagValue(agent, 200))
	fmt.Fprintf(&b, "Bagging-Date: %s\n", tagValue(date, 10))
	fmt.Fprintf(&b, "External-Identifier: %s\n", tagValue(st.ID(), 200))
	fmt.Fprintf(&b, "External-Description: %s\n", tagValue(desc, 200))
	fmt.Fprintf(&b, "Source-Organization: %s\n", tagValue(or(po.Origin().Actor, "unknown"), 120))
	fmt.Fprintf(&b, "Internal-Sender-Identifier: %s\n", tagValue(or(po.Origin().Machine, "unknown"), 120))
	fmt.Fprintf(&b, "Payload-Oxum: %d.%d\n", octets, len(payload))
	spec := prof.Spec
	if spec == "" {
		spec = model.BagSpecValue
	}
	fmt.Fprintf(&b, "Bag-Spec: %s\n", spec)
	bagit = []byte(bagitTxt)
	info = []byte(b.String())
	manifest = m.Bytes()
	var t bytes.Buffer
	for _, f := range []struct {
		name string
		b    []byte
	}{{tagBagIt, bagit}, {tagBagInfo, info}, {tagManifest, manifest}} {
		sum := sha256.Sum256(f.b)
		fmt.Fprintf(&t, "%s  %s\n", hex.EncodeToString(sum[:]), f.name)
	}
	for _, e := range ExtensionTags {
		if b, ok := ext[e.Bag]; ok {
			sum := sha256.Sum256(b)
			fmt.Fprintf(&t, "%s  %s\n", hex.EncodeToString(sum[:]), manifestPath(e.Bag))
		}
	}
	return bagit, info, manifest, t.Bytes()
}

type payloadSum struct {
	path   string
	sha256 string
	size   int64
}

// tagValue keeps a bag-info value on one line and at most max UTF-16 code
// units (as the reference cuts it), never splitting a character.
func tagValue(s string, max int) string {
	var b strings.Builder
	n := 0
	inBreak := false
	for _, r := range s {
		if r == '\r' || r == '\n' {
			if !inBreak {
				r = ' '
				inBreak = true
			} else {
				continue
			}
		} else {
			inBreak = false
		}
		if r < 0x20 || r == 0x7f {
			r = ' '
		}
		w := len(utf16.Encode([]rune{r}))
		if n+w > max {
			break
		}
		n += w
		b.WriteRune(r)
	}
	return b.String()
}

// manifestPath percent-encodes what BagIt §2.1.3 requires in a manifest
// path: CR, LF and %.
func manifestPath(p string) string {
	if !strings.ContainsAny(p, "%\r\n") {
		return p
	}
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(p)
}

// zipTime is the entries' modification time: packed_at, so that the same
// pack written twice is the same bytes.
func zipTime(obj *ojson.Value) time.Time {
	if t, err := time.Parse(time.RFC3339, model.PackObject{V: obj}.PackedAt()); err == nil && t.Year() >= 1980 && t.Year() < 2108 {
		return t.UTC()
	}
	return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)
}

// BagEntries are the names of the entries of the bag Write makes of src,
// in D2's order: the tag files, the pack object, then the luggage under
// data/files/ (what task-passport's pack document lists as entries).
func BagEntries(src Source) []string {
	out := []string{tagBagIt, tagBagInfo, tagManifest, tagTagManifest}
	for _, e := range ExtensionTags {
		if _, ok := src.Tags[e.Bag]; ok {
			out = append(out, e.Bag)
		}
	}
	out = append(out, payloadObject)
	for _, l := range src.Luggage {
		out = append(out, payloadFiles+l.Name)
	}
	return out
}

// writeBag streams the bag as a ZIP in D2's entry order. sums are the
// scanning pass's results; the writing pass re-reads each luggage file and
// checks it is still the same bytes.
//
// passport is ojson.Canonical(src.Object), which the caller has made.
func writeBag(w *bufio.Writer, src Source, passport []byte, sums []luggageSum, opts WriteOptions) error {
	obj := src.Object
	ps := sha256.Sum256(passport)
	payload := []payloadSum{{path: payloadObject, sha256: hex.EncodeToString(ps[:]), size: int64(len(passport))}}
	for i, l := range src.Luggage {
		payload = append(payload, payloadSum{path: payloadFiles + l.Name, sha256: sums[i].sha256, size: sums[i].size})
	}
	bagit, info, manifest, tagmanifest := bagTagFiles(obj, payload, bagProfile{Agent: opts.Agent}, src.Tags)

	zw := zip.NewWriter(w)
	huffman := false // set just before an entry that must not compress past 8:1
	g := guardFor(opts.ReadLimits.withDefaults())
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		if huffman {
			return flate.NewWriter(out, flate.HuffmanOnly)
		}
		fw := flatePool.Get().(*flate.Writer)
		c := &countingOut{w: out}
		fw.Reset(c)
		return &pooledFlate{Writer: fw, out: c, guard: g}, nil
	})
	mod := zipTime(obj)
	header := func(name string, method uint16) *zip.FileHeader {
		fh := &zip.FileHeader{Name: name, Method: method, Modified: mod}
		fh.SetMode(0o644)
		return fh
	}
	small := func(name string, b []byte, method uint16) error {
		if method == zip.Deflate && !compressible(b) {
			method = zip.Store
		}
		fw, err := zw.CreateHeader(header(name, method))
		if err != nil {
			return err
		}
		_, err = fw.Write(b)
		return err
	}
	if err := small(tagBagIt, bagit, zip.Store); err != nil {
		return err
	}
	for _, t := range []struct {
		name string
		b    []byte
	}{{tagBagInfo, info}, {tagManifest, manifest}, {tagTagManifest, tagmanifest}} {
		if err := small(t.name, t.b, zip.Deflate); err != nil {
			return err
		}
	}
	for _, e := range ExtensionTags {
		if b, ok := src.Tags[e.Bag]; ok {
			if err := small(e.Bag, b, zip.Deflate); err != nil {
				return err
			}
		}
	}
	if err := small(payloadObject, passport, zip.Deflate); err != nil {
		return err
	}
	buf, release := copyBuf(len(src.Luggage))
	defer release()
	for i, l := range src.Luggage {
		if err := writeLuggageEntry(zw, header, l, sums[i], buf, &huffman, g.floor); err != nil {
			return err
		}
	}
	return zw.Close()
}

func writeLuggageEntry(zw *zip.Writer, header func(string, uint16) *zip.FileHeader, l LuggageSource, sum luggageSum, buf []byte, huffman *bool, floor int64) error {
	rc, err := l.Open()
	if err != nil {
		return &Error{Entry: l.Name, Rule: RuleWrite, Detail: "cannot read luggage: " + err.Error()}
	}
	defer rc.Close()
	n, err := io.ReadFull(rc, buf[:sampleBytes])
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return &Error{Entry: l.Name, Rule: RuleWrite, Detail: "cannot read luggage: " + err.Error()}
	}
	method := zip.Store
	ratio := compressRatio(buf[:n])
	if ratio > 10.0/9 {
		method = zip.Deflate
	}
	// Bytes this repetitive (a zero-filled image, a sparse file) would
	// deflate past the 1000:1 a reader refuses as a bomb (D10) once they
	// are larger than the ratio's floor: Huffman-only coding cannot go past
	// 8:1.
	*huffman = ratio > 50 && sum.size > floor
	fh := header(payloadFiles+l.Name, method)
	fw, err := zw.CreateHeader(fh)
	*huffman = false
	if err != nil {
		return err
	}
	h := sha256.New()
	mw := io.MultiWriter(fw, h)
	mw.Write(buf[:n])
	total := int64(n)
	if n == sampleBytes {
		k, err := io.CopyBuffer(mw, rc, buf)
		total += k
		if err != nil {
			return &Error{Entry: l.Name, Rule: RuleWrite, Detail: "cannot read luggage: " + err.Error()}
		}
	}
	if total != sum.size || hex.EncodeToString(h.Sum(nil)) != sum.sha256 {
		return luggageChanged("", l.Name)
	}
	return nil
}

// compressible test-deflates a sample: luggage that does not shrink by a
// tenth (images, archives, random bytes) is stored, not deflated.
func compressible(sample []byte) bool { return compressRatio(sample) > 10.0/9 }

// compressRatio is how many times smaller a fast deflate makes sample; 1
// for samples too small to be worth compressing.
func compressRatio(sample []byte) float64 {
	if len(sample) < 64 {
		return 1 // too small for deflate to pay for its own header
	}
	var c countWriter
	fw := flatePool.Get().(*flate.Writer)
	defer flatePool.Put(fw)
	fw.Reset(&c)
	fw.Write(sample)
	fw.Close()
	return float64(len(sample)) / float64(max(c.n, 1))
}

// flatePool reuses deflate writers: each one holds about a megabyte of
// tables, too much to make per entry in a bag of many small files.
var flatePool = sync.Pool{New: func() any {
	fw, _ := flate.NewWriter(io.Discard, flate.BestSpeed)
	return fw
}}

// pooledFlate is a deflate stream that never compresses past D10's ratio:
// the store/deflate choice samples only the head of a file, and a file that
// starts varied and then runs into gigabytes of zeros would deflate at about
// 1012:1 — a pack tp's own reader would refuse as a bomb. Past guard.from
// input bytes, whenever the stream so far is smaller than 1/guard.ratio of
// its input, it is flushed every guard.chunk bytes: a flush ends the block
// with a sync marker (at least four bytes), so no stretch of guard.chunk
// input can come out smaller than about 1/900 of itself.
type pooledFlate struct {
	*flate.Writer
	out   *countingOut
	in    int64
	guard guard
}

// guard is when a pooledFlate flushes, from the reader's limits: past half
// the ratio's floor, while the stream is under half the limit's ratio,
// every chunk of about 16 bytes per unit of ratio (16 KiB for D10's
// 1000:1). The floor is also where Huffman-only coding starts.
type guard struct {
	from, ratio, chunk, floor int64
}

func guardFor(lim Limits) guard {
	return guard{
		from:  lim.RatioFloor / 2,
		ratio: max(lim.MaxRatio/2, 1),
		chunk: max(lim.MaxRatio*(16<<10)/1000, 64),
		floor: lim.RatioFloor,
	}
}

func (p *pooledFlate) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		k := min(len(b), int(p.guard.chunk))
		m, err := p.Writer.Write(b[:k])
		n += m
		p.in += int64(m)
		if err != nil {
			return n, err
		}
		b = b[k:]
		if p.in > p.guard.from && p.in > p.guard.ratio*p.out.n {
			if err := p.Writer.Flush(); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// countingOut counts the compressed bytes a pooledFlate has written.
type countingOut struct {
	w io.Writer
	n int64
}

func (c *countingOut) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

func (p *pooledFlate) Close() error {
	err := p.Writer.Close()
	flatePool.Put(p.Writer)
	p.Writer = nil
	return err
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

var _ = strconv.Itoa
