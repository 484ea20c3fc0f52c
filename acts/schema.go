package acts

import (
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sanitize"
)

// The JSON Schemas (draft 2020-12) of every record type (Acts 0.3 §3,
// D8), embedded so the binary enforces the same rules wherever it runs.
// record.json is the envelope every type shares; <type>.json adds the
// requirements of that row of the §3 table.
//
//go:embed schemas/*.json
var SchemaFS embed.FS

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
	envelope *sNode
	byType   map[string]*sNode
}

var (
	schemasOnce sync.Once
	schemas     *compiledSchemas
	schemasErr  error
)

// loadSchemas compiles the embedded schemas on first use (D24).
func loadSchemas() (*compiledSchemas, error) {
	schemasOnce.Do(func() {
		entries, err := SchemaFS.ReadDir("schemas")
		if err != nil {
			schemasErr = err
			return
		}
		files := map[string][]byte{}
		for _, e := range entries {
			b, err := SchemaFS.ReadFile("schemas/" + e.Name())
			if err != nil {
				schemasErr = err
				return
			}
			files[e.Name()] = b
		}
		nodes, err := compileSchemaSet(files)
		if err != nil {
			schemasErr = err
			return
		}
		s := &compiledSchemas{envelope: nodes["record.json#"], byType: map[string]*sNode{}}
		if s.envelope == nil {
			schemasErr = fmt.Errorf("embedded schema record.json is missing")
			return
		}
		for _, t := range RecordTypes {
			if s.byType[t] = nodes[t+".json#"]; s.byType[t] == nil {
				schemasErr = fmt.Errorf("embedded schema %s.json is missing", t)
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
	_, _, recordType, err = ValidateRaw(raw)
	return recordType, err
}

// validateRaw is ValidateRecord that also returns the parsed record, as an
// ordered value (for writing it back) and decoded.
func ValidateRaw(raw []byte) (*ojson.Value, Record, string, error) {
	v, err := ojson.ParseStrict(raw)
	if err != nil {
		return nil, Record{}, "", &RecordError{Msg: err.Error()}
	}
	t, err := validateValue(v)
	if err != nil {
		return nil, Record{}, "", err
	}
	return v, RecordFromValue(v), t, nil
}

// validateValue checks an ordered value against the envelope and the
// schema of its type and returns the type.
func validateValue(v *ojson.Value) (string, error) {
	s, err := loadSchemas()
	if err != nil {
		return "", fmt.Errorf("acts: embedded schemas: %w", err)
	}
	t := v.Get("type").Text()
	sch := s.byType[t]
	st := &evalState{collect: true}
	if sch == nil {
		// Not a known type: the envelope says what is wrong.
		if s.envelope.eval(v, "", st); len(st.fails) > 0 {
			return "", schemaError(st.fails)
		}
		return "", &RecordError{Schema: "record.json#/properties/type", Instance: "/type", Msg: fmt.Sprintf("unknown record type %s", quoteString(t))}
	}
	// Each type's schema includes the envelope (allOf), so one pass checks both.
	if sch.eval(v, "", st); len(st.fails) > 0 {
		return "", schemaError(st.fails)
	}
	return t, nil
}

// schemaError names the first failure by keyword location, so the message
// is the same on every run, and counts the others.
func schemaError(fails []schemaFailure) error {
	sort.SliceStable(fails, func(i, j int) bool { return fails[i].keyword < fails[j].keyword })
	first := fails[0]
	msg := first.msg
	if len(fails) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(fails)-1)
	}
	return &RecordError{Schema: first.keyword, Instance: first.instance, Msg: msg}
}

// DecodeRecord validates raw and decodes it into a Record.
func DecodeRecord(raw []byte) (Record, error) {
	_, r, _, err := ValidateRaw(raw)
	return r, err
}

// recordFromValue fills a Record from a value the schemas accepted, so the
// types are already known to be right. Members are matched by exact name.
func RecordFromValue(v *ojson.Value) Record {
	var r Record
	for _, m := range v.Obj().Members() {
		x := m.Value
		switch m.Key {
		case "ph":
			r.PH = x.Text()
		case "ext":
			r.Ext = x.Text()
		case "id":
			r.ID = x.Text()
		case "type":
			r.Type = x.Text()
		case "origin":
			r.Origin = x.Text()
		case "by":
			r.By = x.Text()
		case "key":
			r.Key = x.Text()
		case "project":
			r.Project = x.Text()
		case "ts":
			r.TS = x.Text()
		case "reason":
			r.Reason = x.Text()
		case "outcome":
			r.Outcome = x.Text()
		case "restore_text":
			r.RestoreText = x.Text()
		case "relation":
			r.Relation = x.Text()
		case "target":
			r.Target = x.Text()
		case "note":
			r.Note = x.Text()
		case "text":
			r.Text = x.Text()
		case "context":
			r.Context = x.Text()
		case "sig":
			r.Sig = x.Text()
		case "terms_rev":
			if n, ok := x.Number(); ok {
				r.TermsRev = int(n)
			}
		case "terms":
			if x.Kind() == ojson.Object {
				r.Terms = &Terms{Text: x.Get("text").Text(), Due: x.Get("due").Text()}
			}
		case "authority":
			if x.Kind() == ojson.Object {
				r.Authority = &Authority{Kind: x.Get("kind").Text(), Decider: x.Get("decider").Text()}
			}
		case "evidence":
			if x.Kind() == ojson.Object {
				r.Evidence = &Evidence{Basis: x.Get("basis").Text()}
			}
		case "about":
			if x.Kind() == ojson.Object {
				r.About = &About{Key: x.Get("key").Text(), Quote: x.Get("quote").Text()}
			}
		case "supersedes":
			if x.Kind() == ojson.Array {
				r.Supersedes = make([]string, 0, len(x.Items()))
				for _, it := range x.Items() {
					if s, ok := it.Str(); ok {
						r.Supersedes = append(r.Supersedes, s)
					}
				}
			}
		}
	}
	return r
}

// recordValue is r as an ordered value, member for member what
// encoding/json would write for the struct (field order, omitempty), built
// without a round trip through bytes.
func recordValue(r Record) *ojson.Value {
	v := ojson.NewObject()
	o := v.Obj()
	str := func(k, s string, omitEmpty bool) {
		if s != "" || !omitEmpty {
			o.Set(k, jstr(s))
		}
	}
	str("ph", r.PH, false)
	str("ext", r.Ext, false)
	str("id", r.ID, false)
	str("type", r.Type, false)
	str("origin", r.Origin, false)
	str("by", r.By, false)
	str("key", r.Key, false)
	str("project", r.Project, false)
	str("ts", r.TS, false)
	if r.Terms != nil {
		t := ojson.NewObject()
		t.Set("text", jstr(r.Terms.Text))
		if r.Terms.Due != "" {
			t.Set("due", jstr(r.Terms.Due))
		}
		o.Set("terms", t)
	}
	if r.TermsRev != 0 {
		o.Set("terms_rev", ojson.NewInt(int64(r.TermsRev)))
	}
	if len(r.Supersedes) > 0 {
		o.Set("supersedes", jstrs(r.Supersedes))
	}
	str("reason", r.Reason, true)
	str("outcome", r.Outcome, true)
	if r.Authority != nil {
		a := ojson.NewObject()
		a.Set("kind", jstr(r.Authority.Kind))
		if r.Authority.Decider != "" {
			a.Set("decider", jstr(r.Authority.Decider))
		}
		o.Set("authority", a)
	}
	str("restore_text", r.RestoreText, true)
	if r.Evidence != nil {
		e := ojson.NewObject()
		e.Set("basis", jstr(r.Evidence.Basis))
		o.Set("evidence", e)
	}
	str("relation", r.Relation, true)
	str("target", r.Target, true)
	if r.About != nil {
		a := ojson.NewObject()
		if r.About.Key != "" {
			a.Set("key", jstr(r.About.Key))
		}
		if r.About.Quote != "" {
			a.Set("quote", jstr(r.About.Quote))
		}
		o.Set("about", a)
	}
	str("note", r.Note, true)
	str("text", r.Text, true)
	str("context", r.Context, true)
	str("sig", r.Sig, true)
	return v
}

// jstr is a string value as encoding/json would write s: each byte that is
// not part of valid UTF-8 becomes U+FFFD.
func jstr(s string) *ojson.Value {
	if utf8.ValidString(s) {
		return ojson.NewString(s)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return ojson.NewString(b.String())
}

func jstrs(ss []string) *ojson.Value {
	v := ojson.NewArray()
	for _, s := range ss {
		v.Append(jstr(s))
	}
	return v
}

// encodeRecordValue validates r as built and returns its ordered value:
// one validation, no parse.
func EncodeRecordValue(r Record) (*ojson.Value, error) {
	v := recordValue(r)
	if _, err := validateValue(v); err != nil {
		return nil, fmt.Errorf("refusing to write record %s: %w", sanitize.Line(r.ID), err)
	}
	return v, nil
}

// EncodeRecord returns r as canonical JSON (D1) after validating it, so tp
// never writes a record it would refuse to read.
func EncodeRecord(r Record) ([]byte, error) {
	v, err := EncodeRecordValue(r)
	if err != nil {
		return nil, err
	}
	return ojson.Canonical(v), nil
}
