package pack

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tp-dev/tp/internal/ojson"
)

// Inspection is what one strict read of a file found: the facts the judge
// (package judge, §6 C0–C10) decides on. Nothing is repaired (D4); every
// repair a lenient reader would have made is listed instead.
type Inspection struct {
	File     string
	Encoding Encoding
	// Unreadable is set when the container itself could not be trusted
	// (bad ZIP, limits, a JSON syntax error): nothing else was read.
	Unreadable *Error
	// Object is the pack object; nil when it could not be read (ObjectErrs).
	Object     *ojson.Value
	ObjectErrs []*Error
	SpecErr    *Error // an unrecognised spec
	KindErr    *Error // a kind other than handoff or receipt
	// Problems are payload problems found while reading (manifests,
	// digests, sizes); ReadErr is set when streaming the luggage failed.
	Problems []*Error
	ReadErr  error
	// Repairs are every repair a lenient read would need (C0).
	Repairs []Repair
	// Luggage is how many luggage files the pack carries.
	Luggage int

	l     *loaded
	trips map[string]*roundTrip
}

// Inspect reads the file at path strictly and streams every luggage file
// once: its digest is checked (C1), its bytes go through the flat form's
// encoder and back (C9), and, when sink returns a writer for its entry name
// ("data/files/..."), into that writer too (the judge's credential scan,
// C7). Luggage is never held in memory. The error is non-nil only when the
// file is not a pack at all; a pack that cannot be read past some point is
// an Inspection saying so.
func Inspect(path string, opts Options, sink func(name string) io.Writer) (*Inspection, error) {
	in := &Inspection{File: path}
	opts.Strict = true
	l, err := load(path, opts)
	if err != nil {
		var pe *Error
		if !errors.As(err, &pe) || pe.Rule == RuleNotAPack {
			return nil, err
		}
		in.Encoding = sniffFile(path)
		in.Unreadable = pe
		return in, nil
	}
	defer l.close()
	in.l = l
	in.Encoding = l.enc
	in.Luggage = len(l.luggage)

	// One streaming pass: digests (C1), the caller's sinks, round trip (C9).
	in.trips = map[string]*roundTrip{}
	byName := map[string]*lentry{}
	for _, e := range l.luggage {
		byName[payloadFiles+e.name] = e
	}
	each := func(name string) io.Writer {
		e := byName[name]
		if e == nil {
			return nil
		}
		rt := newRoundTrip(e.open)
		in.trips[name] = rt
		if sink != nil {
			if w := sink(name); w != nil {
				return io.MultiWriter(w, rt)
			}
		}
		return rt
	}
	if l.enc == EncodingBag {
		in.ReadErr = verifyBag(l, each, opts.Progress)
	} else {
		in.ReadErr = rereadFlat(l, each)
	}
	for _, rt := range in.trips {
		rt.close()
	}
	in.Problems = l.problems
	in.ObjectErrs = l.objErr
	in.SpecErr, in.KindErr = objectChecks(l)
	in.Object = l.obj
	if l.obj != nil {
		repairs := append([]Repair{}, l.repairs...)
		repairs = append(repairs, quirkRepairs(l)...)
		if l.enc == EncodingBag && !bytes.Equal(ojson.Canonical(l.obj), l.raw) {
			repairs = append(repairs, Repair{Rule: RepairCanonical, Where: payloadObject, Detail: "not D1 canonical JSON"})
		}
		in.Repairs = append(repairs, repairObject(l.obj.Clone())...)
	}
	return in, nil
}

// RoundTrip says whether the pack survives a trip through the other
// encoding and back (D3): ok, and why in one line. Call it only when there
// is an Object and the luggage was read (ReadErr nil).
func (in *Inspection) RoundTrip() (ok bool, why string) {
	if in.l == nil || in.Object == nil {
		return false, "there is no pack object"
	}
	return tripBothWays(in.l, in.trips)
}

// rereadFlat streams each flat attachment once more, into the sinks.
func rereadFlat(l *loaded, sink entrySink) error {
	buf := make([]byte, 256<<10)
	for _, e := range l.luggage {
		name := payloadFiles + e.name
		rc, err := e.open()
		if err != nil {
			return l.errf(e.name, RuleAttachment, "%v", err)
		}
		_, err = io.CopyBuffer(sink(name), rc, buf)
		rc.Close()
		if err != nil {
			return l.errf(e.name, RuleAttachment, "%v", err)
		}
	}
	return nil
}

// tripBothWays is D3 (C9). The pack object goes through the other encoding and back; each
// luggage file's bytes went through the flat encoder and decoder while they
// streamed (roundTrip), so only digests are compared here.
func tripBothWays(l *loaded, trips map[string]*roundTrip) (bool, string) {
	obj := l.obj
	if len(l.extra) > 0 {
		return false, fmt.Sprintf("%s is payload but not luggage: the flat form has no place for it", l.extra[0])
	}
	// The pack object: written into the flat form's "passport" member, read
	// back, sealed by the bag writer, written as data/passport.json.
	var flat bytes.Buffer
	w := bufio.NewWriter(&flat)
	writeIndented(w, ojson.Canonical(obj), "  ")
	w.Flush()
	back, err := ojson.ParseStrict(flat.Bytes())
	if err != nil {
		return false, "the pack object does not survive the flat form: " + err.Error()
	}
	Seal(back)
	rebuilt := ojson.Canonical(back)
	if l.enc == EncodingBag {
		if !bytes.Equal(rebuilt, l.raw) {
			return false, "bag → flat → bag: data/passport.json comes back different (" + firstDiff(l.raw, rebuilt) + ")"
		}
	} else {
		// flat → bag → flat: the bag holds rebuilt; the flat form read back
		// from it must be the same object as D1 bytes.
		again, err := ojson.ParseStrict(rebuilt)
		if err != nil {
			return false, "flat → bag: data/passport.json does not parse back: " + err.Error()
		}
		a, b := ojson.Canonical(obj), ojson.Canonical(again)
		if !bytes.Equal(a, b) {
			return false, "flat → bag → flat: the passport comes back different (" + firstDiff(a, b) + ")"
		}
	}
	// Luggage: every file's bytes survive the flat encoding it would get.
	payload := []payloadSum{{path: payloadObject, sha256: sha(rebuilt), size: int64(len(rebuilt))}}
	var biggest int64
	for _, e := range l.luggage {
		name := payloadFiles + e.name
		rt := trips[name]
		if rt == nil {
			return false, name + " was not streamed"
		}
		if err := rt.result(); err != nil {
			return false, name + ": " + err.Error()
		}
		payload = append(payload, payloadSum{path: name, sha256: e.actual, size: e.size})
		if e.size > biggest {
			biggest = e.size
		}
	}
	// The rebuilt tag files must verify against the rebuilt payload.
	bagit, info, manifest, tagm := bagTagFiles(obj, payload, "tp")
	lines, err := parseManifest(tagm)
	if err != nil {
		return false, "rebuilt tagmanifest: " + err.Error()
	}
	tags := map[string][]byte{tagBagIt: bagit, tagBagInfo: info, tagManifest: manifest}
	for _, m := range lines {
		if sha(tags[m.path]) != m.digest {
			return false, "rebuilt tag file " + m.path + " does not verify"
		}
	}
	dir := "bag → flat → bag"
	if l.enc != EncodingBag {
		dir = "flat → bag → flat"
	}
	return true, fmt.Sprintf("%s: the pack object and %d luggage file(s) (largest %s) come back byte for byte", dir, len(l.luggage), humanBytes(biggest))
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	line := bytes.Count(a[:i], []byte("\n")) + 1
	return fmt.Sprintf("first difference at byte %d, line %d", i, line)
}

// smallTrip is the size up to which a round trip is done in memory, after
// the file has streamed past; bigger files go through goroutines and pipes.
const smallTrip = 1 << 20

// roundTrip pushes one luggage file's bytes, as they stream past, through
// the flat form's encoder (utf8 when the bytes are text, base64 otherwise:
// what tp's flat writer would choose, D3) and straight back through the flat
// reader's decoder, hashing what comes out. Memory stays bounded whatever
// the size: small files are held (up to smallTrip) and done at the end;
// past that the bytes go to encoder and decoder goroutines so the judging
// pass is not held up. A file that starts as text and turns out not to be
// is streamed once more, through base64.
type roundTrip struct {
	reopen func() (io.ReadCloser, error)
	small  []byte
	pipe   *pipeTrip
	rerun  bool
	tc     textCheck
	text   bool
	err    error
}

func newRoundTrip(reopen func() (io.ReadCloser, error)) *roundTrip {
	return &roundTrip{reopen: reopen, tc: textCheck{ok: true}}
}

func (rt *roundTrip) Write(p []byte) (int, error) {
	rt.tc.Write(p)
	if rt.rerun {
		return len(p), nil
	}
	if rt.pipe == nil && len(rt.small)+len(p) <= smallTrip {
		rt.small = append(rt.small, p...)
		return len(p), nil
	}
	if rt.pipe == nil {
		rt.pipe = newPipeTrip(!rt.tc.ok)
		rt.pipe.Write(rt.small)
		rt.small = nil
	}
	if !rt.pipe.b64 && !rt.tc.ok {
		rt.pipe.close()
		rt.pipe = nil
		rt.rerun = true
		return len(p), nil
	}
	return rt.pipe.Write(p)
}

func (rt *roundTrip) close() {
	rt.text = rt.tc.done()
	switch {
	case rt.pipe != nil:
		rt.pipe.close()
		if !rt.pipe.b64 && !rt.text {
			rt.rerun = true // a cut character at the very end
		} else {
			rt.err = rt.pipe.err
		}
		rt.pipe = nil
	case !rt.rerun:
		rt.err = tripBytes(rt.small, !rt.text)
		rt.small = nil
	}
	if rt.rerun {
		rt.rerun = false
		rc, err := rt.reopen()
		if err != nil {
			rt.err = err
			return
		}
		pt := newPipeTrip(true)
		_, err = io.CopyBuffer(pt, readerOnly{rc}, make([]byte, 256<<10))
		rc.Close()
		pt.close()
		rt.err = pt.err
		if err != nil {
			rt.err = err
		}
	}
}

// tripBytes is the round trip of a small file, in memory.
func tripBytes(data []byte, b64 bool) error {
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
		return err
	}
	if !bytes.Equal(back, data) {
		return errDifferent
	}
	return nil
}

var errDifferent = errors.New("the bytes come back different")

// result says whether the bytes came back as they went in.
func (rt *roundTrip) result() error {
	enc := "utf8"
	if !rt.text {
		enc = "base64"
	}
	if rt.err != nil {
		return fmt.Errorf("%s round trip: %v", enc, rt.err)
	}
	return nil
}

// pipeTrip is the streaming round trip for files past smallTrip: an
// encoder goroutine writes the flat form's string into a pipe, a decoder
// goroutine reads it back and compares the bytes with the originals, which
// reach it through a short queue (so memory stays a few chunks).
type pipeTrip struct {
	b64 bool
	ch  chan []byte
	wg  sync.WaitGroup
	err error
}

func newPipeTrip(b64 bool) *pipeTrip {
	pt := &pipeTrip{b64: b64, ch: make(chan []byte, 4)}
	pr, pw := io.Pipe()
	orig := make(chan []byte, 8)
	pt.wg.Add(2)
	go func() {
		defer pt.wg.Done()
		defer close(orig)
		bw := bufio.NewWriterSize(pw, 256<<10)
		var enc io.Writer
		var b64enc *base64Stream
		if b64 {
			b64enc = &base64Stream{w: bw}
			enc = b64enc
		} else {
			enc = &jsonStringWriter{w: bw}
		}
		for chunk := range pt.ch {
			orig <- chunk // before encoding: the decoder may need it first
			enc.Write(chunk)
			// Flush per chunk: the decoder must be able to see every
			// queued chunk's bytes, or the queue and the pipe deadlock.
			bw.Flush()
		}
		if b64enc != nil {
			b64enc.close()
		}
		bw.WriteByte('"')
		bw.Flush()
		pw.Close()
	}()
	go func() {
		defer pt.wg.Done()
		sd := newStringDecoder(bufio.NewReaderSize(pr, 256<<10))
		var r io.Reader = sd
		if b64 {
			r = newB64Decoder(sd)
		}
		cmp := &compareWriter{orig: orig}
		_, err := io.CopyBuffer(cmp, r, make([]byte, 256<<10))
		if err == nil && !sd.done {
			err = errors.New("the string never ended")
		}
		if err == nil {
			err = cmp.finish()
		}
		pt.err = err
		pr.CloseWithError(errors.New("decoder finished"))
		for range orig { // let the encoder finish
		}
	}()
	return pt
}

// compareWriter checks that what is written is exactly the bytes queued in
// orig, in order.
type compareWriter struct {
	orig chan []byte
	cur  []byte
	buf  []byte // cur's whole chunk, recycled once compared
}

func (c *compareWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(c.cur) == 0 {
			if c.buf != nil {
				putChunk(c.buf)
				c.buf = nil
			}
			next, ok := <-c.orig
			if !ok {
				return 0, errDifferent
			}
			c.cur, c.buf = next, next
			continue
		}
		k := min(len(p), len(c.cur))
		if !bytes.Equal(p[:k], c.cur[:k]) {
			return 0, errDifferent
		}
		p, c.cur = p[k:], c.cur[k:]
	}
	return n, nil
}

// finish reports an error if originals are left over (bytes went missing).
func (c *compareWriter) finish() error {
	if len(c.cur) > 0 {
		return errDifferent
	}
	for next := range c.orig {
		if len(next) > 0 {
			return errDifferent
		}
	}
	return nil
}

func (pt *pipeTrip) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		c := chunkPool.Get().(*[]byte)
		k := copy((*c)[:cap(*c)], p)
		*c = (*c)[:k]
		pt.ch <- *c
		p = p[k:]
	}
	return n, nil
}

// chunkPool recycles the copies a pipeTrip queues: without it a judged
// gigabyte is a gigabyte of garbage.
var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, 256<<10); return &b }}

func putChunk(b []byte) {
	if cap(b) == 256<<10 {
		b = b[:0]
		chunkPool.Put(&b)
	}
}

func (pt *pipeTrip) close() {
	if pt.ch != nil {
		close(pt.ch)
		pt.wg.Wait()
		pt.ch = nil
	}
}
