package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// encodeToolResult writes exactly the bytes the SDK writes for the same
// result, and leaves to the SDK every result it does not know how to.
func TestEncodeToolResult(t *testing.T) {
	t.Parallel()
	doc := json.RawMessage(`{"ok":true,"title":"<b>&\u2028 \"quoted\" \\ é","data_notice":"x"}`)
	text := func(s string) []sdk.Content { return []sdk.Content{&sdk.TextContent{Text: s}} }
	cases := []struct {
		name string
		r    *sdk.CallToolResult
		ok   bool
	}{
		{"a result", &sdk.CallToolResult{Content: text(string(doc)), StructuredContent: doc}, true},
		{"an error result", &sdk.CallToolResult{Content: text("a\tb\x01<>&"), StructuredContent: doc, IsError: true}, true},
		{"text with every escape", &sdk.CallToolResult{Content: text("\x00\x1f\"\\/\u2028\u2029<>&\xff"), StructuredContent: doc}, true},
		{"_meta", &sdk.CallToolResult{Meta: sdk.Meta{"k": "v"}, Content: text("t"), StructuredContent: doc}, false},
		{"two contents", &sdk.CallToolResult{Content: append(text("a"), &sdk.TextContent{Text: "b"}), StructuredContent: doc}, false},
		{"annotated text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "t", Annotations: &sdk.Annotations{Priority: 1}}}, StructuredContent: doc}, false},
		{"text with _meta", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "t", Meta: sdk.Meta{"k": "v"}}}, StructuredContent: doc}, false},
		{"structured content not yet JSON", &sdk.CallToolResult{Content: text("t"), StructuredContent: map[string]any{"ok": true}}, false},
		{"no structured content", &sdk.CallToolResult{Content: text("t")}, false},
		{"an image", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{Data: []byte("x"), MIMEType: "image/png"}}, StructuredContent: doc}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, ok := encodeToolResult(c.r)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			want, err := json.Marshal(c.r)
			if err != nil {
				t.Fatal(err)
			}
			// As the response carries it: compacted, HTML left as it is.
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(encodedResult{CallToolResult: c.r, raw: raw}); err != nil {
				t.Fatal(err)
			}
			var sdkBuf bytes.Buffer
			enc = json.NewEncoder(&sdkBuf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(c.r); err != nil {
				t.Fatal(err)
			}
			if buf.String() != sdkBuf.String() || string(raw) != string(want) {
				t.Errorf("encoded\n%s\nthe SDK's\n%s", raw, want)
			}
		})
	}
}

// BenchmarkResultEncoding is what the SDK does with a tool's result after
// the tool returns (the response's encoding, then the message's), for a
// dry-run land's result as the SDK's CallToolResult and as encodedResult.
func BenchmarkResultEncoding(b *testing.B) {
	doc := landResultDoc(b)
	id, _ := jsonrpc.MakeID(float64(7))
	for _, c := range []struct {
		name   string
		result func() any
	}{
		{"sdk", func() any {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(doc)}}, StructuredContent: doc}
		}},
		{"encoded", func() any {
			r := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(doc)}}, StructuredContent: doc}
			raw, ok := encodeToolResult(r)
			if !ok {
				b.Fatal("not encoded")
			}
			return encodedResult{CallToolResult: r, raw: raw}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(c.result()); err != nil {
					b.Fatal(err)
				}
				if _, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: bytes.TrimSuffix(buf.Bytes(), []byte("\n"))}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// landResultDoc is a dry-run land's result document as the tool returns
// it.
func landResultDoc(tb testing.TB) json.RawMessage {
	tb.Helper()
	sender := map[string]any{"actor": "a", "machine": "m", "harness": "tp", "passport_id": "TP-ZFJM-37B4", "version": 1, "packed_at": "2026-12-02T13:52:41Z"}
	lineage := map[string]any{"root_id": "TP-ZFJM-37B4", "from_version": 1, "chain": []string{"TP-ZFJM-37B4@1"}}
	plan := map[string]any{"file": "first.taskpack", "encoding": "taskpack", "content_sha256": strings.Repeat("2c", 32),
		"id": "TP-ENVQ-B4Y7", "files_dir": "store/TP-ENVQ-B4Y7.files", "goal": "time the tools",
		"integrity":      map[string]any{"verified": true, "how": "BagIt manifests (sha256) verified", "luggage_files": 0, "luggage_bytes": 0, "unvouched": 0},
		"landing_checks": []any{}, "facts": []any{}, "own_lineage": "TP-ZFJM-37B4@1", "asks": []any{}, "instructions": []any{},
		"credentials": []any{}, "luggage": []any{}, "next_steps": []any{map[string]any{"kind": "sender", "text": "measure"}}}
	doc := map[string]any{"ok": true, "dry_run": true, "kind": "handoff", "lineage": lineage, "signer": map[string]any{"state": "unsigned"},
		"from": sender, "title": "bench", "asks": []any{}, "landing_checks": []any{}, "luggage": []any{},
		"needs_reverify": 0, "landing_checks_required": 0, "open_asks": 0, "verdict": "accepted", "unmet_checks": []any{},
		"open_ask_items": []any{}, "data_notice": DataNotice, "plan": plan, "instructions_in_pack": 0, "credential_like_in_pack": 0}
	b, err := json.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
