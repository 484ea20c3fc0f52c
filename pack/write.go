package pack

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/model"
)

// WriteOptions control a write.
type WriteOptions struct {
	// AllowLarge lets the flat writer inline attachments over 1 MiB (§2.2).
	AllowLarge bool
	// Agent is bag-info.txt's Bag-Software-Agent; "tp" when empty.
	Agent string
	// ReadLimits are what Convert's reader may take (zero fields: the
	// defaults, D10); --max-passport-bytes sets MaxCanonical. The bag
	// writer also keeps every entry within their MaxRatio (past
	// RatioFloor), so a reader with these limits never takes what tp wrote
	// for a bomb.
	ReadLimits Limits
	// Sign, when set, signs the pack (D22): it is given the content
	// identity (ContentIdentity) of what is about to be written and returns
	// an armored SSHSIG made for SignatureNamespace, which is written as the
	// TagSignature extension tag. A signature that does not verify over
	// those bytes is refused before anything is written.
	Sign func(identity []byte) (string, error)
}

// WriteResult is what a write produced beyond the file.
type WriteResult struct {
	// ContentSHA256 is the written pack's content identity (D22).
	ContentSHA256 string
	// Object is the pack object written (sealed, §4.2).
	Object *ojson.Value
	// Signature is the signature the written pack carries; nil: unsigned.
	Signature *Signature
	// SignatureDropped says why a signature in Source.Tags (one carried
	// over by tp convert) was not written: it does not verify over the
	// content written, which is not the content it signed.
	SignatureDropped string
}

// Write seals src's pack object (§4.2, on a copy), refuses what §4.1, §4.3,
// §4.5, D5 and D13 forbid, and writes the pack in enc atomically: a
// temporary file in the same folder, fsync, rename. On any failure nothing
// is left at path (and an existing file there is untouched).
func Write(path string, src Source, enc Encoding, opts WriteOptions) error {
	_, err := WriteReport(path, src, enc, opts)
	return err
}

// WriteReport is Write, saying what was written: the content identity and
// the signature (D22).
func WriteReport(path string, src Source, enc Encoding, opts WriteOptions) (WriteResult, error) {
	res, p, err := Begin(path, src, enc, opts)
	if err != nil {
		return WriteResult{}, err
	}
	if err := p.Sync(); err != nil {
		p.Abort()
		return WriteResult{}, err
	}
	if err := p.Commit(); err != nil {
		return WriteResult{}, writeError(path, err)
	}
	return res, nil
}

// Pending is a pack written beside its target under a temporary name
// (Name) and not yet durable (durable.Pending): the caller syncs it,
// alone or together with another file it must make durable first, and
// then puts it in place or aborts.
type Pending struct {
	*durable.Pending
	path string
}

// Sync makes the pack's bytes durable; a failure is a *Error naming the
// pack.
func (p Pending) Sync() error {
	if err := p.Pending.Sync(); err != nil {
		return writeError(p.path, err)
	}
	return nil
}

// Begin is WriteReport up to the pack's bytes: it seals, refuses and
// signs as WriteReport does and writes the pack beside path, synced and
// placed by the caller. On failure nothing is left.
func Begin(path string, src Source, enc Encoding, opts WriteOptions) (WriteResult, Pending, error) {
	var res WriteResult
	obj, err := prepare(path, src)
	if err != nil {
		return res, Pending{}, err
	}
	src.Object = obj
	if enc != EncodingBag && enc != EncodingFlat {
		return res, Pending{}, &Error{File: path, Rule: RuleWrite, Detail: fmt.Sprintf("tp writes %s or %s, not %s (§8: retired encodings are never produced)", EncodingBag, EncodingFlat, enc)}
	}
	sums, err := refusals(src, nil)
	if err != nil {
		var re *RefusalError
		if errors.As(err, &re) {
			for _, it := range re.Items {
				it.File = path
			}
		}
		return res, Pending{}, err
	}
	if enc == EncodingFlat && !opts.AllowLarge {
		for i, s := range sums {
			if s.size > MaxInlineBytes {
				return res, Pending{}, &Error{File: path, Entry: src.Luggage[i].Name, Rule: RuleInlineLimit,
					Detail: fmt.Sprintf("attachment is %s, over the flat form's 1 MiB inline limit: chat apps will not carry it, so it travels as .taskpack (or pass --allow-large)", humanBytes(s.size))}
			}
		}
	}
	ls := make([]Luggage, len(src.Luggage))
	for i, l := range src.Luggage {
		ls[i] = Luggage{Name: l.Name, Size: sums[i].size, SHA256: sums[i].sha256}
	}
	canon := ojson.Canonical(obj)
	identity := ContentIdentity(canon, ls)
	res.ContentSHA256 = sha(identity)
	res.Object = obj
	if src.Tags, res.Signature, res.SignatureDropped, err = signTags(path, identity, src.Tags, opts); err != nil {
		return res, Pending{}, err
	}
	p, err := durable.Begin(path, 0o644, func(w *bufio.Writer) error {
		if enc == EncodingBag {
			return writeBag(w, src, canon, sums, opts)
		}
		return writeFlat(w, src, canon, sums)
	})
	if err != nil {
		return WriteResult{}, Pending{}, writeError(path, err)
	}
	return res, Pending{Pending: p, path: path}, nil
}

// signTags makes (opts.Sign) or checks (a TagSignature in tags, carried
// over) the pack's signature over identity before anything is written, and
// returns the tags to write: a new map, the caller's is not changed.
func signTags(path string, identity []byte, tags map[string][]byte, opts WriteOptions) (out map[string][]byte, sig *Signature, dropped string, err error) {
	out = make(map[string][]byte, len(tags)+1)
	for k, v := range tags {
		out[k] = v
	}
	if opts.Sign != nil {
		armored, err := opts.Sign(identity)
		if err != nil {
			return nil, nil, "", &Error{File: path, Rule: RuleSignature, Detail: "cannot sign the pack: " + err.Error()}
		}
		key, err := sshsign.VerifyAny(SignatureNamespace, identity, armored)
		if err != nil {
			return nil, nil, "", &Error{File: path, Rule: RuleSignature, Detail: "the signature made does not verify: " + err.Error()}
		}
		out[TagSignature] = []byte(armored)
		return out, newSignature(armored, key), "", nil
	}
	carried, ok := out[TagSignature]
	if !ok {
		return out, nil, "", nil
	}
	key, verr := sshsign.VerifyAny(SignatureNamespace, identity, string(carried))
	if verr != nil {
		delete(out, TagSignature)
		return out, nil, "the signature covers the content as it was signed, and the content written differs (" + verr.Error() + ")", nil
	}
	return out, newSignature(string(carried), key), "", nil
}

// prepare checks what a writer must never produce (an unknown spec or kind,
// luggage names a reader would refuse) and returns a sealed copy of the
// pack object (Sealed: it shares what sealing leaves as it was).
func prepare(path string, src Source) (*ojson.Value, error) {
	if src.Object == nil || src.Object.Kind() != ojson.Object {
		return nil, &Error{File: path, Rule: RuleObject, Detail: "no pack object to write"}
	}
	obj := src.Object
	if s := obj.Get("spec").Text(); s != model.SpecBag {
		return nil, &Error{File: path, Entry: "spec", Rule: RuleSpec, Detail: fmt.Sprintf("spec %s is not %q", ojson.Brief(obj.Get("spec"), 60), model.SpecBag)}
	}
	if k := obj.Get("kind").Text(); k != model.KindHandoff && k != model.KindReceipt {
		return nil, &Error{File: path, Entry: "kind", Rule: RuleKind, Detail: fmt.Sprintf("kind %s is neither handoff nor receipt", ojson.Brief(obj.Get("kind"), 60))}
	}
	if err := checkSourceTags(src.Tags); err != nil {
		err.(*Error).File = path
		return nil, err
	}
	seen := map[string]string{}
	for _, l := range src.Luggage {
		if rule, why := checkName(l.Name); rule != "" {
			return nil, &Error{File: path, Entry: printable(l.Name), Rule: rule, Detail: why}
		}
		k := foldName(l.Name)
		if prev, dup := seen[k]; dup {
			return nil, &Error{File: path, Entry: l.Name, Rule: RuleDuplicate, Detail: fmt.Sprintf("luggage name collides with %q", prev)}
		}
		seen[k] = l.Name
	}
	for k, name := range seen {
		// "a" and "a/b" cannot both be files.
		for i := 0; i < len(k); i++ {
			if k[i] == '/' {
				if _, file := seen[k[:i]]; file {
					return nil, &Error{File: path, Entry: name, Rule: RuleDuplicate, Detail: fmt.Sprintf("%q is a file and also a folder here", seen[k[:i]])}
				}
			}
		}
	}
	return Sealed(obj), nil
}

// writeError is a failed write as a *Error naming path (internal/durable's
// steps, and the writers' own errors).
func writeError(path string, err error) error {
	var pe *Error
	if errors.As(err, &pe) {
		if pe.File == "" {
			pe.File = path
		}
		return err
	}
	var de *durable.Error
	if errors.As(err, &de) {
		return &Error{File: path, Rule: RuleWrite, Detail: de.Op + ": " + de.Err.Error()}
	}
	return &Error{File: path, Rule: RuleWrite, Detail: err.Error()}
}

// luggageChanged is returned when a luggage file's bytes differ between the
// scanning pass and the writing pass.
func luggageChanged(path, name string) error {
	return &Error{File: path, Entry: name, Rule: RuleWrite, Detail: "luggage changed while it was being packed"}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
