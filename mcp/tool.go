package mcp

import (
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

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/sanitize"
)

// addTool registers a typed tool with the SDK's AddTool: the SDK validates
// every call's arguments against the input schema (unknown members, wrong
// types and missing required members are refused, named) and decodes them
// into In; the result is validated against the output schema before it is
// sent.
//
// schema is the input schema as JSON when it must be exactly the
// reference's (task-passport 0.3.0's seven tools) or say what a Go type
// cannot (an enum); "" infers it from In, as the SDK would, each property
// described by its jsonschema tag. The output schema names
// the result's top-level members and their JSON types (nested documents —
// a state, a plan — are objects an agent reads as the description says);
// every result carries data_notice (TaskPack 0.1 §4.5).
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
	sdk.AddTool(s.srv, tool, func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, doc json.RawMessage, err error) {
		defer func() {
			// A bug in one tool is that call's error, not the server's end.
			if r := recover(); r != nil {
				fmt.Fprintf(s.cfg.Log, "tp mcp: %s panicked: %v\n", name, r)
				res, doc, err = nil, nil, toolFailed{fmt.Errorf("%s failed inside tp (a bug): %v", name, r)}
			}
		}()
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
			return nil, nil, toolFailed{err}
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, nil, toolFailed{err}
		}
		return nil, labelled(b), nil
	})
	s.tools = append(s.tools, tool)
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
// members are t's JSON members with their types, plus data_notice.
func outputSchema(t reflect.Type) json.RawMessage {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	seen := map[string]bool{}
	first := true
	member := func(name, typ string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(typ)
	}
	if t.Kind() == reflect.Struct {
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
			member(name, jsonType(f.Type))
		}
	}
	member("data_notice", `{"type":"string"}`)
	b.WriteString(`},"required":["data_notice"]}`)
	return json.RawMessage(b.String())
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	ojsonValue    = reflect.TypeFor[ojson.Value]()
)

// jsonType is the schema of one member's type: its JSON type, null
// allowed where Go may write null.
func jsonType(t reflect.Type) string {
	null := false
	for t.Kind() == reflect.Pointer {
		null, t = true, t.Elem()
	}
	if t == ojsonValue || t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) {
		return `{}` // any JSON: a state, an ordered document
	}
	typ := ""
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
	case t.Kind() == reflect.Slice:
		typ, null = "array", true
	case t.Kind() == reflect.Array:
		typ = "array"
	case t.Kind() == reflect.Map:
		typ, null = "object", true
	case t.Kind() == reflect.Struct:
		typ = "object"
	default:
		return `{}`
	}
	if null {
		return `{"type":["` + typ + `","null"]}`
	}
	return `{"type":"` + typ + `"}`
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
