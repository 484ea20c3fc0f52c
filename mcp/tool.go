package mcp

import (
	"bytes"
	"context"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sanitize"
)

// addTool registers a typed tool: every call's arguments are validated
// against the input schema (unknown members, wrong types and missing
// required members are refused, named) and decoded into In; the result is
// fn's Out as JSON, labelled, in the structured content and as text.
//
// schema is the input schema as JSON when it must be exactly the
// reference's (task-passport 0.3.0's seven tools) or say what a Go type
// cannot (an enum); "" infers it from In, as the SDK would, each property
// described by its jsonschema tag. The output schema names
// the result's top-level members and their JSON types (nested documents —
// a state, a plan — are objects an agent reads as the description says);
// every result carries data_notice (TaskPack 0.1 §4.5).
//
// The tool is registered with the SDK's untyped AddTool and its arguments
// checked here (arguments.check), against the same schema tools/list
// sends: the SDK's typed AddTool decodes the arguments into a map,
// validates it, encodes it and decodes it again into In, and decodes the
// result again to check it against the output schema, a fixed cost per
// call larger than most tools' own work (BENCHMARKS.md, "The agent's
// end"). That every result matches its output schema is the tests' check
// (every call a test makes is checked, inmem_test.go), not each call's.
func addTool[In, Out any](s *Server, name, desc string, h hints, schema string, fn func(context.Context, In) (Out, error)) {
	f := false
	destructive := h.destructive
	tool := &sdk.Tool{
		Name:         name,
		Description:  desc,
		OutputSchema: outputSchema(reflect.TypeFor[Out]()),
		Annotations: &sdk.ToolAnnotations{
			ReadOnlyHint:    h.readOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  h.idempotent,
			OpenWorldHint:   &f,
		},
	}
	if schema == "" {
		// Inferred from In, each property described by its jsonschema
		// tag, and kept as JSON: tools/list then copies bytes instead of
		// marshalling a schema value on every answer.
		inferred, err := jsonschema.For[In](nil)
		if err != nil {
			panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
		}
		b, err := json.Marshal(inferred)
		if err != nil {
			panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
		}
		schema = string(b)
	}
	tool.InputSchema = json.RawMessage(schema)
	args := newArguments(name, schema)
	s.srv.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			// A bug in one tool is that call's error, not the server's end.
			if r := recover(); r != nil {
				fmt.Fprintf(s.cfg.Log, "tp mcp: %s panicked: %v\n", name, r)
				res, err = failed(toolFailed{fmt.Errorf("%s failed inside tp (a bug): %v", name, r)}), nil
			}
		}()
		var in In
		if err := args.check(req.Params.Arguments, &in); err != nil {
			return failed(err), nil
		}
		ctx = context.WithValue(ctx, sessionKey{}, req.Session)
		if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
			ctx = context.WithValue(ctx, progressKey{}, progressFunc(func(progress, total float64, msg string) {
				// A client that went away is not this call's failure.
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
					ProgressToken: tok, Progress: progress, Total: total, Message: sanitize.Line(msg)})
			}))
		}
		out, err := fn(ctx, in)
		if err != nil {
			return failed(toolFailed{err}), nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return failed(toolFailed{err}), nil
		}
		b = labelled(b)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
	})
	s.tools = append(s.tools, tool)
}

// failed is a call's failure as the SDK's typed tools return one: an
// isError result holding err, which errorResults gives its shape.
func failed(err error) *sdk.CallToolResult {
	var res sdk.CallToolResult
	res.SetError(err)
	return &res
}

// arguments is one tool's input schema, resolved once.
type arguments struct{ schema *jsonschema.Resolved }

func newArguments(name, schema string) arguments {
	var sch jsonschema.Schema
	if err := json.Unmarshal([]byte(schema), &sch); err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
	}
	var doc any
	_ = json.Unmarshal([]byte(schema), &doc)
	if hasDefault(doc) {
		// check validates and does not fill in defaults: a schema that
		// promised one would lie.
		panic(fmt.Sprintf("tool %s: input schema: a default would not be applied", name))
	}
	resolved, err := sch.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
	}
	return arguments{resolved}
}

// hasDefault reports whether a schema (as decoded JSON) gives a default
// anywhere: a "default" member of a schema object, not a property of that
// name.
func hasDefault(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, sub := range v {
			switch {
			case k == "default":
				return true
			case k == "properties" || k == "$defs" || k == "patternProperties":
				if m, ok := sub.(map[string]any); ok {
					for _, p := range m {
						if hasDefault(p) {
							return true
						}
					}
				}
			case hasDefault(sub):
				return true
			}
		}
	case []any:
		for _, sub := range v {
			if hasDefault(sub) {
				return true
			}
		}
	}
	return false
}

// check validates a call's arguments against the schema and decodes them
// into in, as the SDK's typed tools do (a refusal reads as theirs:
// validating "arguments": …), decoding each once: into a map to validate,
// then the same bytes into in, exact member names only (the decoder and the
// rule the SDK uses), so a member the schema did not check cannot reach in
// by another spelling.
func (a arguments) check(raw json.RawMessage, in any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	var v any
	if err := decodeExact(raw, &v); err != nil {
		return fmt.Errorf("validating \"arguments\": unmarshaling arguments: %w", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Errorf("validating \"arguments\": arguments must be an object")
	}
	if err := a.schema.Validate(&v); err != nil {
		return fmt.Errorf("validating \"arguments\": %v", err)
	}
	return decodeExact(raw, in)
}

// decodeExact decodes one JSON value with the SDK's own decoder and its
// rule (struct members match their names exactly, never case-insensitively),
// without the 32 KiB read buffer the SDK's stream decoder takes per call.
func decodeExact(b []byte, v any) error {
	rest, err := segjson.Parse(b, v, segjson.DontMatchCaseInsensitiveStructFields)
	if err == nil && len(bytes.TrimSpace(rest)) > 0 {
		err = fmt.Errorf("invalid character %q after the arguments", rest[0])
	}
	return err
}

// toolFailed marks an error a tool's own work returned, apart from the
// SDK's refusal of the arguments.
type toolFailed struct{ err error }

func (e toolFailed) Error() string { return e.err.Error() }
func (e toolFailed) Unwrap() error { return e.err }

// errorResults is the server's middleware that gives every failed call
// the same shape (errorResult): the SDK's own refusals of the arguments
// (code invalid) as much as a tool's failures.
func errorResults(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*sdk.CallToolResult)
		if err != nil || !ok || !r.IsError {
			return res, err
		}
		var tf toolFailed
		cause := r.GetError()
		switch {
		case errors.As(cause, &tf):
			return errorResult(tf.err), nil
		case cause != nil:
			return errorResult(invalid(fmt.Errorf("arguments: %s", argumentsError(cause.Error())))), nil
		}
		return res, nil
	}
}

var (
	validatorPath    = regexp.MustCompile(`validating (/[^:]*): `)
	schemaAdditional = regexp.MustCompile(`unexpected additional properties \["([^"]*)"\]`)
	schemaEnum       = regexp.MustCompile(`enum: (.*) does not equal any of: \[(.*)\]`)
	schemaBound      = regexp.MustCompile(`(maximum|minimum): \S+ is (?:greater|less) than ([0-9]+)(?:\.0+)?\b`)
)

// argumentsError rewrites the schema validator's sentence for an agent:
// the member's path in dots (asks[0].accept), and an unknown member named
// as one ("unexpected additional properties" says less).
func argumentsError(msg string) string {
	msg = strings.TrimPrefix(msg, `validating "arguments": `)
	msg = strings.ReplaceAll(msg, "validating root: ", "")
	// The validator names every level on the way down; the deepest says it.
	if all := validatorPath.FindAllStringIndex(msg, -1); len(all) > 1 {
		msg = msg[all[len(all)-1][0]:]
	}
	msg = validatorPath.ReplaceAllStringFunc(msg, func(m string) string {
		var out strings.Builder
		parts := strings.Split(validatorPath.FindStringSubmatch(m)[1], "/")
		for i := 1; i < len(parts); i++ {
			switch {
			case parts[i] == "properties" && i+1 < len(parts):
				if out.Len() > 0 {
					out.WriteByte('.')
				}
				out.WriteString(parts[i+1])
				i++
			case parts[i] == "items":
				out.WriteString("[]")
			default:
				out.WriteString("/" + parts[i])
			}
		}
		return out.String() + ": "
	})
	msg = schemaAdditional.ReplaceAllString(msg, `unknown member "$1"`)
	if m := schemaEnum.FindStringSubmatch(msg); m != nil {
		msg = strings.Replace(msg, m[0], fmt.Sprintf("%q is not one of %s", m[1], strings.Join(strings.Fields(m[2]), ", ")), 1)
	}
	return schemaBound.ReplaceAllStringFunc(msg, func(b string) string {
		m := schemaBound.FindStringSubmatch(b)
		if m[1] == "maximum" {
			return "must be at most " + m[2]
		}
		return "must be at least " + m[2]
	})
}

// outputSchema is the JSON Schema of a result of type t: an object whose
// members are t's JSON members with their types, nested documents and
// lists of them described member by member as far as Go's types say
// (a state or a pack object is any JSON: the passport's own format), plus
// data_notice, which every result carries. A document type met more than
// once is said once, under $defs, and referred to.
func outputSchema(t reflect.Type) json.RawMessage {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	w := &schemaWriter{uses: map[reflect.Type]int{}, open: map[reflect.Type]bool{t: true}}
	w.count(t)
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	if !w.members(&b, t) {
		b.WriteByte(',')
	}
	b.WriteString(`"data_notice":{"type":"string"}},"required":["data_notice"]`)
	if len(w.defs) > 0 {
		b.WriteString(`,"$defs":{`)
		for i, d := range w.defs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(d)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// schemaWriter writes one output schema: uses counts how often each
// document type occurs, open holds the types on the way down (a type that
// contains itself stops at "object"), defs are the $defs written.
type schemaWriter struct {
	uses    map[reflect.Type]int
	open    map[reflect.Type]bool
	defined map[reflect.Type]string
	defs    []string
}

// fields are t's JSON members: name and type, in order, each name once.
func fields(t reflect.Type) (names []string, types []reflect.Type) {
	seen := map[string]bool{"data_notice": true}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		names, types = append(names, name), append(types, f.Type)
	}
	return names, types
}

// document is the struct type a member's type describes, if it is one
// whose members a schema lists.
func document(t reflect.Type) (reflect.Type, bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return nil, false
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || opaque(t) {
		return nil, false
	}
	return t, true
}

func (w *schemaWriter) count(t reflect.Type) {
	_, types := fields(t)
	for _, ft := range types {
		d, ok := document(ft)
		if !ok || w.open[d] {
			continue
		}
		w.uses[d]++
		if w.uses[d] == 1 {
			w.open[d] = true
			w.count(d)
			delete(w.open, d)
		}
	}
}

// members writes t's members as schema properties and reports whether it
// wrote none.
func (w *schemaWriter) members(b *strings.Builder, t reflect.Type) (none bool) {
	names, types := fields(t)
	for i, name := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(w.typ(types[i]))
	}
	return len(names) == 0
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	ojsonValue    = reflect.TypeFor[ojson.Value]()
)

// opaque: a type that writes its own JSON (a state, an ordered document).
func opaque(t reflect.Type) bool {
	return t == ojsonValue || t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler)
}

// typ is the schema of one member's type: its JSON type, null allowed
// where Go may write null, and for a document or a list of them the
// members in turn.
func (w *schemaWriter) typ(t reflect.Type) string {
	null := false
	for t.Kind() == reflect.Pointer {
		null, t = true, t.Elem()
	}
	if opaque(t) {
		return `{}`
	}
	typ, inner := "", ""
	switch {
	case t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler):
		typ = "string"
	case t.Kind() == reflect.String:
		typ = "string"
	case t.Kind() == reflect.Bool:
		typ = "boolean"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		typ = "integer"
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		typ = "number"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		typ, null = "string", true
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		typ, null = "array", null || t.Kind() == reflect.Slice
		if item := w.typ(t.Elem()); item != `{}` {
			inner = `,"items":` + item
		}
	case t.Kind() == reflect.Map:
		typ, null = "object", true
		if v := w.typ(t.Elem()); v != `{}` {
			inner = `,"additionalProperties":` + v
		}
	case t.Kind() == reflect.Struct:
		if w.open[t] {
			typ = "object"
			break
		}
		if w.uses[t] > 1 {
			ref := `{"$ref":"#/$defs/` + w.define(t) + `"}`
			if null {
				return `{"anyOf":[` + ref + `,{"type":"null"}]}`
			}
			return ref
		}
		typ = "object"
		var b strings.Builder
		w.open[t] = true
		if !w.members(&b, t) {
			inner = `,"properties":{` + b.String() + `}`
		}
		delete(w.open, t)
	default:
		return `{}`
	}
	if null {
		return `{"type":["` + typ + `","null"]` + inner + `}`
	}
	return `{"type":"` + typ + `"` + inner + `}`
}

// define writes t's schema under $defs once and returns its name there.
func (w *schemaWriter) define(t reflect.Type) string {
	if name, ok := w.defined[t]; ok {
		return name
	}
	if w.defined == nil {
		w.defined = map[reflect.Type]string{}
	}
	name := t.Name()
	if name == "" {
		name = "doc"
	}
	for n := 2; ; n++ {
		taken := false
		for _, other := range w.defined {
			taken = taken || other == name
		}
		if !taken {
			break
		}
		name = fmt.Sprintf("%s%d", t.Name(), n)
	}
	w.defined[t] = name
	var b strings.Builder
	w.open[t] = true
	b.WriteString(`"` + name + `":{"type":"object"`)
	var m strings.Builder
	if !w.members(&m, t) {
		b.WriteString(`,"properties":{` + m.String() + `}`)
	}
	b.WriteByte('}')
	delete(w.open, t)
	w.defs = append(w.defs, b.String())
	return name
}

// required fails when a required string argument is empty (the schema
// requires the member; an empty string passes it).
func required(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.TrimSpace(pairs[i+1]) == "" {
			return invalid(fmt.Errorf("arguments: %s is required", pairs[i]))
		}
	}
	return nil
}
