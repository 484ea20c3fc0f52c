package acts

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	gjs "github.com/google/jsonschema-go/jsonschema"
	"github.com/tp-dev/tp/internal/ojson"
)

// The evaluator refuses to compile a schema that holds a keyword or format
// it does not evaluate (D24): an edit to schemas/*.json that needs more of
// JSON Schema fails here instead of being ignored.
func TestSchemaEvaluatorRefusesWhatItDoesNotEvaluate(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"additionalProperties": `{"$id":"` + SchemaBase + `x.json","additionalProperties":false}`,
		"maxItems":             `{"$id":"` + SchemaBase + `x.json","properties":{"a":{"maxItems":2}}}`,
		"anyOf":                `{"$id":"` + SchemaBase + `x.json","anyOf":[{}]}`,
		"format email":         `{"$id":"` + SchemaBase + `x.json","format":"email"}`,
		"type number":          `{"$id":"` + SchemaBase + `x.json","type":"number"}`,
		"dangling $ref":        `{"$id":"` + SchemaBase + `x.json","$ref":"#/$defs/none"}`,
		"wrong $id":            `{"$id":"` + SchemaBase + `y.json"}`,
		"bad pattern":          `{"$id":"` + SchemaBase + `x.json","pattern":"("}`,
	} {
		if _, err := compileSchemaSet(map[string][]byte{"x.json": []byte(doc)}); err == nil {
			t.Errorf("%s: compiled", name)
		}
	}
}

// The embedded schemas compile under the evaluator's rules.
func TestEmbeddedSchemasCompile(t *testing.T) {
	t.Parallel()
	if _, err := loadSchemas(); err != nil {
		t.Fatal(err)
	}
}

// recordValue writes what encoding/json writes for a Record (member order,
// omitempty, invalid UTF-8 replaced), so records keep their bytes now that
// they are built without the round trip.
func TestRecordValueIsEncodingJSONsRecord(t *testing.T) {
	t.Parallel()
	full := Record{PH: "0.3", Ext: "acts/0.3", ID: "x-1", Type: TypeSettled, Origin: "principal", By: "p", Key: "k", Project: "p",
		TS: "2026-11-02T09:00:00Z", Terms: &Terms{Text: "t", Due: "2026-12-01"}, TermsRev: 3, Supersedes: []string{"a", "b"},
		Reason: "not_needed", Outcome: "done", Authority: &Authority{Kind: "principal", Decider: "d"}, RestoreText: "r",
		Evidence: &Evidence{Basis: "b"}, Relation: "same_as", Target: "t2", About: &About{Key: "k", Quote: "q"},
		Note: "n", Text: "x", Context: "migration", Sig: "sig"}
	cases := map[string]Record{
		"empty":              {},
		"full":               full,
		"empty nested":       {Terms: &Terms{}, Authority: &Authority{}, Evidence: &Evidence{}, About: &About{}, Supersedes: []string{}},
		"invalid UTF-8":      {ID: "a\xffb\xc3", Terms: &Terms{Text: "\xe2\x82"}, Supersedes: []string{"\x80"}},
		"html and controls":  {ID: "<a>&\u2028\x01\"\\", Note: "\t\n"},
		"negative terms_rev": {TermsRev: -2},
	}
	for name, r := range cases {
		want, err := ojson.MarshalCanonical(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := ojson.Canonical(recordValue(r)); string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// toAny converts an ordered value into the generic form
// google/jsonschema-go reads.
func toAny(v *ojson.Value) any {
	var x any
	if err := json.Unmarshal(ojson.Compact(v), &x); err != nil {
		panic(err)
	}
	return x
}

// googleSchemas resolves the embedded schemas with google/jsonschema-go
// (linked already through the MCP SDK), a second, independent reading of
// the same rules.
func googleSchemas(t testing.TB) map[string]*gjs.Resolved {
	t.Helper()
	load := func(name string) (*gjs.Schema, error) {
		b, err := SchemaFS.ReadFile("schemas/" + name)
		if err != nil {
			return nil, err
		}
		var s gjs.Schema
		return &s, json.Unmarshal(b, &s)
	}
	loader := func(u *url.URL) (*gjs.Schema, error) {
		return load(strings.TrimPrefix(u.String(), SchemaBase))
	}
	out := map[string]*gjs.Resolved{}
	for _, typ := range append([]string{"record"}, RecordTypes...) {
		s, err := load(typ + ".json")
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Resolve(&gjs.ResolveOptions{Loader: loader})
		if err != nil {
			t.Fatal(err)
		}
		out[typ] = r
	}
	return out
}

// googleVerdict is google/jsonschema-go's verdict plus the two formats it
// only annotates, checked beside it.
func googleVerdict(g map[string]*gjs.Resolved, v *ojson.Value) error {
	typ := v.Get("type").Text()
	r := g[typ]
	if r == nil {
		r = g["record"]
	}
	if err := r.Validate(toAny(v)); err != nil {
		return err
	}
	if g[typ] == nil {
		return fmt.Errorf("unknown type")
	}
	if ts, ok := v.Get("ts").Str(); ok && !isDateTime(ts) {
		return fmt.Errorf("ts format")
	}
	if due, ok := v.Get("terms").Get("due").Str(); ok && v.Get("terms").Kind() == ojson.Object && !isFullDate(due) {
		return fmt.Errorf("due format")
	}
	return nil
}

// Differential: every record of the refusal and format tables, every type's
// base record and a set of single edits of them get the same verdict from
// tp's evaluator and from google/jsonschema-go.
func TestSchemaEvaluatorAgreesWithGoogleJSONSchema(t *testing.T) {
	t.Parallel()
	g := googleSchemas(t)
	values := []*ojson.Value{}
	edits := map[string][]string{
		"ph": {`"0.3"`, `"0.2"`, `3`}, "type": {`"raised"`, `"nope"`, `null`}, "origin": {`"agent"`, `"delegate"`, `"x"`},
		"id": {`""`, `"a\u0001"`, `"` + strings.Repeat("i", 513) + `"`}, "key": {`"a b"`, `"ok.key"`, `7`},
		"project": {`"a/b"`, `""`, `"x"`}, "ts": {`"2026-11-02T09:00:00Z"`, `5`},
		"terms":     {`{}`, `{"text":"a"}`, `{"text":"a\nb"}`, `"x"`, `{"text":"a","due":"2026-1-1"}`},
		"terms_rev": {`0`, `1`, `2`, `2.5`, `"1"`}, "supersedes": {`[]`, `["a","a"]`, `["a"]`, `[1]`, `"a"`},
		"authority": {`{}`, `{"kind":"attested"}`, `{"kind":"principal","decider":""}`},
		"outcome":   {`"done"`, `"dropped"`, `"already_done"`, `"x"`}, "evidence": {`{}`, `{"basis":""}`, `{"basis":"b"}`, `[]`},
		"relation": {`"same_as"`, `"derived_from"`, `"x"`}, "target": {`"k"`, `"a b"`}, "about": {`{}`, `[]`},
		"restore_text": {`"r"`, `""`, `"a\rb"`}, "reason": {`"not_needed"`, `"x"`}, "sig": {`""`, `"s"`},
		"note": {`1`, `"n"`}, "context": {`{}`, `"c"`}, "x-vendor": {`{"any":1}`},
	}
	for _, typ := range RecordTypes {
		values = append(values, base(typ))
		for k, alts := range edits {
			for _, js := range alts {
				v := base(typ)
				x, err := ojson.ParseStrict([]byte(js))
				if err != nil {
					t.Fatal(js, err)
				}
				v.Set(k, x)
				values = append(values, v)
			}
			v := base(typ)
			v.Obj().Delete(k)
			values = append(values, v)
		}
	}
	values = append(values, ojson.NewArray(), ojson.NewString("x"), ojson.NewObject())
	refused := 0
	for _, v := range values {
		_, ours := validateValue(v)
		theirs := googleVerdict(g, v)
		if (ours == nil) != (theirs == nil) {
			t.Errorf("%s: tp says %v, google/jsonschema-go says %v", ojson.Compact(v), ours, theirs)
		}
		if ours != nil {
			refused++
		}
	}
	if refused == 0 || refused == len(values) {
		t.Fatalf("%d of %d refused: the corpus does not tell the two apart", refused, len(values))
	}
}

func FuzzSchemaEvaluatorAgreesWithGoogleJSONSchema(f *testing.F) {
	for _, typ := range RecordTypes {
		f.Add(ojson.Canonical(base(typ)))
	}
	f.Add([]byte(`{"ph":"0.3","type":"note"}`))
	g := googleSchemas(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := ojson.ParseStrict(raw)
		if err != nil {
			return
		}
		_, ours := validateValue(v)
		theirs := googleVerdict(g, v)
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("tp says %v, google/jsonschema-go says %v", ours, theirs)
		}
	})
}

func BenchmarkEncodeRecord(b *testing.B) {
	r := Record{PH: "0.3", Ext: "acts/0.3", ID: "s-1", Type: TypeSettled, Origin: "principal", By: "ps:tp", Key: "k", Project: "p",
		TS: "2026-11-02T09:00:00Z", Outcome: "done", TermsRev: 1, Authority: &Authority{Kind: "principal", Decider: "p:owner"}}
	for b.Loop() {
		if _, err := EncodeRecord(r); err != nil {
			b.Fatal(err)
		}
	}
}
