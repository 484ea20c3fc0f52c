package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
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
	// Signature is the pack's signature status (D22): an extension
	// reported beside C0–C10, never one of them.
	Signature SignatureStatus

	l *loaded
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

	// One streaming pass: digests (C1) and the caller's sinks.
	byName := map[string]bool{}
	for _, e := range l.luggage {
		byName[payloadFiles+e.name] = true
	}
	each := func(name string) io.Writer {
		if sink == nil || !byName[name] {
			return nil
		}
		return sink(name)
	}
	if l.enc == EncodingBag {
		in.ReadErr = verifyBag(l, each, opts.Progress)
	} else {
		in.ReadErr = rereadFlat(l, each)
	}
	in.Problems = l.problems
	in.ObjectErrs = l.objErr
	if in.ReadErr == nil {
		in.Signature = l.signatureStatus()
	} else if _, _, present := l.rawSignature(); present {
		in.Signature = SignatureStatus{State: SigInvalid, Reason: "the pack could not be read whole, so its signature was not checked"}
	} else {
		in.Signature = SignatureStatus{State: SigUnsigned}
	}
	in.SpecErr, in.KindErr = objectChecks(l)
	in.Object = l.obj
	if l.obj != nil {
		repairs := append([]Repair{}, l.repairs...)
		repairs = append(repairs, quirkRepairs(l)...)
		if l.enc == EncodingBag && !ojson.CanonicalEqual(l.obj, l.raw) {
			repairs = append(repairs, Repair{Rule: RepairCanonical, Where: payloadObject, Detail: "not D1 canonical JSON"})
		}
		in.Repairs = append(repairs, repairsOf(l.obj)...)
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
	return tripBothWays(in.l)
}

// rereadFlat streams each flat attachment once more, into the sinks.
func rereadFlat(l *loaded, sink entrySink) error {
	buf, release := copyBuf(len(l.luggage))
	defer release()
	for _, e := range l.luggage {
		name := payloadFiles + e.name
		w := sink(name)
		if w == nil {
			continue // digests were checked as the file was read
		}
		rc, err := e.open()
		if err != nil {
			return l.errf(e.name, RuleAttachment, "%v", err)
		}
		_, err = io.CopyBuffer(w, rc, buf)
		rc.Close()
		if err != nil {
			return l.errf(e.name, RuleAttachment, "%v", err)
		}
	}
	return nil
}

// tripBothWays is D3 (C9). The pack object goes through the other
// encoding and back. Luggage bytes need no such trip: every file was read
// whole and matched its digest (C1), and the flat form carries any bytes
// unchanged — utf8 exactly when they are valid UTF-8 without NUL, base64
// otherwise — which is a property of the codec, proven for all inputs by
// TestFlatLuggageRoundTrip and FuzzFlatLuggageRoundTrip, not of the pack.
func tripBothWays(l *loaded) (bool, string) {
	obj := l.obj
	if len(l.extra) > 0 {
		return false, fmt.Sprintf("%s is payload but not luggage: the flat form has no place for it", l.extra[0])
	}
	// The pack object: written into the flat form's "passport" member and
	// read back, it is the same tree — a property of the encoder and the
	// parser for every value (the canonical form nested at any depth reads
	// back as what it was written from: FuzzCanonicalAtTrip, FuzzCanonical),
	// not of the pack, as the luggage's trip is the codec's (D3). So it is
	// not written and parsed again here, which held a second tree of the
	// object and its flat bytes beside the first (issue 20: 50 MB for a
	// pack of 110,000 facts). Sealed by the bag writer, written as
	// data/passport.json; a rebuilt data/passport.json that is the one
	// read is not built again.
	back := Sealed(obj)
	var rebuilt []byte
	if l.enc == EncodingBag && ojson.CanonicalEqual(back, l.raw) {
		rebuilt = l.raw
	} else {
		rebuilt = ojson.Canonical(back)
	}
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
	// Luggage: every file was read whole, so its digest is known.
	payload := []payloadSum{{path: payloadObject, sha256: sha(rebuilt), size: int64(len(rebuilt))}}
	var biggest int64
	for _, e := range l.luggage {
		name := payloadFiles + e.name
		if e.actual == "" {
			return false, name + " was not read"
		}
		payload = append(payload, payloadSum{path: name, sha256: e.actual, size: e.size})
		if e.size > biggest {
			biggest = e.size
		}
	}
	// The tag files (D3): D2's four are rebuilt from the content, with the
	// writer's two bag-info labels as the bag declares them; extension tag
	// files travel as flat members; any other tag file has no place in the
	// flat form.
	ext := l.extensionTags()
	for _, name := range sortedKeys(ext) {
		if err := checkExtensionBytes(name, ext[name]); err != nil {
			return false, name + ": " + err.(*Error).Detail
		}
	}
	prof := bagProfile{}
	if l.enc == EncodingBag {
		if unknown := l.unknownTags(); len(unknown) > 0 {
			return false, fmt.Sprintf("bag → flat → bag: tag file %s is lost: the flat form carries only BagIt's tag files, rebuilt, and the extension tags (%s) (D3)", strconv.Quote(unknown[0]), extensionNames())
		}
		info, _ := parseTagLines(l.bagTags[tagBagInfo])
		prof = bagProfile{Agent: info["Bag-Software-Agent"], Spec: info["Bag-Spec"]}
	} else if len(l.dropped) > 0 {
		return false, fmt.Sprintf("flat → bag → flat: top-level member %s is lost: the bag has no place for it (§2.2, D3)", strconv.Quote(l.dropped[0]))
	}
	bagit, info, manifest, tagm := bagTagFiles(obj, payload, prof, ext)
	if l.enc == EncodingBag && len(l.problems) == 0 {
		// (Tag files that do not verify are C1's finding, not again C9's.)
		if _, has := tagLine(l.bagTags[tagBagInfo], "Bag-Spec"); !has {
			return false, "bag → flat → bag: bag-info.txt has no Bag-Spec line; rebuilt from the flat form it has one (§2.1, D2)"
		}
		if !bytes.Equal(l.bagTags[tagBagIt], bagit) {
			return false, "bag → flat → bag: bagit.txt comes back different (" + firstDiff(l.bagTags[tagBagIt], bagit) + ")"
		}
		if why := compareBagInfo(l.bagTags[tagBagInfo], info); why != "" {
			return false, "bag → flat → bag: " + why
		}
		if !bytes.Equal(l.bagTags[tagManifest], manifest) {
			return false, "bag → flat → bag: manifest-sha256.txt comes back different (" + firstDiff(l.bagTags[tagManifest], manifest) + "; D2: one line per payload file, in the bag's order)"
		}
		if !bytes.Equal(l.bagTags[tagTagManifest], tagm) {
			return false, "bag → flat → bag: tagmanifest-sha256.txt comes back different (" + firstDiff(l.bagTags[tagTagManifest], tagm) + "; D3: bagit.txt, bag-info.txt, manifest-sha256.txt, then the extension tags)"
		}
	} else {
		lines, err := parseManifest(tagm)
		if err != nil {
			return false, "rebuilt tagmanifest: " + err.Error()
		}
		tags := map[string][]byte{tagBagIt: bagit, tagBagInfo: info, tagManifest: manifest}
		for k, v := range ext {
			tags[k] = v
		}
		for _, m := range lines {
			if sha(tags[m.path]) != m.digest {
				return false, "rebuilt tag file " + m.path + " does not verify"
			}
		}
	}
	dir := "bag → flat → bag"
	if l.enc != EncodingBag {
		dir = "flat → bag → flat"
	}
	return true, fmt.Sprintf("%s: the pack object and %s (largest %s) come back byte for byte", dir, plural.N(len(l.luggage), "luggage file"), humanBytes(biggest))
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

func extensionNames() string {
	var parts []string
	for _, e := range ExtensionTags {
		parts = append(parts, e.Bag)
	}
	return strings.Join(parts, ", ")
}

func tagLine(b []byte, label string) (string, bool) {
	info, _ := parseTagLines(b)
	v, ok := info[label]
	return v, ok
}
