package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	tpa2a "github.com/tp-dev/tp/a2a"
)

// A2A 0.3's JSON schema (a2a.json in the A2A repository, draft-07, its
// types under "definitions") is not committed and no module in the module
// cache ships it: $TP_A2A_SCHEMA names a copy. Unset, the schema checks
// are skipped (TestA2ASchema says so) and every other check runs.
func a2aSchemaFile() string { return os.Getenv("TP_A2A_SCHEMA") }

// validateA2A validates a JSON document against the definition def of
// A2A 0.3's schema; nil when $TP_A2A_SCHEMA is unset.
func validateA2A(def string, doc []byte) error {
	file := a2aSchemaFile()
	if file == "" {
		return nil
	}
	return validateAgainst(file, def, doc)
}

// validateAgainst validates doc against definitions[def] of the draft-07
// schema in file.
func validateAgainst(file, def string, doc []byte) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	defs, _ := root["definitions"].(map[string]any)
	if _, ok := defs[def]; !ok {
		return fmt.Errorf("%s has no definitions.%s", file, def)
	}
	// The definition as the root, its siblings beside it for $ref.
	wrapper := map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": defs, "$ref": "#/definitions/" + def}
	wb, _ := json.Marshal(wrapper)
	var s jsonschema.Schema
	if err := json.Unmarshal(wb, &s); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	var inst any
	if err := json.Unmarshal(doc, &inst); err != nil {
		return err
	}
	return rs.Validate(inst)
}

// The validator itself can fail: a Task without contextId, or of the
// wrong kind, fails a schema shaped like A2A's (testdata/a2aschema).
func TestA2ASchemaValidatorFails(t *testing.T) {
	t.Parallel()
	file := filepath.Join("testdata", "a2aschema", "shape.json")
	task, err := tpa2a.Export(filepath.Join("..", "..", "examples", "handoff.taskpack"), tpa2a.ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	good, _ := json.Marshal(task)
	if err := validateAgainst(file, "Task", good); err != nil {
		t.Fatalf("an exported Task fails the shape schema: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(string(good), `"contextId":`, `"contextID":`, 1),
		strings.Replace(string(good), `"kind":"task"`, `"kind":"message"`, 1),
	} {
		if err := validateAgainst(file, "Task", []byte(bad)); err == nil {
			t.Errorf("a broken Task validates: %.120s", bad)
		}
	}
}

// Every exported example and the card validate against A2A 0.3's schema.
func TestA2ASchema(t *testing.T) {
	t.Parallel()
	if a2aSchemaFile() == "" {
		t.Skip("TP_A2A_SCHEMA is not set (a copy of A2A 0.3's specification/json/a2a.json; see README)")
	}
	for _, f := range []string{"handoff.taskpack", "handoff.taskpack.json", "binary-luggage.taskpack"} {
		task, err := tpa2a.Export(filepath.Join("..", "..", "examples", f), tpa2a.ExportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(task)
		if err := validateA2A("Task", b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	ext := tpa2a.Extension(0)
	b, _ := json.Marshal(ext)
	if err := validateA2A("AgentExtension", b); err != nil {
		t.Errorf("the card's extension: %v", err)
	}
}
