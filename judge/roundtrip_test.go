package judge

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// TestReferenceFixturesConvert: each reference pack converts into the other
// encoding with the same payload byte for byte (data/passport.json and every
// luggage file), both ways, and the result matches the reference's own file
// in that encoding (tag files and note_to_reader are each writer's own).
func TestReferenceFixturesConvert(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"handoff", "binary-luggage"} {
		bag := "../pack/testdata/ref/" + name + ".taskpack"
		flat := bag + ".json"
		bagObj, bagFiles, bagOrder := payloadOf(t, bag)
		raw, _ := io.ReadAll(packtest.MustZipEntry(t, bag, "data/passport.json"))
		if !bytes.Equal(raw, bagObj) {
			t.Fatalf("%s: Pack.Raw is not data/passport.json as written", bag)
		}

		toFlat := filepath.Join(dir, name+".taskpack.json")
		if err := pack.Convert(bag, toFlat, pack.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		obj, files, order := payloadOf(t, toFlat)
		if !bytes.Equal(obj, bagObj) || !packtest.EqualFiles(files, bagFiles) || strings.Join(order, "|") != strings.Join(bagOrder, "|") {
			t.Errorf("%s → flat: payload differs", bag)
		}
		// Same as the reference's own flat file but for note_to_reader.
		ours, _ := os.ReadFile(toFlat)
		theirs, _ := os.ReadFile(flat)
		if !bytes.Equal(packtest.WithoutNote(t, ours), packtest.WithoutNote(t, theirs)) {
			t.Errorf("%s → flat differs from %s beyond note_to_reader", bag, flat)
		}

		toBag := filepath.Join(dir, name+".taskpack")
		if err := pack.Convert(flat, toBag, pack.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		obj2, files2, _ := payloadOf(t, toBag)
		if !bytes.Equal(obj2, bagObj) || !packtest.EqualFiles(files2, bagFiles) {
			t.Errorf("%s → bag: payload differs from %s", flat, bag)
		}
		for _, f := range []string{toBag, toFlat} {
			r, err := Conformance(f, pack.Options{})
			if err != nil || !r.Conformant {
				t.Errorf("%s: not conformant %v %v", f, err, failing(r))
			}
		}
		// And back again: bag → flat → bag is a fixed point.
		again := filepath.Join(dir, name+".again.taskpack")
		if err := pack.Convert(toFlat, again, pack.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(again)
		b, _ := os.ReadFile(toBag)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: converting twice is not stable", name)
		}
	}
}

// TestFlatWithoutAttachments: a flat file may leave attachments out or set
// it to null; either way it carries no luggage and is conformant.
func TestFlatWithoutAttachments(t *testing.T) {
	t.Parallel()
	full := packtest.FlatOf(t, packtest.RefObject(t))
	v, _ := ojson.ParseStrict(full)
	v.Set("attachments", ojson.NewNull())
	withNull := ojson.Canonical(v)
	v.Obj().Delete("attachments")
	without := ojson.Canonical(v)
	for name, b := range map[string][]byte{"null": withNull, "absent": without} {
		path := packtest.WriteTemp(t, name+".taskpack.json", b)
		r, err := Conformance(path, pack.Options{})
		if err != nil || !r.Conformant {
			t.Errorf("%s: %v %v", name, err, failing(r))
		}
	}
}
