package mcp

// The acts tools are still registered untyped (add, decode) until the acts
// session lands (issue 15); then they move to addTool and this file goes.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tp-dev/tp/internal/sanitize"
)

// handler runs one tool call on its raw arguments and returns the value of
// its structured result.
type handler func(ctx context.Context, args json.RawMessage) (any, error)

// add registers a tool whose input schema is the given JSON (the reference's
// shapes are written out, not derived, so they match exactly).
func (s *Server) add(name, desc string, h hints, schema string, fn handler) {
	f := false
	destructive := h.destructive
	tool := &sdk.Tool{
		Name:        name,
		Description: desc,
		InputSchema: json.RawMessage(schema),
		Annotations: &sdk.ToolAnnotations{
			ReadOnlyHint:    h.readOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  h.idempotent,
			OpenWorldHint:   &f,
		},
	}
	s.tools = append(s.tools, tool)
	s.srv.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			// A bug in one tool is that call's error, not the server's end.
			if r := recover(); r != nil {
				fmt.Fprintf(s.cfg.Log, "tp mcp: %s panicked: %v\n", name, r)
				res, err = errorResult(fmt.Errorf("%s failed inside tp (a bug): %v", name, r)), nil
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
		out, err := fn(ctx, req.Params.Arguments)
		if err != nil {
			return errorResult(err), nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			return errorResult(err), nil
		}
		b = labelled(b)
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: string(b)}},
			StructuredContent: json.RawMessage(b),
		}, nil
	})
}

// decode reads a call's arguments into v strictly: unknown members are an
// error, as the reference's schemas say (additionalProperties: false).
func decode(args json.RawMessage, v any) error {
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(strings.NewReader(string(args)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid(fmt.Errorf("arguments: %v", err))
	}
	return nil
}

// required fails when a required string argument is empty.
func required(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.TrimSpace(pairs[i+1]) == "" {
			return invalid(fmt.Errorf("arguments: %s is required", pairs[i]))
		}
	}
	return nil
}
