package acts

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tp-dev/tp/model/ojson"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The JSON Schemas (draft 2020-12) of every record type (spec §3, DESIGN.md
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

// SchemaJSON returns the embedded schema for a record type ("record" for the
// envelope), for `tp acts schema` style tooling and tests.
func SchemaJSON(name string) ([]byte, error) {
	return schemaFS.ReadFile("schemas/" + name + ".json")
}

// ValidateRecord checks one record, as raw JSON, against the envelope and the
// schema of its type, and returns the type. It is applied to every record tp
// reads or writes. Refusals are *RecordError naming the schema location that
// failed. Besides the schemas it refuses what JSON Schema cannot see: a BOM,
// invalid UTF-8 and duplicate member names (a record must mean one thing to
// every reader).
func ValidateRecord(raw []byte) (recordType string, err error) {
	_, recordType, err = validateRaw(raw)
	return recordType, err
}

// validateRaw is ValidateRecord that also returns the parsed document.
func validateRaw(raw []byte) (any, string, error) {
	if _, err := ojson.ParseStrict(raw); err != nil {
		return nil, "", &RecordError{Msg: err.Error()}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, "", &RecordError{Msg: "malformed JSON: " + err.Error()}
	}
	t, err := validateDoc(doc)
	return doc, t, err
}

func validateDoc(doc any) (string, error) {
	s, err := loadSchemas()
	if err != nil {
		return "", fmt.Errorf("acts: embedded schemas: %w", err)
	}
	if err := s.envelope.Validate(doc); err != nil {
		return "", schemaError(err)
	}
	t, _ := doc.(map[string]any)["type"].(string)
	sch := s.byType[t]
	if sch == nil { // unreachable: the envelope's enum lists every type
		return "", &RecordError{Schema: "record.json#/properties/type", Instance: "/type", Msg: fmt.Sprintf("unknown record type %q", t)}
	}
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
	var r Record
	if _, err := ValidateRecord(raw); err != nil {
		return r, err
	}
	// Decode the JavaScript spelling of the value (1.0 and 1e0 read as 1).
	v, _, _ := ojson.Parse(raw)
	if err := json.Unmarshal(ojson.Compact(v), &r); err != nil {
		return r, &RecordError{Msg: err.Error()}
	}
	return r, nil
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
