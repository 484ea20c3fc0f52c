package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// listTools is the server's tools/list as a client reads it.
func listTools(t *testing.T, cs *sdk.ClientSession) []*sdk.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

// undescribed lists the properties of an input schema, at any depth, that
// carry no description.
func undescribed(schema map[string]any, path string) []string {
	var out []string
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		pm, _ := p.(map[string]any)
		if d, _ := pm["description"].(string); strings.TrimSpace(d) == "" {
			out = append(out, path+name)
		}
		out = append(out, undescribed(pm, path+name+".")...)
		if items, ok := pm["items"].(map[string]any); ok {
			out = append(out, undescribed(items, path+name+"[].")...)
		}
	}
	return out
}

// TestEveryToolIsTyped: every tool has an output schema (an object that
// names data_notice), an input schema that refuses unknown members at the
// top, and a description on every input property at any depth.
func TestEveryToolIsTyped(t *testing.T) {
	t.Parallel()
	cs := newWorld(t, "m1").serve(t)
	for _, tl := range listTools(t, cs) {
		in, out := asMap(t, tl.InputSchema), asMap(t, tl.OutputSchema)
		if in["type"] != "object" || in["additionalProperties"] != false {
			t.Errorf("%s: the input schema does not refuse unknown members: %v", tl.Name, in)
		}
		if u := undescribed(in, ""); len(u) > 0 {
			t.Errorf("%s: properties without a description: %v", tl.Name, u)
		}
		props, _ := out["properties"].(map[string]any)
		if out["type"] != "object" || props["data_notice"] == nil || len(props) < 2 {
			t.Errorf("%s: no output schema naming the result's members and data_notice: %v", tl.Name, out)
		}
	}
}

// TestArgumentsAreValidated: every call is checked against the input
// schema before a tool runs: an unknown member, a wrong type and a missing
// required member are isError results (code invalid, the data label) that
// name the member.
func TestArgumentsAreValidated(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "m1")
	cs := w.serve(t)
	id := newPassport(t, cs)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"task_passport_open", map[string]any{"passport_id": id, "extra": 1}, `unknown member "extra"`},
		{"task_passport_checkpoint", map[string]any{"state": map[string]any{"id": id}, "expected_version": "one"}, "expected_version"},
		{"task_passport_checkpoint", map[string]any{"state": map[string]any{"id": id}}, "expected_version"},
		{"task_passport_pack", map[string]any{"passport_id": id, "out": "x.taskpack", "asks": []any{map[string]any{"what": "w"}}}, "accept"},
		{"task_passport_pack", map[string]any{"passport_id": id, "out": "x.taskpack", "asks": []any{map[string]any{"what": "w", "accept": "a", "deadline": "now"}}}, `unknown member "deadline"`},
		{"tp_asks_answer", map[string]any{"passport_id": id, "answers": []any{map[string]any{"id": "a1", "answer": "x", "by": "me"}}}, `unknown member "by"`},
		{"tp_checks_report", map[string]any{"passport_id": id, "reports": "passed"}, "reports"},
		{"tp_receipt_pack", map[string]any{"passport_id": id}, "out"},
		// A member is its exact name: another spelling is an unknown
		// member, never decoded as the one the schema checked.
		{"task_passport_open", map[string]any{"Passport_ID": id}, `unknown member "Passport_ID"`},
		{"task_passport_open", map[string]any{"passport_id": id, "MAX_BYTES": 1}, `unknown member "MAX_BYTES"`},
		{"task_passport_pack", map[string]any{"passport_id": id, "out": "x.taskpack", "asks": []any{map[string]any{"What": "w", "accept": "a"}}}, `unknown member "What"`},
		{"task_passport_open", map[string]any{}, "passport_id"},
		{"task_passport_open", map[string]any{"passport_id": id, "max_bytes": 10}, "max_bytes: must be at least 512"},
	} {
		r := fails(t, cs, c.tool, c.args, "invalid")
		if !strings.Contains(r.Text, c.want) {
			t.Errorf("%s %v: %q does not name %q", c.tool, c.args, r.Text, c.want)
		}
	}
}

// TestArgumentsMustBeAnObject: arguments that are not an object (an
// array, a string) are refused as invalid, not read as no arguments;
// absent arguments are an empty object (the list needs none).
func TestArgumentsMustBeAnObject(t *testing.T) {
	t.Parallel()
	cs := newWorld(t, "m1").serve(t)
	for _, args := range []any{[]any{"passport_id"}, "passport_id", 7} {
		fails(t, cs, "task_passport_open", args, "invalid")
	}
	ok(t, cs, "task_passport_list", nil)
}

// TestOutputCheckCanFail: the tests' check of every result against its
// output schema (checkOutput) finds a result without data_notice, or with a
// member of the wrong type.
func TestOutputCheckCanFail(t *testing.T) {
	t.Parallel()
	cs := newWorld(t, "m1").serve(t)
	id := newPassport(t, cs)
	r := ok(t, cs, "task_passport_open", map[string]any{"passport_id": id})
	if err := outputMismatch(cs, "task_passport_open", r.Doc); err != nil {
		t.Fatalf("a real result: %v", err)
	}
	for _, spoil := range []func(map[string]any){
		func(d map[string]any) { delete(d, "data_notice") },
		func(d map[string]any) { d["state_version"] = "one" },
	} {
		d := maps.Clone(r.Doc)
		spoil(d)
		if outputMismatch(cs, "task_passport_open", d) == nil {
			t.Errorf("a spoiled result passes the output check: %v", d)
		}
	}
}

// TestCheckpointStatesTheFactShape: the checkpoint tool's schema says
// what a fact is (claim, scope universal|org|machine, verified, source),
// and a fact with any other scope is refused, naming the fact and the
// scope, with nothing written (TaskPack 0.1 §4.2: an unknown scope would
// leave sealed as machine without a word).
func TestCheckpointStatesTheFactShape(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "m1")
	cs := w.serve(t)
	var cp *sdk.Tool
	for _, tl := range listTools(t, cs) {
		if tl.Name == "task_passport_checkpoint" {
			cp = tl
		}
	}
	in := asMap(t, cp.InputSchema)
	state := in["properties"].(map[string]any)["state"].(map[string]any)
	fact := state["properties"].(map[string]any)["facts"].(map[string]any)["items"].(map[string]any)
	fp := fact["properties"].(map[string]any)
	for _, k := range []string{"claim", "scope", "verified", "source"} {
		if fp[k] == nil {
			t.Errorf("the fact shape has no %s: %v", k, fp)
		}
	}
	if d := fmt.Sprint(fp["scope"]); !strings.Contains(d, "universal, org or machine") {
		t.Errorf("scope does not say its values: %s", d)
	}
	id := newPassport(t, cs)
	o := ok(t, cs, "task_passport_open", map[string]any{"passport_id": id})
	st := o.Doc["state"].(map[string]any)
	st["facts"] = []any{map[string]any{"claim": "the build passes", "scope": "project", "verified": true}}
	r := fails(t, cs, "task_passport_checkpoint", map[string]any{"state": st, "expected_version": o.Doc["state_version"]}, "refused")
	if !strings.Contains(r.Text, `"project"`) || !strings.Contains(r.Text, "facts[0].scope") {
		t.Errorf("the refusal does not name the fact and its scope: %s", r.Text)
	}
	if again := ok(t, cs, "task_passport_open", map[string]any{"passport_id": id}); again.Doc["state_version"] != o.Doc["state_version"] {
		t.Errorf("a refused checkpoint was written")
	}
}

// referenceListBytes is task-passport 0.3.0's whole tools/list (its seven
// tools): what a harness gave the model before tp.
const referenceListBytes = 5500

// TestToolsListIsSmall: what a harness puts in the model's context for
// each tool (its name, description and input schema; output schemas and
// annotations stay with the client) is bounded: tp's seven reference
// tools within the reference's whole list, and every tool together within
// 10 KiB (about 500 bytes a tool). The rules every tool keeps are said once, in the server's
// instructions, never again in a description.
func TestToolsListIsSmall(t *testing.T) {
	t.Parallel()
	cs := newWorld(t, "m1").serve(t)
	seen, seven, wire := 0, 0, 0
	for _, tl := range listTools(t, cs) {
		b, _ := json.Marshal(struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			InputSchema any    `json:"inputSchema"`
		}{tl.Name, tl.Description, tl.InputSchema})
		seen += len(b)
		if strings.HasPrefix(tl.Name, "task_passport_") {
			seven += len(b)
		}
		whole, _ := json.Marshal(tl)
		wire += len(whole)
		for _, rule := range []string{"not instructions", "never instructions", "client's roots", "working directory", "credential", "force is true", "/proc"} {
			if strings.Contains(tl.Description, rule) {
				t.Errorf("%s's description repeats a rule the instructions say (%q): %s", tl.Name, rule, tl.Description)
			}
		}
	}
	t.Logf("tools/list: %d bytes the model sees (the reference's seven: %d), %d on the wire with output schemas and annotations", seen, seven, wire)
	if seven > referenceListBytes {
		t.Errorf("the seven reference tools take %d bytes, more than the reference's whole list (%d)", seven, referenceListBytes)
	}
	if seen > 10<<10 {
		t.Errorf("the tools take %d bytes of the model's context, over 10 KiB", seen)
	}
	for _, rule := range []string{"never instructions", "client's roots", "Credential", "force: true", "only the principal settles"} {
		if !strings.Contains(cs.InitializeResult().Instructions, rule) {
			t.Errorf("the instructions do not say %q", rule)
		}
	}
}
