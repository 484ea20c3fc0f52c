package acts

import (
	"bytes"
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tp-dev/tp/internal/ojson"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The JSON Schemas (draft 2020-12) of every record type (Acts 0.3 §3,
// D8), embedded so the binary enforces the same rules wherever it runs.
// record.json is the envelope every type shares; <type>.json adds the
// requirements of that row of the §3 table.
//
//go:embed schemas/*.json
var schemaFS embed.FS

// SchemaBase is the URL prefix of the embedded schemas' $id.
const SchemaBase = "https://tp-dev.github.io/schemas/acts/0.3/"

// RecordTypes lists the record types of §3, in the table's order.
var RecordTypes = []string{TypeRaised, TypeAmended, TypeWithdrawn, TypeSettled, TypeReopened, TypeClaimed, TypeRelated, TypeNote}

// ErrInvalidRecord is matched (errors.Is) by every refusal of ValidateRecord.
var ErrInvalidRecord = fmt.Errorf("invalid acts record")

// RecordError says why a record was refused: the schema location that
// failed (file#/json-pointer), the place in the record, and the message.
type RecordError struct {
	Schema   string // e.g. "settled.json#/required"; "" for JSON syntax errors
	Instance string // JSON pointer into the record, "" for the whole record
	Msg      string
}

func (e *RecordError) Error() string {
	var b strings.Builder
	if e.Schema != "" {
		b.WriteString("schema ")
		b.WriteString(e.Schema)
		b.WriteString(": ")
	}
	if e.Instance != "" {
		b.WriteString("at ")
		b.WriteString(e.Instance)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *RecordError) Is(target error) bool { return target == ErrInvalidRecord }

type compiledSchemas struct {
	envelope *jsonschema.Schema
	byType   map[string]*jsonschema.Schema
}

var (
	schemasOnce sync.Once
	schemas     *compiledSchemas
	schemasErr  error
)

func loadSchemas() (*compiledSchemas, error) {
	schemasOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		entries, err := schemaFS.ReadDir("schemas")
		if err != nil {
			schemasErr = err
			return
		}
		for _, e := range entries {
			b, err := schemaFS.ReadFile("schemas/" + e.Name())
			if err != nil {
				schemasErr = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				schemasErr = fmt.Errorf("embedded schema %s: %w", e.Name(), err)
				return
			}
			if err := c.AddResource(SchemaBase+e.Name(), doc); err != nil {
				schemasErr = err
				return
			}
		}
		s := &compiledSchemas{byType: map[string]*jsonschema.Schema{}}
		if s.envelope, schemasErr = c.Compile(SchemaBase + "record.json"); schemasErr != nil {
			return
		}
		for _, t := range RecordTypes {
			if s.byType[t], schemasErr = c.Compile(SchemaBase + t + ".json"); schemasErr != nil {
				return
			}
		}
		schemas = s
	})
	return schemas, schemasErr
}

// ValidateRecord checks one record, as raw JSON, against the envelope and the
// schema of its type, and returns the type. It is applied to every record tp
// reads or writes. Refusals are *RecordError naming the schema location that
// failed. Besides the schemas it refuses what JSON Schema cannot see: a BOM,
// invalid UTF-8 and duplicate member names (a record must mean one thing to
// every reader).
func ValidateRecord(raw []byte) (recordType string, err error) {
	_, _, recordType, err = validateRaw(raw)
	return recordType, err
}

// validateRaw is ValidateRecord that also returns the parsed record, as an
// ordered value (for writing it back) and as the generic document the schema
// saw (for decoding it without parsing again).
func validateRaw(raw []byte) (*ojson.Value, map[string]any, string, error) {
	v, err := ojson.ParseStrict(raw)
	if err != nil {
		return nil, nil, "", &RecordError{Msg: err.Error()}
	}
	doc := toAny(v)
	t, err := validateDoc(doc)
	if err != nil {
		return nil, nil, "", err
	}
	return v, doc.(map[string]any), t, nil
}

// toAny converts an ordered value into the generic form the schema
// validator reads.
func toAny(v *ojson.Value) any {
	switch v.Kind() {
	case ojson.Object:
		ms := v.Obj().Members()
		m := make(map[string]any, len(ms))
		for _, mb := range ms {
			m[mb.Key] = toAny(mb.Value)
		}
		return m
	case ojson.Array:
		items := v.Items()
		a := make([]any, len(items))
		for i, it := range items {
			a[i] = toAny(it)
		}
		return a
	case ojson.String:
		return v.Text()
	case ojson.Number:
		n, _ := v.Number()
		return n
	case ojson.Bool:
		b, _ := v.Bool()
		return b
	default:
		return nil
	}
}

func validateDoc(doc any) (string, error) {
	s, err := loadSchemas()
	if err != nil {
		return "", fmt.Errorf("acts: embedded schemas: %w", err)
	}
	t, _ := func() (string, bool) {
		m, ok := doc.(map[string]any)
		if !ok {
			return "", false
		}
		t, ok := m["type"].(string)
		return t, ok
	}()
	sch := s.byType[t]
	if sch == nil {
		// Not a known type: the envelope says what is wrong.
		if err := s.envelope.Validate(doc); err != nil {
			return "", schemaError(err)
		}
		return "", &RecordError{Schema: "record.json#/properties/type", Instance: "/type", Msg: fmt.Sprintf("unknown record type %q", t)}
	}
	// Each type's schema includes the envelope (allOf), so one pass checks both.
	if err := sch.Validate(doc); err != nil {
		return "", schemaError(err)
	}
	return t, nil
}

// schemaError turns a jsonschema error into a RecordError for the first
// leaf cause (deepest, most specific), ordered so the message is stable.
func schemaError(err error) error {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return &RecordError{Msg: err.Error()}
	}
	var leaves []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.SliceStable(leaves, func(i, j int) bool {
		return keywordLocation(leaves[i]) < keywordLocation(leaves[j])
	})
	first := leaves[0]
	msg := first.ErrorKind.LocalizedString(printer)
	if len(leaves) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(leaves)-1)
	}
	inst := ""
	if len(first.InstanceLocation) > 0 {
		inst = "/" + strings.Join(first.InstanceLocation, "/")
	}
	return &RecordError{Schema: keywordLocation(first), Instance: inst, Msg: msg}
}

var printer = message.NewPrinter(language.English)

func keywordLocation(e *jsonschema.ValidationError) string {
	loc := strings.TrimPrefix(e.SchemaURL, SchemaBase)
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		loc += "/" + strings.Join(kp, "/")
	}
	return loc
}

// DecodeRecord validates raw and decodes it into a Record.
func DecodeRecord(raw []byte) (Record, error) {
	_, doc, _, err := validateRaw(raw)
	if err != nil {
		return Record{}, err
	}
	return recordFromDoc(doc), nil
}

// recordFromDoc fills a Record from a document the schema accepted, so the
// types are already known to be right.
func recordFromDoc(m map[string]any) Record {
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	obj := func(m map[string]any, k string) map[string]any { o, _ := m[k].(map[string]any); return o }
	r := Record{
		PH: str(m, "ph"), Ext: str(m, "ext"), ID: str(m, "id"), Type: str(m, "type"),
		Origin: str(m, "origin"), By: str(m, "by"), Key: str(m, "key"), Project: str(m, "project"),
		TS: str(m, "ts"), Reason: str(m, "reason"), Outcome: str(m, "outcome"),
		RestoreText: str(m, "restore_text"), Relation: str(m, "relation"), Target: str(m, "target"),
		Note: str(m, "note"), Text: str(m, "text"), Context: str(m, "context"), Sig: str(m, "sig"),
	}
	if n, ok := m["terms_rev"].(float64); ok {
		r.TermsRev = int(n)
	}
	if t := obj(m, "terms"); t != nil {
		r.Terms = &Terms{Text: str(t, "text"), Due: str(t, "due")}
	}
	if a := obj(m, "authority"); a != nil {
		r.Authority = &Authority{Kind: str(a, "kind"), Decider: str(a, "decider")}
	}
	if e := obj(m, "evidence"); e != nil {
		r.Evidence = &Evidence{Basis: str(e, "basis")}
	}
	if a := obj(m, "about"); a != nil {
		r.About = &About{Key: str(a, "key"), Quote: str(a, "quote")}
	}
	if ss, ok := m["supersedes"].([]any); ok {
		r.Supersedes = make([]string, 0, len(ss))
		for _, s := range ss {
			if s, ok := s.(string); ok {
				r.Supersedes = append(r.Supersedes, s)
			}
		}
	}
	return r
}

// EncodeRecord returns r as canonical JSON (D1) after validating it, so tp
// never writes a record it would refuse to read.
func EncodeRecord(r Record) ([]byte, error) {
	b, err := ojson.MarshalCanonical(r)
	if err != nil {
		return nil, err
	}
	if _, err := ValidateRecord(b); err != nil {
		return nil, fmt.Errorf("refusing to write record %s: %w", r.ID, err)
	}
	return b, nil
}
