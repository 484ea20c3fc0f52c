package pack

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// maxAttachmentMeta bounds an attachment's members other than "data".
const maxAttachmentMeta = 1 << 20

// flatAttachment is one attachment as the flat reader found it.
type flatAttachment struct {
	meta    *ojson.Value // every member but "data"
	dataOff int64        // offset of the opening quote of "data"; -1 when absent
	base64  bool
}

// loadFlat reads the flat form (§2.2) or the retired .tpx/0.1 shape (§8).
// Everything but the attachments' "data" is parsed; each "data" string is
// remembered by its offset and decoded from the file when needed.
func loadFlat(l *loaded, f *os.File, lim Limits) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return l.errf("", RuleNotAPack, "%v", err)
	}
	s := &jscan{r: bufio.NewReaderSize(f, 64<<10)}
	if b, _ := s.r.Peek(3); string(b) == "\xEF\xBB\xBF" {
		s.r.Discard(3)
		s.pos = 3
		l.quirks.BOM = true
	}
	top := ojson.NewObject()
	var atts []*flatAttachment
	hasAtts := false
	jsonFail := func(err error) error {
		switch {
		case errors.Is(err, errTruncated):
			return l.errf("", RuleTruncated, "the JSON ends early at byte %d", s.pos)
		case errors.Is(err, errTooBig):
			return l.errf("", RuleLimitObject, "a member is larger than the %d bytes a reader holds in memory", MaxObjectBytes)
		}
		return l.errf("", RuleJSON, "%v", err)
	}
	if err := s.expect('{'); err != nil {
		return jsonFail(err)
	}
	first := true
	for {
		c, err := s.peek()
		if err != nil {
			return jsonFail(errTruncated)
		}
		if c == '}' {
			s.readByte()
			break
		}
		if !first {
			if err := s.expect(','); err != nil {
				return jsonFail(err)
			}
		}
		first = false
		key, err := s.key()
		if err != nil {
			return jsonFail(err)
		}
		if key == "attachments" {
			if top.Has(key) || hasAtts {
				l.quirks.DuplicateKeys = append(l.quirks.DuplicateKeys, key)
			}
			hasAtts = true
			atts, err = readAttachments(l, s, lim)
			if err != nil {
				return jsonFail(err)
			}
			top.Set(key, ojson.NewArray())
			continue
		}
		raw, err := s.capture(MaxObjectBytes)
		if err != nil {
			return jsonFail(err)
		}
		v, q, perr := ojson.Parse(raw)
		if perr != nil {
			return l.errf(key, RuleJSON, "%v", perr)
		}
		mergeQuirks(&l.quirks, q)
		if top.Has(key) {
			l.quirks.DuplicateKeys = append(l.quirks.DuplicateKeys, key)
		}
		top.Set(key, v)
		if key == "passport" {
			l.raw = raw
		}
	}
	if _, err := s.peek(); err != io.EOF {
		return l.errf("", RuleTrailing, "bytes follow the JSON object at byte %d", s.pos)
	}

	switch {
	case top.Has("taskpack"):
		if t, ok := top.Get("taskpack").Str(); !ok || (t != model.TaskPack && t != model.BagSpecValue) {
			l.objErr = append(l.objErr, l.errf("taskpack", RuleTaskpack, "taskpack %s is not a version this reader knows (want \"0.1\")", ojson.Brief(top.Get("taskpack"), 60)))
		}
		if e, ok := top.Get("encoding").Str(); top.Has("encoding") && (!ok || e != "flat") {
			l.objErr = append(l.objErr, l.errf("encoding", RuleTaskpack, "encoding %s is not \"flat\"", ojson.Brief(top.Get("encoding"), 60)))
		}
		for _, k := range top.Obj().Keys() {
			switch k {
			case "taskpack", "encoding", "note_to_reader", "passport", "attachments":
			default:
				if e, ext := extensionByFlat(k); ext {
					b, ok := top.Get(k).Str()
					if !ok {
						l.problems = append(l.problems, l.errf(k, RuleExtension, "the extension member is a JSON %s, not a string (D3)", top.Get(k).Kind()))
						continue
					}
					if err := checkExtensionBytes(k, []byte(b)); err != nil {
						l.problems = append(l.problems, l.errf(k, RuleExtension, "%s", err.(*Error).Detail))
						continue
					}
					if l.flatExt == nil {
						l.flatExt = map[string][]byte{}
					}
					l.flatExt[e.Bag] = []byte(b)
					continue
				}
				l.dropped = append(l.dropped, k)
			}
		}
		pv := top.Get("passport")
		switch {
		case pv == nil:
			l.objErr = append(l.objErr, l.errf("passport", RuleObject, "missing: the file carries no pack object"))
		case pv.Kind() != ojson.Object:
			l.objErr = append(l.objErr, l.errf("passport", RuleObject, "the pack object is a JSON %s, not an object", pv.Kind()))
		default:
			l.obj = pv
		}
	case top.Has("tpx"):
		l.enc = EncodingTPX
		if t := top.Get("tpx"); t.Text() != "0.1" {
			if n, ok := t.Number(); !ok || n != 0.1 {
				l.objErr = append(l.objErr, l.errf("tpx", RuleTaskpack, "tpx %s is not a version this reader knows (want \"0.1\")", ojson.Brief(t, 60)))
			}
		}
		l.obj = fromTPX(top)
		l.raw = nil
	default:
		return l.errf("", RuleNotAPack, "a JSON object, but not a pack: no \"taskpack\" (nor the retired \"tpx\") member")
	}

	seen := map[string]string{}
	for i, a := range atts {
		where := model.Path("attachments", i)
		name, ok := a.meta.Get("name").Str()
		if !ok {
			return l.errf(where, RuleAttachment, "attachment has no name")
		}
		if rule, why := checkName(name); rule != "" {
			return l.errf(where+" "+printable(name), rule, "%s", why)
		}
		key := foldName(name)
		if prev, dup := seen[key]; dup {
			if prev == name {
				return l.errf(name, RuleDuplicate, "attachment appears twice")
			}
			return l.errf(name, RuleDuplicate, "attachment collides with %q when case is folded", prev)
		}
		seen[key] = name
		if a.dataOff < 0 {
			return l.errf(name, RuleAttachment, "attachment has no data string")
		}
		switch enc, has := a.meta.Get("encoding").Str(); {
		case enc == "base64":
			a.base64 = true
		case enc == "utf8":
		case !a.meta.Has("encoding"):
			// The reference reads anything but base64 as text.
		case !has || true:
			return l.errf(name, RuleAttachment, "encoding %s is neither utf8 nor base64", ojson.Brief(a.meta.Get("encoding"), 60))
		}
		e := &lentry{name: name, size: -1}
		if d, ok := a.meta.Get("sha256").Str(); ok && d != "" {
			e.declared = d
		} else {
			l.repairs = append(l.repairs, Repair{Rule: RepairAttachmentSHA, Where: name,
				Detail: "attachment declares no sha256: nothing vouches for its bytes (§2.2)"})
		}
		off, b64 := a.dataOff, a.base64
		path := l.path
		e.open = func() (io.ReadCloser, error) { return openFlatData(path, off, b64) }
		l.luggage = append(l.luggage, e)
		// Decode once now: the digest must be checked before anything lands.
		rc, err := e.open()
		if err != nil {
			return l.errf(name, RuleAttachment, "%v", err)
		}
		h := sha256.New()
		n, err := io.Copy(h, rc)
		fd := rc.(*flatData)
		bad := fd.badUTF8()
		lone := fd.loneSurrogate()
		nonCanon := fd.nonCanonicalBase64()
		rc.Close()
		if err != nil {
			if errors.Is(err, errTruncated) {
				return l.errf(name, RuleTruncated, "attachment data ends early")
			}
			return l.errf(name, RuleAttachment, "attachment data cannot be decoded: %v", err)
		}
		if bad {
			l.quirks.InvalidUTF8 = true
		}
		if lone {
			l.repairs = append(l.repairs, Repair{Rule: RepairSurrogate, Where: name,
				Detail: "utf8 attachment data holds a lone UTF-16 surrogate (\\udxxx), which no bytes can carry; it was read as U+FFFD"})
		}
		if nonCanon {
			l.repairs = append(l.repairs, Repair{Rule: RepairBase64, Where: name,
				Detail: "attachment data is not canonical base64 (RFC 4648: padding, no whitespace or other characters, zero spare bits); it was decoded leniently"})
		}
		e.size = n
		e.actual = hex.EncodeToString(h.Sum(nil))
		if e.declared != "" && e.declared != e.actual {
			l.problems = append(l.problems, l.errf(name, RuleAttachmentSHA, "attachment does not match its declared sha256 (§2.2: the read must abort)"))
		}
		if bv := a.meta.Get("bytes"); bv != nil {
			if nb, ok := bv.Int(); !ok || nb != n {
				l.problems = append(l.problems, l.errf(name, RuleAttachmentSize, "attachment declares bytes %s, its data is %d bytes", ojson.Brief(bv, 60), n))
			}
		}
	}
	return nil
}

func mergeQuirks(dst *ojson.Quirks, q ojson.Quirks) {
	dst.InvalidUTF8 = dst.InvalidUTF8 || q.InvalidUTF8
	dst.DuplicateKeys = append(dst.DuplicateKeys, q.DuplicateKeys...)
}

// key reads an object key and the colon after it.
func (s *jscan) key() (string, error) {
	raw, err := s.capture(64 << 10)
	if err != nil {
		return "", err
	}
	v, _, err := ojson.Parse(raw)
	if err != nil {
		return "", err
	}
	k, ok := v.Str()
	if !ok {
		return "", s.fail("object key is not a string")
	}
	if err := s.expect(':'); err != nil {
		return "", err
	}
	return k, nil
}

func readAttachments(l *loaded, s *jscan, lim Limits) ([]*flatAttachment, error) {
	if c, err := s.peek(); err == nil && c == 'n' {
		// "attachments": null carries nothing, as the reference reads it.
		raw, err := s.capture(16)
		if err != nil || string(raw) != "null" {
			return nil, s.fail("attachments is neither an array nor null")
		}
		return nil, nil
	}
	if err := s.expect('['); err != nil {
		return nil, err
	}
	var out []*flatAttachment
	for i := 0; ; i++ {
		c, err := s.peek()
		if err != nil {
			return nil, errTruncated
		}
		if c == ']' {
			s.readByte()
			return out, nil
		}
		if i > 0 {
			if err := s.expect(','); err != nil {
				return nil, err
			}
		}
		if len(out) >= lim.MaxEntries {
			return nil, &Error{File: l.path, Rule: RuleLimitEntries, Detail: "more attachments than the entry limit"}
		}
		a := &flatAttachment{meta: ojson.NewObject(), dataOff: -1}
		if err := s.expect('{'); err != nil {
			return nil, err
		}
		for j := 0; ; j++ {
			c, err := s.peek()
			if err != nil {
				return nil, errTruncated
			}
			if c == '}' {
				s.readByte()
				break
			}
			if j > 0 {
				if err := s.expect(','); err != nil {
					return nil, err
				}
			}
			k, err := s.key()
			if err != nil {
				return nil, err
			}
			if k == "data" {
				if c, err := s.peek(); err == nil && c == '"' {
					if a.dataOff >= 0 {
						l.quirks.DuplicateKeys = append(l.quirks.DuplicateKeys, "data")
					}
					a.dataOff, err = s.skipString()
					if err != nil {
						return nil, err
					}
					continue
				}
			}
			raw, err := s.capture(maxAttachmentMeta)
			if err != nil {
				return nil, err
			}
			v, q, err := ojson.Parse(raw)
			if err != nil {
				return nil, err
			}
			mergeQuirks(&l.quirks, q)
			a.meta.Set(k, v)
		}
		out = append(out, a)
	}
}

// flatData streams one attachment's decoded bytes from the file.
type flatData struct {
	f   *os.File
	sd  *stringDecoder
	r   io.Reader
	end bool
}

func (d *flatData) Read(p []byte) (int, error) { return d.r.Read(p) }
func (d *flatData) Close() error               { return d.f.Close() }
func (d *flatData) badUTF8() bool              { return d.sd.badUTF8 }
func (d *flatData) loneSurrogate() bool        { return d.sd != nil && d.sd.loneSur }

// nonCanonicalBase64 reports, after a read to the end, whether base64 data
// was not in its canonical form.
func (d *flatData) nonCanonicalBase64() bool {
	b, ok := d.r.(*b64Decoder)
	return ok && b.NonCanonical()
}

func openFlatData(path string, off int64, b64 bool) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(off+1, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	sd := newStringDecoder(bufio.NewReaderSize(f, 64<<10))
	d := &flatData{f: f, sd: sd, r: sd}
	if b64 {
		d.r = newB64Decoder(sd)
	}
	return d, nil
}

// fromTPX maps a retired .tpx/0.1 file onto the pack object (§8), key for
// key as the reference reads it.
func fromTPX(top *ojson.Value) *ojson.Value {
	state := top.Get("passport")
	if state == nil || state.Kind() != ojson.Object {
		state = ojson.NewObject()
	} else {
		state = state.Clone()
	}
	o := ojson.NewObject()
	o.Set("spec", ojson.NewString(model.SpecBag))
	kind := model.KindHandoff
	if top.Get("kind").Text() == model.KindReceipt {
		kind = model.KindReceipt
	}
	o.Set("kind", ojson.NewString(kind))
	o.Set("packed_at", ojson.NewString(top.Get("issued_at").Text()))
	orDefault := func(k string, d *ojson.Value) *ojson.Value {
		if v := top.Get(k); v != nil && !v.IsNull() {
			return v.Clone()
		}
		return d
	}
	o.Set("origin", orDefault("origin", ojson.NewObject()))
	lin := ojson.NewObject()
	lin.Set("root_id", state.Get("id").Clone())
	lin.Set("from_version", ojson.NewInt(0))
	lin.Set("chain", ojson.NewArray())
	o.Set("lineage", orDefault("lineage", lin))
	o.Set("note", ojson.NewString(top.Get("peer").Get("note").Text()))
	if facts := top.Get("facts").Items(); len(facts) > 0 {
		state.Set("facts", top.Get("facts").Clone())
	}
	o.Set("passport", state)
	o.Set("asks", orDefault("asks", ojson.NewArray()))
	o.Set("landing_checks", orDefault("landing_checks", ojson.NewArray()))
	return o
}
