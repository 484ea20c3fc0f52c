package judge

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/pack"
)

// sig is an extension tag file's bytes (the signature's shape, as text).
const sig = "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQ==\n-----END SSH SIGNATURE-----\n"

// bagWith builds the reference bag with edit applied to its entries, the
// tag manifest recomputed over D2's three tag files plus every name in
// listed.
func bagWith(t *testing.T, edit func(es *[]file), listed ...string) string {
	t.Helper()
	b := packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), packtest.TestLuggage, func(es *[]file) {
		edit(es)
		packtest.FixTagManifest(es)
		for i, e := range *es {
			if e.Name != "tagmanifest-sha256.txt" {
				continue
			}
			for _, name := range listed {
				for _, x := range *es {
					if x.Name == name {
						(*es)[i].Data = append((*es)[i].Data, packtest.HexSum(x.Data)+"  "+name+"\n"...)
					}
				}
			}
		}
	})
	return packtest.WriteTemp(t, "t.taskpack", b)
}

// addTag inserts a tag file right after tagmanifest-sha256.txt (D3's order).
func addTag(name, data string) func(es *[]file) {
	return func(es *[]file) {
		for i, e := range *es {
			if e.Name == "tagmanifest-sha256.txt" {
				*es = append((*es)[:i+1], append([]file{{Name: name, Data: []byte(data)}}, (*es)[i+1:]...)...)
				return
			}
		}
	}
}

func editInfo(f func(info string) string) func(es *[]file) {
	return func(es *[]file) {
		for i, e := range *es {
			if e.Name == "bag-info.txt" {
				(*es)[i].Data = []byte(f(string(e.Data)))
			}
		}
	}
}

// TestC9TagFiles is D3's tag-file rule: a tag file the flat form cannot
// carry, a bag-info.txt the flat form cannot rebuild, and an extension tag
// the tag manifest does not vouch for fail C9 naming the file; the near
// misses (an extension tag listed as D3 says; the reference's writer
// profile) pass.
func TestC9TagFiles(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		edit   func(es *[]file)
		listed []string
		want   string // "" = conformant
	}{
		{"extra tag file", addTag("notes.txt", "hello\n"), []string{"notes.txt"}, `tag file "notes.txt" is lost`},
		{"extra tag file not listed", addTag("notes.txt", "hello\n"), nil, `tag file "notes.txt" is lost`},
		{"sha512 manifest", addTag("manifest-sha512.txt", "x\n"), []string{"manifest-sha512.txt"}, `"manifest-sha512.txt" is lost`},
		{"extra bag-info field", editInfo(func(s string) string { return s + "Contact-Name: mallory\n" }), nil, `line "Contact-Name: mallory" is not one the flat form can rebuild`},
		{"no Bag-Spec", editInfo(func(s string) string { return strings.Replace(s, "Bag-Spec: taskpack/0.1\n", "", 1) }), nil, "no Bag-Spec line"},
		{"bag-info lines reordered", editInfo(func(s string) string {
			l := strings.SplitAfter(s, "\n")
			l[1], l[2] = l[2], l[1]
			return strings.Join(l, "")
		}), nil, "bag-info.txt line 2"},
		{"bag-info value not derived", editInfo(func(s string) string {
			return strings.Replace(s, "Internal-Sender-Identifier: ", "Internal-Sender-Identifier: x", 1)
		}), nil, "Internal-Sender-Identifier"},
		{"extension tag not in the tag manifest", addTag(pack.TagSignature, sig), nil, "tagmanifest-sha256.txt comes back different"},
		{"extension tag not text", addTag(pack.TagSignature, "\xff\xfe"), []string{pack.TagSignature}, "must be UTF-8 text"},
		// near misses
		{"extension tag listed (near miss)", addTag(pack.TagSignature, sig), []string{pack.TagSignature}, ""},
		{"reference writer profile (near miss)", editInfo(func(s string) string {
			s = strings.Replace(s, "Bag-Software-Agent: test", "Bag-Software-Agent: task-passport", 1)
			return strings.Replace(s, "Bag-Spec: taskpack/0.1", "Bag-Spec: task-passport-bag/0.1", 1)
		}), nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Conformance(bagWith(t, c.edit, c.listed...), pack.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c9 := checkOf(r, "C9")
			if c.want == "" {
				if !r.Conformant {
					t.Fatalf("want conformant, failing %v: %s", failing(r), c9.Reason)
				}
				return
			}
			if c9.Pass || !strings.Contains(c9.Reason, c.want) {
				t.Fatalf("C9 = %+v, want a failure saying %q", c9, c.want)
			}
		})
	}
}

// TestC9FlatMembers: a top-level member of a flat file that the bag has
// no place for fails C9 (flat → bag → flat loses it); the signature member
// (D3's extension) is carried and passes.
func TestC9FlatMembers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, member, value, want string
	}{
		{"unknown member", "extra", `"x"`, `member "extra" is lost`},
		{"signature not a string", pack.FlatSignature, `{"a":1}`, "not a string"},
		{"signature (near miss)", pack.FlatSignature, ojsonString(sig), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			flat := packtest.RawFlat(t, packtest.RefObject(t), packtest.Att("a.txt", []byte("hi\n")))
			flat = addMember(t, flat, c.member, c.value)
			r, err := Conformance(packtest.WriteTemp(t, "t.taskpack.json", flat), pack.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if !r.Conformant {
					t.Fatalf("want conformant, failing %v: %+v", failing(r), r.Checks)
				}
				return
			}
			bad := false
			for _, f := range r.Checks {
				bad = bad || !f.Pass && strings.Contains(f.Reason, c.want)
			}
			if !bad {
				t.Fatalf("no check says %q: %+v", c.want, r.Checks)
			}
		})
	}
}

func ojsonString(s string) string { return string(ojson.Compact(ojson.NewString(s))) }

// addMember inserts "member": value as the flat file's last top-level member.
func addMember(t *testing.T, flat []byte, member, value string) []byte {
	t.Helper()
	i := bytes.LastIndexByte(flat, '}')
	if i < 0 {
		t.Fatal("no object")
	}
	return append(append(append([]byte{}, flat[:i]...), []byte(",\n  "+ojsonString(member)+": "+value+"\n")...), flat[i:]...)
}

// TestExtensionTagTravels: an extension tag written by pack.Write in either
// encoding survives tp convert both ways byte for byte, is listed in the
// bag's tag manifest, and every file along the way is conformant.
func TestExtensionTagTravels(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A real signature (D22): readers refuse one that does not verify.
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := ssh.NewSignerFromKey(priv)
	sign := func(msg []byte) (string, error) { return sshsign.Sign(signer, pack.SignatureNamespace, msg) }
	src := pack.Source{Object: packtest.RefObject(t)}
	bag := filepath.Join(dir, "a.taskpack")
	if err := pack.Write(bag, src, pack.EncodingBag, pack.WriteOptions{Sign: sign}); err != nil {
		t.Fatal(err)
	}
	flat := filepath.Join(dir, "b.taskpack.json")
	bag2 := filepath.Join(dir, "c.taskpack")
	if err := pack.Convert(bag, flat, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := pack.Convert(flat, bag2, pack.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, first := packtest.ReadZip(t, bag)
	_, again := packtest.ReadZip(t, bag2)
	sig := string(first[pack.TagSignature])
	if !packtest.EqualFiles(first, again) {
		t.Fatal("bag → flat → bag: entries differ")
	}
	if !strings.HasPrefix(sig, "-----BEGIN SSH SIGNATURE-----") || !strings.Contains(string(first["tagmanifest-sha256.txt"]), "  "+pack.TagSignature+"\n") {
		t.Fatalf("signature tag: %q; tagmanifest %q", first[pack.TagSignature], first["tagmanifest-sha256.txt"])
	}
	for _, p := range []string{bag, flat, bag2} {
		r, err := Conformance(p, pack.Options{})
		if err != nil || !r.Conformant {
			t.Fatalf("%s: %v %v", p, err, failing(r))
		}
		pk, err := pack.Open(p, pack.Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		got := string(pk.Tags[pack.TagSignature])
		pk.Close()
		if got != sig {
			t.Fatalf("%s: Tags[%s] = %q", p, pack.TagSignature, got)
		}
	}
}

// TestWriteRefusesUnknownTags: a writer adds only the extension tags D3
// names, and only as UTF-8 text.
func TestWriteRefusesUnknownTags(t *testing.T) {
	t.Parallel()
	for _, tags := range []map[string][]byte{
		{"notes.txt": []byte("x")},
		{"bag-info.txt": []byte("x")},
		{pack.TagSignature: []byte("\xff")},
	} {
		for _, enc := range []pack.Encoding{pack.EncodingBag, pack.EncodingFlat} {
			p := filepath.Join(t.TempDir(), "x.taskpack")
			err := pack.Write(p, pack.Source{Object: packtest.RefObject(t), Tags: tags}, enc, pack.WriteOptions{})
			if err == nil || !strings.Contains(err.Error(), pack.RuleExtension) {
				t.Fatalf("%v %s: err = %v, want a refusal (%s)", tags, enc, err, pack.RuleExtension)
			}
		}
	}
}

// TestConvertReportsDroppedTagFile: converting a bag with a tag file the
// flat form has no place for says so (D3, D4's convert report).
func TestConvertReportsDroppedTagFile(t *testing.T) {
	t.Parallel()
	in := bagWith(t, addTag("notes.txt", "hello\n"), "notes.txt")
	out := filepath.Join(t.TempDir(), "o.taskpack.json")
	reps, err := pack.ConvertRepairs(in, out, pack.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		if r.Rule == pack.RepairTagDropped && r.Where == "notes.txt" {
			return
		}
	}
	t.Fatalf("repairs %+v: no %s for notes.txt", reps, pack.RepairTagDropped)
}
