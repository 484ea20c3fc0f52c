package mcp

import (
	"bytes"
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool's result leaves the SDK as JSON made four times over: the
// result's own MarshalJSON (a wire struct by reflection, the text content
// by its own MarshalJSON, the structured content compacted), the JSON-RPC
// response's encoding of that (compacted again) and the message's (once
// more). A dry-run land's result is 3.6 KB and this was a quarter of the
// call's CPU, more than the landing plan itself (issue 16, BENCHMARKS.md).
// A tool result as addTool makes it — one text content that is the
// structured content's JSON, nothing else — is written once, here, into
// the very bytes the SDK writes for it, and handed on already encoded.

// encodedResult is a tool result already encoded. It embeds the result
// (the SDK's Result interface is only the SDK's types'), and marshals as
// its bytes.
type encodedResult struct {
	*sdk.CallToolResult
	raw []byte
}

func (e encodedResult) MarshalJSON() ([]byte, error) { return e.raw, nil }

// encodeResults is the server's outermost middleware: a tools/call result
// that encodeToolResult can write is sent as encodedResult. A request of
// the per-request protocol (its _meta names a protocolVersion) is left to
// the SDK, which adds to such a result after the handlers return.
func encodeResults(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || method != "tools/call" {
			return res, err
		}
		if p := req.GetParams(); p != nil {
			if _, ok := p.GetMeta()[sdk.MetaKeyProtocolVersion]; ok {
				return res, nil
			}
		}
		if r, ok := res.(*sdk.CallToolResult); ok {
			if raw, ok := encodeToolResult(r); ok {
				return encodedResult{CallToolResult: r, raw: raw}, nil
			}
		}
		return res, nil
	}
}

// encodeToolResult writes r as the SDK's CallToolResult.MarshalJSON would,
// when r is what addTool returns: one text content without annotations or
// _meta and structured content already JSON, with no _meta of its own and
// nothing for a task or an input request. ok is false for anything else.
func encodeToolResult(r *sdk.CallToolResult) (raw []byte, ok bool) {
	if r.Meta != nil || len(r.Content) != 1 {
		return nil, false
	}
	sc, ok := r.StructuredContent.(json.RawMessage)
	if !ok || len(sc) == 0 {
		return nil, false
	}
	tc, ok := r.Content[0].(*sdk.TextContent)
	if !ok || tc.Meta != nil || tc.Annotations != nil {
		return nil, false
	}
	// Anything else a result carries (a member a later SDK adds) makes the
	// SDK's encoding of the rest more than an empty content: then it is the
	// SDK's to write.
	probe := *r
	probe.Content, probe.StructuredContent, probe.IsError = nil, nil, false
	if b, err := json.Marshal(&probe); err != nil || string(b) != `{"content":null}` {
		return nil, false
	}
	text, err := json.Marshal(tc.Text)
	if err != nil {
		return nil, false
	}
	var b bytes.Buffer
	b.Grow(len(text) + len(sc) + 64)
	b.WriteString(`{"content":[{"type":"text","text":`)
	b.Write(text)
	b.WriteString(`}],"structuredContent":`)
	json.HTMLEscape(&b, sc) // as json.Marshal writes a json.RawMessage
	if r.IsError {
		b.WriteString(`,"isError":true`)
	}
	b.WriteByte('}')
	return b.Bytes(), true
}
