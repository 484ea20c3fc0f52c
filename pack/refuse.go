package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack/scan"
)

// Error is a refusal or bad input: the file, the entry (a ZIP entry, an
// attachment, or a JSON path in the pack object), the rule broken and a line
// for a person. Every error this package returns about a pack is one, or
// wraps some (a *RefusalError).
type Error struct {
	File   string `json:"file"`
	Entry  string `json:"entry,omitempty"`
	Rule   string `json:"rule"`
	Detail string `json:"detail"`
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Entry != "" {
		b.WriteString(e.Entry)
		b.WriteString(": ")
	}
	b.WriteString(e.Detail)
	if e.Rule != "" {
		b.WriteString(" (")
		b.WriteString(e.Rule)
		b.WriteString(")")
	}
	return oneLine(b.String())
}

func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// Rules. Each names the spec section or decision (docs/decisions.md) it comes from.
const (
	RuleNotAPack       = "not-a-pack"              // neither a ZIP nor a pack JSON object
	RuleTruncated      = "D10 truncated"           // the file ends early
	RuleTrailing       = "D10 trailing-garbage"    // bytes after the ZIP or the JSON value
	RuleZipFormat      = "D10 zip-format"          // a ZIP the reader cannot trust
	RulePathAbsolute   = "D10 path-absolute"       // "/x", drive letters
	RulePathTraversal  = "D10 path-traversal"      // "..", ".", empty segments
	RulePathBackslash  = "D10 path-backslash"      // "a\\b"
	RulePathNUL        = "D10 path-nul"            // NUL or other controls in a name
	RulePathEncoding   = "D10 path-encoding"       // a name that is not UTF-8
	RulePathLength     = "D10 path-length"         // a name or a part of it too long for a file system
	RulePathConflict   = "D10 path-conflict"       // "a" and "a/b": a file that another name needs as a folder
	RuleDuplicate      = "D10 duplicate-entry"     // the same name twice, also after case folding
	RuleSymlink        = "D10 symlink"             // a link entry
	RuleEncrypted      = "D10 encrypted"           // an encrypted entry
	RuleMethod         = "D10 compression-method"  // not stored or deflated
	RuleLimitEntries   = "D10 limit-entries"       // more entries than Limits.MaxEntries
	RuleLimitTotal     = "D10 limit-total"         // more bytes than Limits.MaxTotal
	RuleLimitRatio     = "D10 limit-ratio"         // a bomb: ratio beyond Limits.MaxRatio
	RuleLimitObject    = "D10 limit-object"        // a pack object over MaxObjectBytes
	RuleLimitWork      = "D10 limit-work"          // input whose reading is work out of proportion to its size
	RuleBagIt          = "§2.1 bagit"              // bagit.txt missing or wrong
	RuleManifest       = "§2.1 manifest"           // a manifest missing or malformed
	RuleUnlisted       = "§2.1 payload-unlisted"   // a payload file absent from the manifest
	RuleMissing        = "§2.1 payload-missing"    // listed in a manifest, not in the bag
	RuleDigest         = "§2.1 digest"             // bytes do not match their digest
	RuleOxum           = "§2.1 payload-oxum"       // Payload-Oxum disagrees with the payload
	RuleBagSpec        = "§2.1 bag-spec"           // bag-info.txt Bag-Spec not recognised
	RulePayloadExtra   = "§2.1 payload-extra"      // a payload file that is neither passport.json nor luggage
	RuleJSON           = "§3 json"                 // malformed JSON
	RuleObject         = "§3 pack-object"          // the pack object is not an object
	RuleSpec           = "§8 spec"                 // a "spec" this reader does not know
	RuleTaskpack       = "§8 taskpack"             // a flat "taskpack" this reader does not know
	RuleKind           = "D10 kind"                // kind is not handoff or receipt
	RuleAttachment     = "§2.2 attachment"         // a flat attachment that cannot be read
	RuleAttachmentSHA  = "§2.2 attachment-sha256"  // declared sha256 does not match
	RuleAttachmentSize = "§2.2 attachment-bytes"   // declared bytes does not match
	RuleInlineLimit    = "§2.2 inline-limit"       // flat writer: attachment over 1 MiB
	RuleRepair         = "§6 C0 repair-needed"     // strict read: the file needed a repair
	RuleCredential     = "§4.1 credential"         // D5
	RuleTranscript     = "§4.1 transcript"         // D5
	RuleInstruction    = "§4.5 instruction-field"  // D13
	RuleAskAccept      = "§4.3 ask-without-accept" // an ask with no accept
	RuleAskWhat        = "§4.3 ask-without-what"   // an ask with no what
	RuleAskShape       = "§4.3 ask-not-object"     // an ask that is not an object
	RuleWrite          = "write"                   // the file system refused
)

// Repair rules (Repair.Rule), D4.
const (
	RepairSeal          = "seal"              // a machine-scoped or unscoped fact arrived verified (§4.2)
	RepairAttachmentSHA = "attachment-sha256" // a flat attachment declared no sha256 (§2.2)
	RepairBase64        = "base64"            // a flat attachment's base64 was not canonical (RFC 4648)
	RepairAskID         = "ask-id"            // an ask had no id
	RepairAskStatus     = "ask-status"        // an ask had no status
	RepairCheckID       = "check-id"          // a landing check had no id
	RepairCheckRequired = "check-required"    // a landing check had no required
	RepairCanonical     = "non-canonical"     // data/passport.json is not D1 bytes
	RepairBOM           = "bom"               // a byte order mark
	RepairUTF8          = "invalid-utf8"      // bytes that are not UTF-8
	RepairSurrogate     = "lone-surrogate"    // a flat utf8 attachment held a lone surrogate, read as U+FFFD
	RepairDuplicateKey  = "duplicate-key"     // a key repeated in one object
	RepairPayloadExtra  = "payload-extra"     // a payload file outside data/files/ ignored

	// RepairDropped is reported by ConvertRepairs only (not a C0 repair): a
	// top-level member of a flat file that is not part of the flat form
	// (§2.2), which neither encoding written has a place for.
	RepairDropped = "dropped-member"
	// RepairSignatureDropped is reported by ConvertRepairs only: the
	// lenient read repaired the content, so the signature (D22), which
	// covers the content as signed, was not written into the output.
	RepairSignatureDropped = "signature-dropped"
)

// RefusalError lists every reason a pack may not be written (§4.1, D5, D13).
type RefusalError struct {
	Items []*Error
}

func (e *RefusalError) Error() string {
	parts := make([]string, len(e.Items))
	for i, it := range e.Items {
		p := it.Entry + ": " + it.Detail + " (" + it.Rule + ")"
		parts[i] = p
	}
	return oneLine(fmt.Sprintf("refusing to pack: %s: %s", plural.N(len(e.Items), "problem"), strings.Join(parts, "; ")))
}

// Unwrap lets errors.As find each *Error.
func (e *RefusalError) Unwrap() []error {
	out := make([]error, len(e.Items))
	for i, it := range e.Items {
		out[i] = it
	}
	return out
}

// refusals is Refusals that also hands each luggage file's bytes to sink
// (when set), so the writer hashes while it scans.
func refusals(src Source, sink func(i int, name string) luggageSink) ([]luggageSum, error) {
	var items []*Error
	items = append(items, objectRefusals(src.Object)...)
	sums := make([]luggageSum, len(src.Luggage))
	buf, release := copyBuf(len(src.Luggage))
	defer release()
	var all []scan.Finding
	for i, l := range src.Luggage {
		// A name is as visible as the bytes (issue 18, D5): a token used
		// as a file name travels in every listing of the pack.
		for _, f := range scan.Credentials(l.Name) {
			items = append(items, &Error{Entry: "data/files/" + l.Name, Rule: RuleCredential,
				Detail: fmt.Sprintf("the luggage name looks like it carries a credential (%s: %s)", f.Rule, f.Excerpt)})
		}
		var extra luggageSink
		if sink != nil {
			extra = sink(i, l.Name)
		}
		sum, found, err := scanLuggage(l, extra, buf)
		if err != nil {
			return nil, err
		}
		sums[i] = sum
		all = append(all, found...)
		for _, f := range found {
			switch {
			case f.Rule == scan.RuleUnscannable:
				items = append(items, &Error{Entry: f.Where, Rule: RuleCredential,
					Detail: fmt.Sprintf("luggage cannot be scanned for credentials to its end (%s: %s)", f.Rule, f.Excerpt)})
			case f.Class == scan.Credential:
				items = append(items, &Error{Entry: f.Where, Rule: RuleCredential,
					Detail: fmt.Sprintf("luggage looks like it carries a credential (%s: %s)", f.Rule, f.Excerpt)})
			case f.Class == scan.Transcript:
				// §4.1 refuses chat transcripts in a pack, not only in the
				// object (issue 18, D5).
				items = append(items, &Error{Entry: f.Where, Rule: RuleTranscript,
					Detail: fmt.Sprintf("luggage looks like a chat transcript (%s: %s)", f.Rule, f.Excerpt)})
			}
		}
	}
	for _, f := range scan.SplitKeys(all) {
		items = append(items, &Error{Entry: f.Where, Rule: RuleCredential,
			Detail: fmt.Sprintf("luggage carries a private key split across files (%s: %s)", f.Rule, f.Excerpt)})
	}
	if len(items) > 0 {
		return sums, &RefusalError{Items: items}
	}
	return sums, nil
}

// objectRefusals is the pack-object half of Refusals.
func objectRefusals(obj *ojson.Value) []*Error {
	var items []*Error
	for _, f := range scan.Object(obj) {
		rule := ""
		what := ""
		switch f.Class {
		case scan.Credential:
			rule, what = RuleCredential, "looks like a credential"
		case scan.Transcript:
			rule, what = RuleTranscript, "looks like a chat transcript"
		case scan.InstructionField:
			rule, what = RuleInstruction, "is an instruction field; a pack carries data, never instructions"
		default:
			continue
		}
		items = append(items, &Error{Entry: f.Where, Rule: rule, Detail: what + " (" + f.Rule + ")"})
	}
	for i, a := range obj.Get("asks").Items() {
		where := model.Path("asks", i)
		if a.Kind() != ojson.Object {
			items = append(items, &Error{Entry: where, Rule: RuleAskShape, Detail: "ask is not an object"})
			continue
		}
		if id := a.Get("id").Text(); id != "" {
			where += " (" + id + ")"
		}
		if strings.TrimSpace(a.Get("what").Text()) == "" {
			items = append(items, &Error{Entry: where, Rule: RuleAskWhat, Detail: "ask has no what: nothing says what is asked"})
		}
		if strings.TrimSpace(a.Get("accept").Text()) == "" {
			items = append(items, &Error{Entry: where, Rule: RuleAskAccept, Detail: "ask has no accept: nothing says what would count as answered"})
		}
	}
	return items
}

// luggageSink receives a luggage file's bytes while it is scanned.
type luggageSink = io.Writer

// luggageSum is what one pass over a luggage file learns: its size, digest,
// and whether it may travel as "utf8" in the flat form (D3: valid UTF-8 with
// no NUL).
type luggageSum struct {
	size   int64
	sha256 string
	text   bool
}

// scanLuggage reads one luggage file once: credential scan (every byte,
// D5), sha256, size, and the utf8/base64 decision, handing the bytes to
// extra as well when set.
func scanLuggage(l LuggageSource, extra io.Writer, buf []byte) (luggageSum, []scan.Finding, error) {
	rc, err := l.Open()
	if err != nil {
		return luggageSum{}, nil, &Error{File: l.Name, Rule: RuleWrite, Detail: "cannot read luggage: " + err.Error()}
	}
	defer rc.Close()
	sc := scan.NewLuggageScanner("data/files/" + l.Name)
	defer sc.Findings() // ends a look inside a gzip, also on a read error
	h := sha256.New()
	tc := &textCheck{ok: true}
	ws := []io.Writer{h, sc, tc}
	if extra != nil {
		ws = append(ws, extra)
	}
	n, err := io.CopyBuffer(io.MultiWriter(ws...), readerOnly{rc}, buf)
	if err != nil {
		return luggageSum{}, nil, &Error{File: l.Name, Rule: RuleWrite, Detail: "cannot read luggage: " + err.Error()}
	}
	found := sc.Findings()
	for _, f := range sc.TextFindings() {
		if f.Class == scan.Transcript {
			found = append(found, f)
		}
	}
	return luggageSum{size: n, sha256: hex.EncodeToString(h.Sum(nil)), text: tc.done()}, found, nil
}

// textCheck decides, streaming, whether bytes are valid UTF-8 with no NUL.
type textCheck struct {
	ok    bool
	carry []byte
}

func (t *textCheck) Write(p []byte) (int, error) {
	if !t.ok {
		return len(p), nil
	}
	b := p
	if len(t.carry) > 0 {
		// Complete the sequence cut by the last chunk.
		need := 4 - len(t.carry)
		if need > len(p) {
			need = len(p)
		}
		joined := append(append([]byte{}, t.carry...), p[:need]...)
		r, size := utf8.DecodeRune(joined)
		if r == utf8.RuneError && size <= 1 {
			if utf8.FullRune(joined) {
				t.ok = false
				return len(p), nil
			}
			t.carry = joined
			return len(p), nil
		}
		b = p[size-len(t.carry):]
		t.carry = nil
	}
	if bytes.IndexByte(b, 0) >= 0 {
		t.ok = false
		return len(p), nil
	}
	// Hold back a sequence the chunk boundary cut.
	cut := len(b)
	for k := len(b) - 1; k >= 0 && k >= len(b)-3; k-- {
		if utf8.RuneStart(b[k]) {
			if !utf8.FullRune(b[k:]) {
				cut = k
			}
			break
		}
	}
	if !utf8.Valid(b[:cut]) {
		t.ok = false
		return len(p), nil
	}
	if cut < len(b) {
		t.carry = append([]byte{}, b[cut:]...)
	}
	return len(p), nil
}

func (t *textCheck) done() bool { return t.ok && len(t.carry) == 0 }

// readerOnly hides WriterTo/ReaderFrom so io.CopyBuffer uses the buffer.
type readerOnly struct{ io.Reader }
