package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/zip"
	"golang.org/x/text/unicode/norm"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/model"
)

// Pack is a pack as Open read it.
type Pack struct {
	Path     string
	Encoding Encoding
	// Object is the pack object after the lenient repairs listed in Repairs
	// (none when the read was strict).
	Object *ojson.Value
	// Raw is the pack object as written, in D1 canonical form: the bytes of
	// data/passport.json when they were canonical already, the flat
	// "passport" member written canonically otherwise.
	Raw []byte
	// ObjectSHA256 is the sha256 (hex) of Raw: the pack object's identity,
	// the same in both encodings (C9). It is set when Options.NoRaw leaves
	// Raw out.
	ObjectSHA256 string
	Luggage      []Luggage
	Repairs      []Repair
	// LuggageVerified is true when every luggage byte was checked against
	// its digest during Open; false when Options.DeferLuggage left that to
	// OpenLuggage.
	LuggageVerified bool
	// Digest is the sha256 (hex) of the file as a whole; empty when
	// Options.NoFileDigest asked for none.
	Digest string
	// Signature is the pack's signature (D22), verified over its content
	// identity against the key it names; nil for an unsigned pack. Open
	// refuses a pack whose signature does not verify. Who the key belongs
	// to, and whether to trust it, is not this package's question.
	Signature *Signature
	// Tags are the extension tag files the pack carries (D3, ExtensionTags),
	// by bag name, from either encoding: the bag's tag file or the flat
	// form's member. Their bytes are as read; what they say is the caller's
	// to check (the signature's verifier, issue 19).
	Tags map[string][]byte

	l *loaded
}

// OpenLuggage streams one luggage file's bytes. The stream fails at its end
// (with an *Error, rule §2.1 digest) if the bytes do not match the digest the
// pack declared for them, so a reader that writes them somewhere must only
// keep them once Read has returned io.EOF.
func (p *Pack) OpenLuggage(name string) (io.ReadCloser, error) {
	if p.l == nil {
		return nil, errors.New("pack: closed")
	}
	// An index, not a search: a landing opens every file of packs that
	// carry thousands.
	p.l.indexOnce.Do(func() {
		p.l.byName = make(map[string]*lentry, len(p.l.luggage))
		for _, e := range p.l.luggage {
			if _, dup := p.l.byName[e.name]; !dup {
				p.l.byName[e.name] = e
			}
		}
	})
	if e := p.l.byName[name]; e != nil {
		return e.openVerified(p.Path)
	}
	return nil, &Error{File: p.Path, Entry: name, Rule: RuleMissing, Detail: "no such luggage in this pack"}
}

// Close releases the file.
func (p *Pack) Close() error {
	if p.l == nil {
		return nil
	}
	err := p.l.close()
	p.l = nil
	return err
}

// lentry is one luggage file as a reader found it.
type lentry struct {
	name     string // relative to data/files/
	size     int64
	declared string // the digest the pack vouches for; "" when a flat attachment declared none
	actual   string // the digest of the bytes, once verified
	open     func() (io.ReadCloser, error)
}

func (e *lentry) openVerified(file string) (io.ReadCloser, error) {
	rc, err := e.open()
	if err != nil {
		return nil, err
	}
	want := e.declared
	if want == "" {
		want = e.actual
	}
	return &verifyingReader{rc: rc, h: sha256.New(), want: want, size: e.size, file: file, entry: "data/files/" + e.name}, nil
}

// verifyingReader passes bytes through and fails at EOF if they are not the
// bytes that were vouched for.
type verifyingReader struct {
	rc          io.ReadCloser
	h           hash.Hash
	n, size     int64
	want        string
	file, entry string
}

func (v *verifyingReader) Read(p []byte) (int, error) {
	n, err := v.rc.Read(p)
	v.h.Write(p[:n])
	v.n += int64(n)
	if v.n > v.size {
		return n, &Error{File: v.file, Entry: v.entry, Rule: RuleDigest, Detail: "more bytes than the pack declared"}
	}
	if err == io.EOF && v.want != "" && hex.EncodeToString(v.h.Sum(nil)) != v.want {
		return n, &Error{File: v.file, Entry: v.entry, Rule: RuleDigest, Detail: "bytes do not match their sha256"}
	}
	if err != nil && err != io.EOF {
		// A damaged entry (a CRC that does not match, a stream cut short)
		// is named with the pack and the rule, like every other refusal.
		var pe *Error
		if !errors.As(err, &pe) {
			err = &Error{File: v.file, Entry: v.entry, Rule: ruleForReadErr(err), Detail: "cannot read the entry: " + err.Error()}
		}
	}
	return n, err
}

func (v *verifyingReader) Close() error { return v.rc.Close() }

// loaded is what a reader found in a file, before any judgement: the shared
// ground of Open (which refuses or repairs) and Conformance (which reports).
type loaded struct {
	path string
	enc  Encoding
	size int64

	deferLuggage bool // verifyBag leaves luggage digests to OpenLuggage (Options.DeferLuggage)

	raw    []byte       // the pack object's bytes as written (bag) or as captured (flat)
	obj    *ojson.Value // parsed as written; nil when it could not be
	quirks ojson.Quirks

	luggage    []*lentry
	byName     map[string]*lentry // luggage by name, built once by OpenLuggage
	indexOnce  sync.Once
	extra      []string    // bag payload files that are neither passport.json nor luggage
	extraFiles []*zip.File // their entries

	fatal    *Error   // the file could not be read at all past this point
	problems []*Error // integrity and structure (C1)
	objErr   []*Error // the pack object (C2): malformed, not an object, unknown spec/taskpack
	repairs  []Repair // repairs outside the pack object (flat sha256, BOM of a flat file...)
	dropped  []string // flat top-level members beyond §2.2's, which no writer carries over

	bagTags map[string][]byte // bag tag files
	flatExt map[string][]byte // the flat form's extension members, by bag tag name (D3)
	canon   []byte            // ojson.Canonical(obj), built once (canonical)
	closers []io.Closer
}

func (l *loaded) close() error {
	var first error
	for _, c := range l.closers {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	l.closers = nil
	return first
}

func (l *loaded) errf(entry, rule, format string, a ...any) *Error {
	return &Error{File: l.path, Entry: entry, Rule: rule, Detail: fmt.Sprintf(format, a...)}
}

// sniff says which encoding the bytes are, never trusting the file name.
func sniff(head []byte) (Encoding, bool) {
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")) || bytes.HasPrefix(head, []byte("PK\x06\x06")) {
		return EncodingBag, true
	}
	h := bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF"))
	h = bytes.TrimLeft(h, " \t\r\n")
	if len(h) > 0 && h[0] == '{' {
		return EncodingFlat, true
	}
	return "", false
}

// sniffFile is the encoding of the file at path by its first bytes, "" when
// it cannot be read or is neither.
func sniffFile(path string) Encoding {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	enc, _ := sniff(head[:n])
	return enc
}

// load opens path and reads it as whichever encoding its bytes are. It
// verifies every byte (the flat form while parsing, the bag through
// verifyBag, which the caller runs with its own sinks).
func load(path string, opts Options) (*loaded, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Rule: RuleNotAPack, Detail: err.Error()}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &Error{File: path, Rule: RuleNotAPack, Detail: err.Error()}
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &Error{File: path, Rule: RuleNotAPack, Detail: "not a regular file"}
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	enc, ok := sniff(head[:n])
	if !ok {
		f.Close()
		return nil, &Error{File: path, Rule: RuleNotAPack, Detail: "neither a ZIP (.taskpack) nor a JSON object (.taskpack.json)"}
	}
	l := &loaded{path: path, enc: enc, size: st.Size(), closers: []io.Closer{f}}
	if enc == EncodingBag {
		err = loadBag(l, f, opts.Limits.withDefaults())
	} else {
		err = loadFlat(l, f, opts.Limits.withDefaults())
	}
	if err == nil {
		err = checkLuggageNames(l)
	}
	if err == nil && l.obj != nil {
		// Before anything builds the canonical form (C0's comparison, the
		// store's copy): its size is known from the parsed value.
		lim := opts.Limits.withDefaults()
		if n := ojson.CanonicalSize(l.obj, lim.MaxCanonical); n > lim.MaxCanonical {
			err = l.errf(l.objectName(), RuleLimitObject, "the pack object's canonical form (D1) would be more than %d bytes (the limit; --max-passport-bytes raises it)", lim.MaxCanonical)
		}
	}
	if err != nil {
		l.close()
		return nil, err
	}
	return l, nil
}

// MaxNameBytes and MaxSegmentBytes bound a luggage name: a segment longer
// than 255 bytes is longer than any common file system takes (NAME_MAX), and
// a whole name past 1,024 bytes leaves no room under a store folder within
// PATH_MAX. Readers refuse them, so judging and landing agree (D10).
const (
	MaxNameBytes    = 1024
	MaxSegmentBytes = 255
)

// checkLuggageNames refuses luggage that cannot land as files: a name too
// long for a file system, or a name that is a file and also a folder of
// another name ("a" and "a/b", also after case folding). Judging (C1) and
// landing read the same refusal, so a pack that passes conformance lands.
func checkLuggageNames(l *loaded) error {
	files := make(map[string]string, len(l.luggage))
	for _, e := range l.luggage {
		files[foldName(e.name)] = e.name
	}
	for _, e := range l.luggage {
		entry := payloadFiles + e.name
		if l.enc != EncodingBag {
			entry = e.name
		}
		if len(e.name) > MaxNameBytes {
			return l.errf(printable(clip(e.name, 80)), RulePathLength, "luggage name is %d bytes, more than the %d a name may have", len(e.name), MaxNameBytes)
		}
		segs := strings.Split(e.name, "/")
		for i, seg := range segs {
			if len(seg) > MaxSegmentBytes {
				return l.errf(printable(clip(e.name, 80)), RulePathLength, "a part of the luggage name is %d bytes, more than the %d a file system takes", len(seg), MaxSegmentBytes)
			}
			if i == len(segs)-1 {
				break
			}
			if other, ok := files[foldName(strings.Join(segs[:i+1], "/"))]; ok {
				return l.errf(entry, RulePathConflict, "luggage %q is a file, and this name needs it to be a folder", other)
			}
		}
	}
	return nil
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// objectChecks parses nothing: it judges the parsed pack object against the
// rules a reader must enforce (§8 spec, D10 kind) and returns the problems.
func objectChecks(l *loaded) (spec, kind *Error) {
	if l.obj == nil {
		return nil, nil
	}
	if s, ok := l.obj.Get("spec").Str(); !ok || s != model.SpecBag {
		spec = l.errf(l.objectName(), RuleSpec, "spec %s is not one this reader knows (want %q)", ojson.Brief(l.obj.Get("spec"), 60), model.SpecBag)
	}
	if k := l.obj.Get("kind").Text(); k != model.KindHandoff && k != model.KindReceipt {
		kind = l.errf(l.objectName(), RuleKind, "kind %s is neither handoff nor receipt", ojson.Brief(l.obj.Get("kind"), 60))
	}
	return spec, kind
}

func (l *loaded) objectName() string {
	if l.enc == EncodingBag {
		return "data/passport.json"
	}
	return "passport"
}

// Open reads a pack (either encoding, sniffed from the bytes), verifies
// every byte against what the pack vouches for, and enforces D10. Unless
// opts.Strict, it repairs what D4 lists and records each repair; strict, a
// needed repair is an error (rule §6 C0 repair-needed).
func Open(path string, opts Options) (*Pack, error) {
	l, err := load(path, opts)
	if err != nil {
		return nil, err
	}
	p, err := finishOpen(l, opts)
	if err != nil {
		l.close()
		return nil, err
	}
	return p, nil
}

func finishOpen(l *loaded, opts Options) (*Pack, error) {
	if l.fatal != nil {
		return nil, l.fatal
	}
	deferred := l.enc == EncodingBag && opts.DeferLuggage && !opts.Strict
	if l.enc == EncodingBag {
		if deferred {
			l.deferLuggage = true
		}
		if err := verifyBag(l, nil, opts.Progress); err != nil {
			return nil, err
		}
	}
	if len(l.problems) > 0 {
		return nil, l.problems[0]
	}
	if len(l.objErr) > 0 {
		return nil, l.objErr[0]
	}
	if specErr, kindErr := objectChecks(l); specErr != nil {
		return nil, specErr
	} else if kindErr != nil {
		return nil, kindErr
	}
	repairs := append([]Repair{}, l.repairs...)
	repairs = append(repairs, quirkRepairs(l)...)
	if l.enc == EncodingBag && l.canon == nil && ojson.CanonicalEqual(l.obj, l.raw) {
		// Written canonically (the common case): the bytes as read are
		// the canonical form, not a second copy of them (issue 20).
		l.canon = l.raw
	}
	canon := l.canonical()
	if l.enc == EncodingBag && !bytes.Equal(canon, l.raw) {
		repairs = append(repairs, Repair{Rule: RepairCanonical, Where: "data/passport.json",
			Detail: "not written as D1 canonical JSON (JSON.stringify(v, null, 2) + newline)"})
	}
	// Repaired in place, not on a copy: what the object was as read is
	// canon (made above, and all the signature and the digests use from
	// here on), and a copy of a pack object of 110,000 facts is 40 MB
	// (issue 20).
	obj := l.obj
	repairs = append(repairs, repairObject(obj)...)
	if opts.Strict && len(repairs) > 0 {
		r := repairs[0]
		return nil, l.errf(r.Where, RuleRepair, "not conformant as written: %s (%s needed)", r.Detail, plural.N(len(repairs), "repair"))
	}
	// The signature covers the content as written (the declared digests of
	// a deferred read are checked as each file streams): one that does not
	// verify means the content changed after signing, and nothing of such a
	// pack is used (D22).
	st := l.signatureStatus()
	if st.State == SigInvalid {
		_, where, _ := l.rawSignature()
		return nil, l.errf(where, RuleSignature, "signature does not verify: %s; the pack is refused", strings.TrimPrefix(st.Reason, where+": "))
	}
	sum := sha256.Sum256(canon)
	p := &Pack{Path: l.path, Encoding: l.enc, Object: obj, Raw: canon, ObjectSHA256: hex.EncodeToString(sum[:]), Repairs: repairs,
		LuggageVerified: !deferred, Tags: l.extensionTags(), Signature: st.Signature, l: l}
	if opts.NoRaw {
		// Checked, signed over and digested: from here the caller has the
		// tree, and the bytes it was read from go (issue 20).
		p.Raw, l.raw, l.canon = nil, nil, nil
	}
	p.Luggage = l.luggageSums()
	if opts.NoFileDigest {
		return p, nil
	}
	d, err := fileDigest(l.path)
	if err != nil {
		return nil, l.errf("", RuleNotAPack, "%v", err)
	}
	p.Digest = d
	return p, nil
}

func quirkRepairs(l *loaded) []Repair {
	var out []Repair
	where := l.objectName()
	if l.enc != EncodingBag {
		where = filepath.Base(l.path)
	}
	if l.quirks.BOM {
		out = append(out, Repair{Rule: RepairBOM, Where: where, Detail: "a byte order mark precedes the JSON"})
	}
	if l.quirks.InvalidUTF8 {
		out = append(out, Repair{Rule: RepairUTF8, Where: where, Detail: "bytes that are not UTF-8 were read as U+FFFD"})
	}
	for _, k := range l.quirks.DuplicateKeys {
		out = append(out, Repair{Rule: RepairDuplicateKey, Where: where, Detail: fmt.Sprintf("key %q appears twice in one object; the last one was kept", k)})
	}
	for _, x := range l.extra {
		out = append(out, Repair{Rule: RepairPayloadExtra, Where: x, Detail: "payload file outside data/files/ is not luggage; ignored"})
	}
	return out
}

func fileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	buf, release := copyBuf(1)
	defer release()
	if _, err := io.CopyBuffer(h, readerOnly{f}, buf); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkName enforces D10's rules for a name inside a pack: relative, forward
// slashes, no "..", ".", empty segments, drive letters, NUL or controls, and
// valid UTF-8. It returns the rule broken and why, or "".
func checkName(name string) (rule, why string) {
	switch {
	case name == "":
		return RulePathTraversal, "empty name"
	case !isUTF8(name):
		return RulePathEncoding, "name is not UTF-8"
	case strings.ContainsRune(name, 0):
		return RulePathNUL, "name contains NUL"
	case strings.Contains(name, `\`):
		return RulePathBackslash, "name contains a backslash"
	case strings.HasPrefix(name, "/"):
		return RulePathAbsolute, "absolute name"
	case len(name) >= 2 && name[1] == ':' && isLetter(name[0]):
		return RulePathAbsolute, "name starts with a drive letter"
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return RulePathNUL, "name contains a control character"
		}
	}
	for _, seg := range strings.Split(strings.TrimSuffix(name, "/"), "/") {
		switch seg {
		case "..":
			return RulePathTraversal, "name climbs out with .."
		case ".", "":
			return RulePathTraversal, "name has an empty or . segment"
		}
		if len(seg) >= 2 && seg[1] == ':' && isLetter(seg[0]) {
			return RulePathAbsolute, "name has a drive letter"
		}
	}
	return "", ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// foldName is the key under which two names collide on a case-insensitive
// file system, or on one that normalises Unicode (macOS: "é" as one code
// point and as "e" + U+0301 are one file).
func foldName(s string) string { return strings.ToLower(strings.ToUpper(norm.NFC.String(s))) }
