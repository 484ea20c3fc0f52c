package pack

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack/scan"
)

// SpecID is the specification Conformance judges against.
const SpecID = "taskpack/0.1"

// Report is the result of Conformance: C0–C10 in order (§6).
type Report struct {
	File       string   `json:"file"`
	Spec       string   `json:"spec"`
	Encoding   Encoding `json:"encoding,omitempty"`
	Conformant bool     `json:"conformant"`
	Passed     int      `json:"passed"`
	Total      int      `json:"total"`
	Checks     []Check  `json:"checks"`
}

// Check is one requirement of §6 and how the pack fared.
type Check struct {
	ID          string `json:"id"`
	Requirement string `json:"requirement"`
	Pass        bool   `json:"pass"`
	Reason      string `json:"reason"`
}

// Requirements are §6's table, in order.
var Requirements = []struct{ ID, Text string }{
	{"C0", "the file is conformant as written: reading it required no repair"},
	{"C1", "BagIt structure and sha256 manifests agree"},
	{"C2", "data/passport.json parses"},
	{"C3", "kind is handoff or receipt"},
	{"C4", "lineage carries root_id and from_version"},
	{"C5", "every ask has an accept"},
	{"C6", "no machine-scoped fact crosses wearing a ✓ (no scope counts as machine)"},
	{"C7", "no credentials, in any field of the pack object or in the luggage"},
	{"C8", "no chat transcript"},
	{"C9", "the two encodings round-trip byte-for-byte, whatever the attachments' size"},
	{"C10", "packed_at is declared"},
}

// Conformance judges the file at path against §6, reading strictly: nothing
// is repaired, and every repair a lenient reader would make is a C0 failure
// (D4). Luggage is streamed once (C1, C7 and C9 share the pass) and never
// held in memory. The error is non-nil only when the file is not a pack at
// all; a pack that cannot be read past some point fails the checks it could
// not satisfy, with the reason.
func Conformance(path string, opts Options) (*Report, error) {
	r := &Report{File: path, Spec: SpecID}
	res := map[string]*Check{}
	for _, q := range Requirements {
		c := &Check{ID: q.ID, Requirement: q.Text}
		r.Checks = append(r.Checks, *c)
		res[q.ID] = c
	}
	set := func(id string, pass bool, reason string) {
		res[id].Pass = pass
		res[id].Reason = reason
	}
	finish := func() *Report {
		for i := range r.Checks {
			r.Checks[i] = *res[r.Checks[i].ID]
			if r.Checks[i].Pass {
				r.Passed++
			}
		}
		r.Total = len(r.Checks)
		r.Conformant = r.Passed == r.Total
		return r
	}

	opts.Strict = true
	l, err := load(path, opts)
	if err != nil {
		var pe *Error
		if !errors.As(err, &pe) || pe.Rule == RuleNotAPack {
			return nil, err
		}
		// A pack whose container cannot be trusted: nothing else can be judged.
		r.Encoding = sniffFile(path)
		id := "C1"
		if pe.Rule == RuleJSON || pe.Rule == RuleLimitObject {
			id = "C2"
		}
		for _, q := range Requirements {
			set(q.ID, false, "not judged: the file could not be read safely")
		}
		set(id, false, pe.Error())
		return finish(), nil
	}
	defer l.close()
	r.Encoding = l.enc

	// One streaming pass: digests (C1), credentials (C7), round trip (C9).
	scanners := map[string]*scan.LuggageScanner{}
	trips := map[string]*roundTrip{}
	byName := map[string]*lentry{}
	for _, e := range l.luggage {
		byName[payloadFiles+e.name] = e
	}
	sink := func(name string) io.Writer {
		e := byName[name]
		if e == nil {
			return nil
		}
		sc := scan.NewLuggageScanner(name)
		rt := newRoundTrip(e.open)
		scanners[name] = sc
		trips[name] = rt
		return io.MultiWriter(sc, rt)
	}
	var readErr error
	if l.enc == EncodingBag {
		readErr = verifyBag(l, sink, opts.Progress)
	} else {
		readErr = rereadFlat(l, sink)
	}
	for _, rt := range trips {
		rt.close()
	}

	// C1
	switch {
	case readErr != nil:
		set("C1", false, readErr.Error())
	case len(l.problems) > 0:
		set("C1", false, joinErrs(l.problems))
	case l.enc == EncodingBag:
		set("C1", true, fmt.Sprintf("bagit.txt, manifest-sha256.txt and tagmanifest-sha256.txt agree with %d payload file(s)", len(l.luggage)+1))
	default:
		set("C1", true, fmt.Sprintf("flat form: %d attachment(s) match their declared sha256 and bytes", len(l.luggage)))
	}

	// C2
	specErr, kindErr := objectChecks(l)
	switch {
	case len(l.objErr) > 0:
		set("C2", false, joinErrs(l.objErr))
	case specErr != nil:
		set("C2", false, specErr.Error())
	default:
		set("C2", true, "spec "+model.SpecBag)
	}
	obj := l.obj
	if obj == nil {
		for _, id := range []string{"C0", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"} {
			set(id, false, "not judged: there is no pack object (see C2)")
		}
		return finish(), nil
	}

	// C0: every repair a lenient read would need.
	repairs := append([]Repair{}, l.repairs...)
	repairs = append(repairs, quirkRepairs(l)...)
	if l.enc == EncodingBag && !bytes.Equal(ojson.Canonical(obj), l.raw) {
		repairs = append(repairs, Repair{Rule: RepairCanonical, Where: payloadObject, Detail: "not D1 canonical JSON"})
	}
	repairs = append(repairs, repairObject(obj.Clone())...)
	if len(repairs) == 0 {
		set("C0", true, "read strictly; nothing needed repair")
	} else {
		var parts []string
		for _, rp := range repairs {
			parts = append(parts, rp.Where+": "+rp.Rule)
		}
		set("C0", false, fmt.Sprintf("%d repair(s) needed: %s", len(repairs), strings.Join(parts, "; ")))
	}

	// C3
	if kindErr != nil {
		set("C3", false, "kind is "+quote(obj.Get("kind")))
	} else {
		set("C3", true, "kind "+obj.Get("kind").Text())
	}

	// C4
	lin := obj.Get("lineage")
	rootID, _ := lin.Get("root_id").Str()
	fv, fvOK := lin.Get("from_version").Int()
	switch {
	case lin.Kind() != ojson.Object:
		set("C4", false, "no lineage object")
	case rootID == "":
		set("C4", false, "lineage.root_id is "+quote(lin.Get("root_id")))
	case !fvOK || fv < 0:
		set("C4", false, "lineage.from_version is "+quote(lin.Get("from_version"))+", not a version number")
	default:
		set("C4", true, fmt.Sprintf("root_id %s, from_version %d", rootID, fv))
	}

	// C5
	var askless []string
	asks := obj.Get("asks")
	if asks != nil && asks.Kind() != ojson.Array {
		askless = append(askless, "asks is not an array")
	}
	for i, a := range asks.Items() {
		if strings.TrimSpace(a.Get("accept").Text()) == "" {
			id := a.Get("id").Text()
			if id == "" {
				id = model.Path("asks", i)
			}
			askless = append(askless, id)
		}
	}
	if len(askless) > 0 {
		set("C5", false, "no accept: "+strings.Join(askless, ", "))
	} else {
		set("C5", true, fmt.Sprintf("%d ask(s), each with accept", len(asks.Items())))
	}

	// C6
	var liars []string
	facts := obj.Get("passport").Get("facts").Items()
	for i, f := range facts {
		fact := model.Fact{V: f}
		if f.Kind() == ojson.Object && !fact.KeepsVerified() && fact.Verified() {
			scope := fact.Scope()
			if !fact.HasScope() {
				scope = "no scope"
			}
			liars = append(liars, fmt.Sprintf("%s (%s) %q", model.Path("passport", "facts", i), scope, clipRunes(fact.Claim(), 60)))
		}
	}
	if len(liars) > 0 {
		set("C6", false, "verified: true across a machine boundary: "+strings.Join(liars, "; "))
	} else {
		set("C6", true, fmt.Sprintf("%d fact(s); none machine-scoped or unscoped wears a ✓", len(facts)))
	}

	// C7, C8: the same table the writer refuses with (D5).
	var creds, transcripts []string
	for _, f := range scan.Object(obj) {
		switch f.Class {
		case scan.Credential:
			creds = append(creds, f.Where+" ("+f.Rule+")")
		case scan.Transcript:
			transcripts = append(transcripts, f.Where+" ("+f.Rule+")")
		}
	}
	names := make([]string, 0, len(scanners))
	for n := range scanners {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, f := range scanners[n].Findings() {
			if f.Class == scan.Credential {
				creds = append(creds, f.Where+" ("+f.Rule+")")
			}
		}
	}
	switch {
	case len(creds) > 0:
		set("C7", false, "looks like a credential: "+strings.Join(creds, "; "))
	case readErr != nil:
		set("C7", false, "not judged: the luggage could not be read (see C1)")
	default:
		set("C7", true, fmt.Sprintf("pack object and %d luggage file(s) scanned", len(l.luggage)))
	}
	if len(transcripts) > 0 {
		set("C8", false, "looks like a chat transcript: "+strings.Join(transcripts, "; "))
	} else {
		set("C8", true, "no role-prefixed conversation in the pack object")
	}

	// C9
	if readErr != nil {
		set("C9", false, "not judged: the luggage could not be read (see C1)")
	} else if ok, why := c9(l, trips); ok {
		set("C9", true, why)
	} else {
		set("C9", false, why)
	}

	// C10
	if at, ok := obj.Get("packed_at").Str(); ok && strings.TrimSpace(at) != "" {
		set("C10", true, "packed_at "+at)
	} else {
		set("C10", false, "packed_at is "+quote(obj.Get("packed_at")))
	}
	return finish(), nil
}

func joinErrs(es []*Error) string {
	parts := make([]string, 0, len(es))
	for i, e := range es {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(es)-i))
			break
		}
		s := e.Entry
		if s != "" {
			s += ": "
		}
		parts = append(parts, s+e.Detail+" ("+e.Rule+")")
	}
	return strings.Join(parts, "; ")
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
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

// c9 is D3. The pack object goes through the other encoding and back; each
// luggage file's bytes went through the flat encoder and decoder while they
// streamed (roundTrip), so only digests are compared here.
func c9(l *loaded, trips map[string]*roundTrip) (bool, string) {
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
