package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tp-dev/tp/internal/ojson"
)

type schemaLeaf struct {
	Name  string   `json:"name"`
	Count int      `json:"count,omitempty"`
	Tags  []string `json:"tags"`
}

type schemaNode struct {
	Leaf     schemaLeaf            `json:"leaf"`
	Leaves   []schemaLeaf          `json:"leaves"`
	Maybe    *schemaLeaf           `json:"maybe"`
	ByName   map[string]schemaLeaf `json:"by_name"`
	Children []schemaNode          `json:"children"` // a type that holds itself
	State    *ojson.Value          `json:"state"`
	Hidden   string                `json:"-"`
	Only     struct {
		OK bool `json:"ok"`
	} `json:"only"`
}

// TestOutputSchemaDescribesNestedDocuments: an output schema lists the
// members of nested documents and of list items, says a document met twice
// once (under $defs), stops at a type that holds itself, leaves a
// passport's own JSON open, and accepts what the type writes and refuses
// what it never would.
func TestOutputSchemaDescribesNestedDocuments(t *testing.T) {
	t.Parallel()
	raw := outputSchema(reflect.TypeFor[*schemaNode]())
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("not a schema: %v\n%s", err, raw)
	}
	text := string(raw)
	for _, want := range []string{
		`"only":{"type":"object","properties":{"ok":{"type":"boolean"}}}`,
		`"$defs":{"schemaLeaf":{"type":"object","properties":{"name":{"type":"string"},"count":{"type":"integer"},"tags":{"type":["array","null"],"items":{"type":"string"}}}}`,
		`"leaves":{"type":["array","null"],"items":{"$ref":"#/$defs/schemaLeaf"}}`,
		`"maybe":{"anyOf":[{"$ref":"#/$defs/schemaLeaf"},{"type":"null"}]}`,
		`"by_name":{"type":["object","null"],"additionalProperties":{"$ref":"#/$defs/schemaLeaf"}}`,
		`"state":{}`,
		`"data_notice":{"type":"string"}`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the schema does not say %s\n%s", want, text)
		}
	}
	if strings.Contains(text, `"Hidden"`) || strings.Count(text, `"schemaLeaf":`) != 1 {
		t.Errorf("a hidden member listed, or a document defined twice:\n%s", text)
	}
	res, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("does not resolve: %v", err)
	}
	node := schemaNode{Leaf: schemaLeaf{Name: "a"}, Children: []schemaNode{{Leaves: []schemaLeaf{{Name: "b", Tags: []string{"x"}}}}}}
	var written map[string]any
	b, _ := json.Marshal(node)
	json.Unmarshal(b, &written)
	written["data_notice"] = "data"
	if err := res.Validate(written); err != nil {
		t.Errorf("what the type writes does not validate: %v\n%s", err, b)
	}
	written["leaves"] = []any{map[string]any{"name": 3}}
	if err := res.Validate(written); err == nil {
		t.Errorf("a list item of the wrong shape validated")
	}
}
