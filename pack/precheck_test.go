package pack

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestPrecheck: what cannot be a pack is refused by name and rule before
// anything reads it; what might be one passes (Open judges the rest).
func TestPrecheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		path string
		ok   bool
	}{
		{"missing", filepath.Join(dir, "nope.taskpack"), false},
		{"a folder", dir, false},
		{"empty", write("empty.taskpack", ""), false},
		{"text", write("notes.taskpack", "hello"), false},
		{"a ZIP head", write("z.taskpack", "PK\x03\x04 and the rest"), true},
		{"a JSON object", write("f.taskpack.json", "  {\"taskpack\":"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Precheck(tc.path)
			if tc.ok != (err == nil) {
				t.Fatalf("Precheck(%s) = %v", tc.path, err)
			}
			var pe *Error
			if err != nil && (!errors.As(err, &pe) || pe.Rule != RuleNotAPack || pe.File != tc.path) {
				t.Errorf("error %v does not name the file and the rule", err)
			}
		})
	}
}
