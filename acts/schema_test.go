package acts

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/tp-dev/tp/internal/ojson"
)

// base returns a valid record of type t as an ordered JSON object that a
// test case then edits.
func base(t string) *ojson.Value {
	v, _ := ojson.ParseStrict([]byte(`{"ph":"0.3","ext":"acts/0.3","id":"x-1","type":"` + t + `","origin":"requester","by":"registrar:garden","key":"task-garden-5a491eabbf","project":"garden","ts":"2026-11-02T09:00:00Z"}`))
	set := func(k, js string) {
		x, err := ojson.ParseStrict([]byte(js))
		if err != nil {
			panic(err)
		}
		v.Set(k, x)
	}
	switch t {
	case TypeRaised:
		set("terms", `{"text":"Collect the shed key"}`)
		set("terms_rev", `1`)
	case TypeAmended:
		set("terms", `{"text":"Collect the shed keys"}`)
		set("terms_rev", `2`)
		set("supersedes", `["r:task-garden-5a491eabbf"]`)
	case TypeWithdrawn:
		set("reason", `"not_needed"`)
		set("supersedes", `["r:task-garden-5a491eabbf"]`)
	case TypeSettled:
		set("origin", `"principal"`)
		set("outcome", `"done"`)
		set("authority", `{"kind":"principal","decider":"p:owner"}`)
		set("terms_rev", `1`)
	case TypeReopened:
		set("origin", `"principal"`)
		set("supersedes", `["s-1"]`)
		set("restore_text", `"Collect the shed key"`)
	case TypeClaimed:
		set("origin", `"agent"`)
		set("outcome", `"done"`)
		set("evidence", `{"basis":"the principal said so"}`)
	case TypeRelated:
		set("origin", `"principal"`)
		set("relation", `"same_as"`)
		set("target", `"task-garden-0000000000"`)
	case TypeNote:
		set("origin", `"principal"`)
		set("about", `{"quote":"called the registrar"}`)
		set("text", `"Called them."`)
	}
	return v
}

func TestValidateRecordAcceptsEveryType(t *testing.T) {
	t.Parallel()
	for _, typ := range RecordTypes {
		got, err := ValidateRecord(ojson.Canonical(base(typ)))
		if err != nil || got != typ {
			t.Errorf("%s: got %q, %v", typ, got, err)
		}
	}
}

func TestValidateRecordRefuses(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		typ    string
		edit   func(v *ojson.Value)
		schema string // expected failing schema location (prefix)
	}{
		{"wrong ph", TypeRaised, func(v *ojson.Value) { v.Set("ph", ojson.NewString("0.2")) }, "record.json#/properties/ph"},
		{"wrong ext", TypeRaised, func(v *ojson.Value) { v.Set("ext", ojson.NewString("tasks/0.2")) }, "record.json#/properties/ext"},
		{"unknown type", TypeRaised, func(v *ojson.Value) { v.Set("type", ojson.NewString("done")) }, "record.json#/properties/type"},
		{"missing id", TypeRaised, func(v *ojson.Value) { v.Obj().Delete("id") }, "record.json#/required"},
		{"missing ts", TypeRaised, func(v *ojson.Value) { v.Obj().Delete("ts") }, "record.json#/required"},
		{"bad ts", TypeRaised, func(v *ojson.Value) { v.Set("ts", ojson.NewString("yesterday")) }, "record.json#/properties/ts"},
		{"key with space", TypeRaised, func(v *ojson.Value) { v.Set("key", ojson.NewString("task garden")) }, "record.json#/$defs/key"},
		{"key with colon", TypeRaised, func(v *ojson.Value) { v.Set("key", ojson.NewString("r:task")) }, "record.json#/$defs/key"},
		{"key starting with dash", TypeRaised, func(v *ojson.Value) { v.Set("key", ojson.NewString("-task")) }, "record.json#/$defs/key"},
		{"key too long", TypeRaised, func(v *ojson.Value) { v.Set("key", ojson.NewString(strings.Repeat("a", 129))) }, "record.json#/$defs/key"},
		{"empty key", TypeRaised, func(v *ojson.Value) { v.Set("key", ojson.NewString("")) }, "record.json#/$defs/key"},
		{"non-ascii key", TypeRaised, func(v *ojson.Value) { v.Set("key", ojson.NewString("任務")) }, "record.json#/$defs/key"},
		{"raised by principal", TypeRaised, func(v *ojson.Value) { v.Set("origin", ojson.NewString("principal")) }, "raised.json#/properties/origin"},
		{"raised at rev 2", TypeRaised, func(v *ojson.Value) { v.Set("terms_rev", ojson.NewInt(2)) }, "raised.json#/properties/terms_rev"},
		{"raised without terms", TypeRaised, func(v *ojson.Value) { v.Obj().Delete("terms") }, "raised.json#/required"},
		{"raised with two-line text", TypeRaised, func(v *ojson.Value) { v.Get("terms").Set("text", ojson.NewString("a\nb")) }, "record.json#/$defs/line"},
		{"raised with empty text", TypeRaised, func(v *ojson.Value) { v.Get("terms").Set("text", ojson.NewString("")) }, "record.json#/$defs/line"},
		{"raised with bad due", TypeRaised, func(v *ojson.Value) { v.Get("terms").Set("due", ojson.NewString("2026-13-45")) }, "record.json#/$defs/terms/properties/due"},
		{"amended without supersedes", TypeAmended, func(v *ojson.Value) { v.Obj().Delete("supersedes") }, "amended.json#/required"},
		{"amended with empty supersedes", TypeAmended, func(v *ojson.Value) { v.Set("supersedes", ojson.NewArray()) }, "record.json#/$defs/need_supersedes"},
		{"amended at rev 1", TypeAmended, func(v *ojson.Value) { v.Set("terms_rev", ojson.NewInt(1)) }, "amended.json#/properties/terms_rev"},
		{"amended with fractional rev", TypeAmended, func(v *ojson.Value) { v.Set("terms_rev", ojson.NewNumber(2.5)) }, "record.json#/$defs/terms_rev"},
		{"withdrawn without reason", TypeWithdrawn, func(v *ojson.Value) { v.Obj().Delete("reason") }, "withdrawn.json#/required"},
		{"withdrawn for another reason", TypeWithdrawn, func(v *ojson.Value) { v.Set("reason", ojson.NewString("done")) }, "withdrawn.json#/properties/reason"},
		{"settled without authority", TypeSettled, func(v *ojson.Value) { v.Obj().Delete("authority") }, "settled.json#/required"},
		{"settled without terms_rev", TypeSettled, func(v *ojson.Value) { v.Obj().Delete("terms_rev") }, "settled.json#/required"},
		{"settled by an agent", TypeSettled, func(v *ojson.Value) { v.Set("origin", ojson.NewString("agent")) }, "settled.json#/properties/origin"},
		{"settled with claim outcome", TypeSettled, func(v *ojson.Value) { v.Set("outcome", ojson.NewString("finished")) }, "settled.json#/properties/outcome"},
		{"settled with unknown authority", TypeSettled, func(v *ojson.Value) { v.Get("authority").Set("kind", ojson.NewString("agent")) }, "record.json#/$defs/authority"},
		{"reopened without restore_text", TypeReopened, func(v *ojson.Value) { v.Obj().Delete("restore_text") }, "reopened.json#/required"},
		{"reopened without supersedes", TypeReopened, func(v *ojson.Value) { v.Obj().Delete("supersedes") }, "reopened.json#/required"},
		{"reopened by requester", TypeReopened, func(v *ojson.Value) { v.Set("origin", ojson.NewString("requester")) }, "reopened.json#/properties/origin"},
		{"claimed without evidence", TypeClaimed, func(v *ojson.Value) { v.Obj().Delete("evidence") }, "claimed.json#/required"},
		{"claimed without basis", TypeClaimed, func(v *ojson.Value) { v.Set("evidence", ojson.NewObject()) }, "claimed.json#/properties/evidence"},
		{"claimed already_done", TypeClaimed, func(v *ojson.Value) { v.Set("outcome", ojson.NewString("already_done")) }, "claimed.json#/properties/outcome"},
		{"claimed by principal", TypeClaimed, func(v *ojson.Value) { v.Set("origin", ojson.NewString("principal")) }, "claimed.json#/properties/origin"},
		{"same_as from requester", TypeRelated, func(v *ojson.Value) { v.Set("origin", ojson.NewString("requester")) }, "related.json#/then"},
		{"derived_from from principal", TypeRelated, func(v *ojson.Value) { v.Set("relation", ojson.NewString("derived_from")) }, "related.json#/else"},
		{"related without relation", TypeRelated, func(v *ojson.Value) { v.Obj().Delete("relation") }, "related.json#/required"},
		{"note without about", TypeNote, func(v *ojson.Value) { v.Obj().Delete("about") }, "note.json#/required"},
		{"id with newline", TypeNote, func(v *ojson.Value) { v.Set("id", ojson.NewString("n\n1")) }, "record.json#/$defs/id"},
		{"project with slash", TypeNote, func(v *ojson.Value) { v.Set("project", ojson.NewString("../etc")) }, "record.json#/$defs/project"},
		{"not an object", TypeNote, func(v *ojson.Value) { v.SetItems(nil) }, "record.json#/type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := base(c.typ)
			c.edit(v)
			typ, err := ValidateRecord(ojson.Canonical(v))
			if err == nil {
				t.Fatalf("accepted as %q", typ)
			}
			if !errors.Is(err, ErrInvalidRecord) {
				t.Fatalf("error %v is not ErrInvalidRecord", err)
			}
			var re *RecordError
			if !errors.As(err, &re) || !strings.HasPrefix(re.Schema, c.schema) {
				t.Fatalf("failed at %q, want %q (%v)", re.Schema, c.schema, err)
			}
		})
	}
}

func TestValidateRecordRefusesAmbiguousJSON(t *testing.T) {
	t.Parallel()
	good := string(ojson.Canonical(base(TypeRaised)))
	for name, raw := range map[string]string{
		"duplicate member": strings.Replace(good, `"ph": "0.3",`, `"ph": "0.3", "ph": "0.3",`, 1),
		"BOM":              "\xEF\xBB\xBF" + good,
		"invalid UTF-8":    strings.Replace(good, "Collect", "Coll\xffect", 1),
		"truncated":        good[:len(good)/2],
		"trailing garbage": good + "{}",
		"empty":            "",
	} {
		if _, err := ValidateRecord([]byte(raw)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestValidateRecordKeepsUnknownFields(t *testing.T) {
	t.Parallel()
	v := base(TypeSettled)
	v.Set("x-vendor", ojson.NewString("kept"))
	if _, err := ValidateRecord(ojson.Canonical(v)); err != nil {
		t.Fatal(err)
	}
}

func TestEncodeRecordRefusesInvalid(t *testing.T) {
	t.Parallel()
	r := Record{PH: "0.3", Ext: "acts/0.3", ID: "s-1", Type: TypeSettled, Origin: "principal", By: "ps:tp", Key: "k", Project: "p", TS: "2026-11-02T09:00:00Z", Outcome: "done", TermsRev: 1}
	if _, err := EncodeRecord(r); err == nil {
		t.Fatal("settled without authority was encoded")
	}
	r.Authority = &Authority{Kind: "principal", Decider: "p:owner"}
	b, err := EncodeRecord(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeRecord(b)
	if err != nil || Fingerprint(back) != Fingerprint(r) {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

func FuzzValidateRecord(f *testing.F) {
	for _, typ := range RecordTypes {
		f.Add(ojson.Canonical(base(typ)))
	}
	f.Add([]byte(`{"ph":"0.3"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		typ, err := ValidateRecord(raw)
		if err != nil {
			return
		}
		// Whatever validates must decode, re-encode and validate as the same type.
		r, err := DecodeRecord(raw)
		if err != nil {
			t.Fatalf("validated but does not decode: %v", err)
		}
		if r.Type != typ {
			t.Fatalf("type %q vs %q", r.Type, typ)
		}
	})
}

// The ts and terms.due formats are asserted (RFC 3339 date-time and
// full-date, calendar included), not just annotated: a validator that only
// records "format" (as JSON Schema 2020-12 allows) would accept every
// refused row here, so any replacement of the validator must keep this
// table green.
func TestValidateRecordAssertsFormats(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field, value string
		ok           bool
	}{
		{"ts", "2026-02-28T09:00:00Z", true},
		{"ts", "2028-02-29T09:00:00Z", true},                // leap year
		{"ts", "2026-11-02T09:00:00.123456789+01:00", true}, // fraction and offset
		{"ts", "2026-11-02t09:00:00z", true},                // RFC 3339 §5.6: T and Z are case-insensitive
		{"ts", "2026-12-31T23:59:60Z", true},                // a leap second is a valid RFC 3339 time
		{"ts", "2026-02-29T09:00:00Z", false},
		{"ts", "2026-02-30T09:00:00Z", false},
		{"ts", "2026-11-02 09:00:00Z", false},
		{"ts", "2026-11-02T09:00:00", false}, // no offset
		{"ts", "2026-11-02T24:00:00Z", false},
		{"ts", "2026-11-02T09:00:00+25:00", false},
		{"ts", "2026-11-02T09:00Z", false},
		{"ts", "2026-11-02", false},
		{"ts", "yesterday", false},
		{"due", "2026-02-28", true},
		{"due", "2000-02-29", true},
		{"due", "2026-02-29", false},
		{"due", "2100-02-29", false}, // not a leap year
		{"due", "2026-04-31", false},
		{"due", "2026-00-10", false},
		{"due", "2026-12-00", false},
		{"due", "2026-13-45", false}, // matches the schema's pattern: only the format refuses it
	}
	for _, c := range cases {
		t.Run(c.field+"="+c.value, func(t *testing.T) {
			v := base(TypeRaised)
			schema, inst := "record.json#/properties/ts/format", "/ts"
			if c.field == "due" {
				v.Get("terms").Set("due", ojson.NewString(c.value))
				schema, inst = "record.json#/$defs/terms/properties/due/format", "/terms/due"
			} else {
				v.Set("ts", ojson.NewString(c.value))
			}
			_, err := ValidateRecord(ojson.Canonical(v))
			if c.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("accepted (or not a RecordError: %v)", err)
			}
			if re.Schema != schema || re.Instance != inst {
				t.Fatalf("failed at schema %q instance %q, want %q %q (%v)", re.Schema, re.Instance, schema, inst, err)
			}
		})
	}
}

// A record with several faults is refused with one line that names the
// same one of them every time (the first by schema location) and counts
// the rest, so messages, logs and goldens do not change from run to run.
func TestValidateRecordNamesOneFailureStably(t *testing.T) {
	t.Parallel()
	v := base(TypeSettled)
	v.Set("ts", ojson.NewString("soon"))
	v.Set("key", ojson.NewString("a b"))
	v.Set("outcome", ojson.NewString("finished"))
	raw := ojson.Canonical(v)
	_, err := ValidateRecord(raw)
	var re *RecordError
	if !errors.As(err, &re) {
		t.Fatalf("not refused with a RecordError: %v", err)
	}
	if re.Schema != "record.json#/$defs/key/pattern" || re.Instance != "/key" || !strings.HasSuffix(re.Msg, "(and 2 more)") {
		t.Fatalf("got %q", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") {
		t.Fatalf("message is not one line: %q", msg)
	}
	for i := 0; i < 50; i++ {
		if _, again := ValidateRecord(raw); again == nil || again.Error() != err.Error() {
			t.Fatalf("run %d: %v, first run: %v", i, again, err)
		}
	}
}

// A refusal quotes the record's value; it stays one line (and writes no
// terminal control sequence) whatever the value holds.
func TestRecordErrorIsOneLine(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"a\nb", "\x1b[2Jdone", "x\u2028y\u0085", "a\rb"} {
		v := base(TypeRaised)
		v.Set("key", ojson.NewString(bad))
		_, err := ValidateRecord(ojson.Canonical(v))
		var re *RecordError
		if !errors.As(err, &re) || re.Instance != "/key" {
			t.Fatalf("%q: %v", bad, err)
		}
		if msg := err.Error(); strings.ContainsFunc(msg, unicode.IsControl) || strings.ContainsAny(msg, "\u2028\u2029") {
			t.Errorf("%q: message has control characters or line breaks: %q", bad, msg)
		}
	}
}
