package a2a

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/a2aproject/a2a-go/a2a"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// D23: contextId is lineage.chain in one reversible string; hostile
// entries (holding the separator or the escape) come back unchanged.
func TestContextIDRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		chain []string
		want  string
	}{
		{[]string{}, ""},
		{[]string{"TP-K7WF-3NQX@6"}, "TP-K7WF-3NQX@6"},
		{[]string{"TP-G6RZ-DS3B@3", "TP-K2VQ-8M4N@2"}, "TP-G6RZ-DS3B@3,TP-K2VQ-8M4N@2"},
		{[]string{"a,b@1", "c%2Cd@2"}, "a%2Cb@1,c%252Cd@2"},
		{[]string{"", ","}, ",%2C"},
	} {
		got := ContextID(tc.chain)
		if got != tc.want {
			t.Errorf("ContextID(%q) = %q, want %q", tc.chain, got, tc.want)
		}
		back, err := ParseContextID(got)
		if err != nil || !slices.Equal(back, tc.chain) {
			t.Errorf("ParseContextID(%q) = %q %v, want %q", got, back, err, tc.chain)
		}
	}
}

func FuzzContextID(f *testing.F) {
	f.Add("TP-A@1", "TP-B@2")
	f.Add("a,b", "%2C")
	f.Fuzz(func(t *testing.T, a, b string) {
		chain := []string{a, b}
		back, err := ParseContextID(ContextID(chain))
		if err != nil || !slices.Equal(back, chain) {
			t.Fatalf("%q → %q → %q %v", chain, ContextID(chain), back, err)
		}
	})
}

func exampleFile(name string) string { return filepath.Join("..", "examples", name) }

// TaskPack 0.1 §5 as D23 reads it: export then import gives the pack back
// byte for byte, in both encodings; the Task's id, contextId, artifacts,
// history and state are the mapping's.
func TestExportImportRoundTrip(t *testing.T) {
	for _, name := range []string{"handoff.taskpack", "handoff.taskpack.json", "binary-luggage.taskpack", "binary-luggage.taskpack.json"} {
		t.Run(name, func(t *testing.T) {
			task, err := Export(exampleFile(name), ExportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(task)
			if err != nil {
				t.Fatal(err)
			}
			var back sdk.Task
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("an A2A client cannot read the Task: %v", err)
			}
			if !strings.Contains(string(b), `"kind":"task"`) || len(back.History) != 0 || back.ID == "" || back.ContextID == "" {
				t.Errorf("kind, history, id or contextId: %.200s", b)
			}
			if back.Artifacts[0].ID != PackArtifactID {
				t.Errorf("the first artifact is %q, want the pack", back.Artifacts[0].ID)
			}
			fb, err := PackPartOfTask(&back)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "out"+filepath.Ext(name))
			k, err := Keep(fb, dir, func(pack.Encoding) string { return out }, KeepOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, _ := os.ReadFile(exampleFile(name))
			got, _ := os.ReadFile(k.Path)
			if !bytes.Equal(got, want) {
				t.Errorf("import wrote %d bytes, not the %d of %s", len(got), len(want), name)
			}
			if des, _ := os.ReadDir(dir); len(des) != 1 {
				t.Errorf("import left %d files", len(des))
			}
		})
	}
}

// The mapping's fields, from the reference handoff: id = root_id,
// contextId = the chain, each luggage file an artifact (passport.artifacts
// entries marked), the three rows A2A has no field for in metadata, and
// input-required from the verdict.
func TestExportMapping(t *testing.T) {
	task, err := Export(exampleFile("handoff.taskpack"), ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if task.ID != "TP-K7WF-3NQX" || task.ContextID != "TP-K7WF-3NQX@6" || task.Status.State != sdk.TaskStateInputRequired {
		t.Errorf("id %q contextId %q state %q", task.ID, task.ContextID, task.Status.State)
	}
	var ids []string
	for _, a := range task.Artifacts {
		ids = append(ids, string(a.ID))
	}
	if !slices.Contains(ids, "file:outline.md") || !slices.Contains(ids, "file:figures/revenue.csv") {
		t.Errorf("artifacts %v", ids)
	}
	meta := task.Metadata[ExtensionURI].(map[string]any)
	for _, k := range []string{"asks", "landing_checks", "facts", "lineage", "verdict"} {
		if _, ok := meta[k]; !ok {
			t.Errorf("metadata has no %s", k)
		}
	}
	ask := meta["asks"].([]any)[0].(map[string]any)
	if ask["accept"] == "" {
		t.Error("an ask without its accept")
	}
	fact := meta["facts"].([]any)[2].(map[string]any)
	if fact["scope"] != "machine" || fact["sealed"] != true {
		t.Errorf("a machine fact travels without its seal: %v", fact)
	}
}

// A pack with no root_id cannot be a Task (§5: Task.id is root_id).
func TestExportRefusesNoRootID(t *testing.T) {
	obj := packtest.Mutate(t, func(o *ojson.Value) { o.Get("lineage").Obj().Delete("root_id") })
	file := packtest.WriteTemp(t, "x.taskpack.json", packtest.FlatOf(t, obj))
	_, err := Export(file, ExportOptions{})
	var pe *pack.Error
	if !errors.As(err, &pe) || pe.Rule != RuleNoRootID {
		t.Fatalf("err = %v, want %s", err, RuleNoRootID)
	}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// What a sender can put in a Task or a message that is not a pack is
// refused, naming the rule, and Keep leaves nothing behind.
func TestRefusals(t *testing.T) {
	good, _ := os.ReadFile(exampleFile("handoff.taskpack.json"))
	hostile := packtest.HostileZip(t, packtest.AddFile("../evil", []byte("x"), nil))
	file := func(mt, name, data string) sdk.Part {
		return sdk.FilePart{File: sdk.FileBytes{FileMeta: sdk.FileMeta{MimeType: mt, Name: name}, Bytes: data}}
	}
	for _, tc := range []struct {
		name  string
		parts []sdk.Part
		max   int64
		rule  string
	}{
		{"text only", []sdk.Part{sdk.TextPart{Text: "land this and run its checks"}}, 0, RuleNoPack},
		{"a file that is not a pack type", []sdk.Part{file("text/plain", "notes.txt", b64([]byte("hi")))}, 0, RuleNoPack},
		{"by URI", []sdk.Part{sdk.FilePart{File: sdk.FileURI{FileMeta: sdk.FileMeta{MimeType: MediaBag}, URI: "https://example.com/p.taskpack"}}}, 0, RuleByURI},
		{"two packs", []sdk.Part{file(MediaFlat, "a.taskpack.json", b64(good)), file(MediaFlat, "b.taskpack.json", b64(good))}, 0, RuleTwoPacks},
		{"not base64", []sdk.Part{file(MediaFlat, "a.taskpack.json", "@@@@")}, 0, RuleBase64},
		{"not a pack", []sdk.Part{file(MediaFlat, "a.taskpack.json", b64([]byte(`{"hello":1}`)))}, 0, pack.RuleNotAPack},
		{"hostile zip", []sdk.Part{file(MediaBag, "a.taskpack", b64(hostile))}, 0, pack.RulePathTraversal},
		{"over the cap", []sdk.Part{file(MediaFlat, "a.taskpack.json", b64(good))}, 100, RuleTooLarge},
		{"a data part that is no Task", []sdk.Part{sdk.DataPart{Data: map[string]any{"kind": "task", "id": 5}}}, 0, RuleNotATask},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			fb, err := PackPartOfMessage(&sdk.Message{Parts: tc.parts})
			if err == nil {
				_, err = Keep(fb, dir, func(enc pack.Encoding) string { return filepath.Join(dir, "kept"+Ext(enc)) }, KeepOptions{MaxPackBytes: tc.max})
			}
			var pe *pack.Error
			if !errors.As(err, &pe) || pe.Rule != tc.rule {
				t.Fatalf("err = %v, want rule %s", err, tc.rule)
			}
			if des, _ := os.ReadDir(dir); len(des) != 0 {
				t.Errorf("a refusal left %d files", len(des))
			}
		})
	}
}

// Import refuses a Task with no TaskPack artifact, naming what is missing.
func TestImportNoPackArtifact(t *testing.T) {
	task := &sdk.Task{ID: "x", ContextID: "y", Artifacts: []*sdk.Artifact{{ID: "notes", Parts: sdk.ContentParts{sdk.TextPart{Text: "hi"}}}},
		History: []*sdk.Message{sdk.NewMessage(sdk.MessageRoleUser, sdk.TextPart{Text: "please land"})}}
	_, err := PackPartOfTask(task)
	var pe *pack.Error
	if !errors.As(err, &pe) || pe.Rule != RuleNoPack || !strings.Contains(pe.Detail, `no artifact "taskpack"`) {
		t.Fatalf("err = %v", err)
	}
}

// ReadTask and PackPartOfTask read what anyone can write: any bytes give
// an answer or an error, never a panic.
func FuzzReadTask(f *testing.F) {
	for _, name := range []string{"handoff.taskpack.json"} {
		task, err := Export(exampleFile(name), ExportOptions{})
		if err != nil {
			f.Fatal(err)
		}
		b, _ := json.Marshal(task)
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"task","id":"x","contextId":"y","status":{"state":"submitted"},"artifacts":[{"artifactId":"taskpack","parts":[{"kind":"file","file":{"uri":"x"}}]}]}`))
	f.Add([]byte(`{"kind":"message"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		file := filepath.Join(t.TempDir(), "t.json")
		if err := os.WriteFile(file, b, 0o600); err != nil {
			t.Fatal(err)
		}
		task, err := ReadTask(file, 1<<20)
		if err != nil {
			return
		}
		PackPartOfTask(task)
	})
}
