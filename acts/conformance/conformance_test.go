package conformance

import (
	"bytes"
	"encoding/json"
	"github.com/tp-dev/tp/acts"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// specExamples are copies of the example fixtures published beside the
// spec; they must pass. $TP_SPEC_FIXTURES/conformance/acts, when set, is
// the spec's own folder of them.
const specExamples = "testdata/spec-examples"

func runDir(t *testing.T, dir string) {
	t.Helper()
	var out bytes.Buffer
	passed, failed, err := RunConformance(dir, &out)
	if err != nil {
		t.Fatalf("RunConformance(%s): %v\n%s", dir, err, out.String())
	}
	if failed > 0 || passed == 0 {
		t.Fatalf("RunConformance(%s): %d passed, %d failed\n%s", dir, passed, failed, out.String())
	}
	t.Logf("%s: %s", dir, strings.TrimSpace(out.String()))
}

func TestConformanceSpecExamples(t *testing.T) {
	runDir(t, specExamples)
}

func TestConformanceSpecFixturesDir(t *testing.T) {
	d := os.Getenv("TP_SPEC_FIXTURES")
	if d == "" {
		t.Skip("TP_SPEC_FIXTURES is not set (the spec's fixture folder)")
	}
	runDir(t, filepath.Join(d, "conformance", "acts"))
}

func TestConformanceSuite(t *testing.T) {
	runDir(t, filepath.Join("testdata", "conformance"))
}

// The runner must report failures, unknown files and unreadable files,
// never pass them silently.
func TestConformanceRunnerReportsFailures(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("keys.json", `{"cases": [
		{"name": "right", "project": "demo", "text": "Renew the domain", "key": "task-demo-c3d8af57d4"},
		{"name": "wrong", "project": "demo", "text": "Renew the domain", "key": "task-demo-0000000000"}]}`)
	write("parse.json", `{"cases": [{"name": "wrong class", "profile": "en", "document": "## Tasks\n- [ ] [agent] a\n",
		"tasks": [{"line": 2, "class": "principal", "text": "a", "key": null}], "malformed": []}]}`)
	write("run.json", `{"cases": [{"name": "wrong sent", "profile": "en", "project": "demo", "document": "## Tasks\n- [ ] [owner] Renew the domain\n",
		"log": {"records": [], "acked": []}, "expected_document": "## Tasks\n- [ ] [owner] Renew the domain (waiting on owner: task-demo-c3d8af57d4)\n",
		"sent": [], "second_run_sends": []}]}`)
	write("extra.json", `{}`)
	var out bytes.Buffer
	passed, failed, err := RunConformance(dir, &out)
	if err != nil || passed != 1 || failed != 3 {
		t.Fatalf("%d passed, %d failed, %v\n%s", passed, failed, err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"extra.json: not a fixture file this runner knows; skipped",
		"parse.json: wrong class: tasks:",
		"keys.json: wrong: key:",
		"run.json: wrong sent: sent: got 1 record [r:task-demo-c3d8af57d4], want 0",
		"1 passed, 3 failed",
	}
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s", out.String())
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d = %q; want prefix %q", i+1, lines[i], want[i])
		}
	}
	write("amend.json", `{"cases": [`)
	out.Reset()
	_, _, err = RunConformance(dir, &out)
	if err == nil || !strings.Contains(err.Error(), "amend.json") {
		t.Fatalf("unreadable file: %v\n%s", err, out.String())
	}
	if _, _, err := RunConformance(filepath.Join(dir, "missing"), &out); err == nil {
		t.Fatal("missing dir: want an error")
	}
}

// run.json's sent list may give step-5 claims in any order (§4 step 5 has
// no document order); anything else still has to match exactly.
func TestClaimsInOrderOf(t *testing.T) {
	r := acts.Record{ID: "r:a", Type: acts.TypeRaised, Key: "a"}
	cb := acts.Record{ID: "c:b:r0", Type: acts.TypeClaimed, Key: "b"}
	cc := acts.Record{ID: "c:c:r0", Type: acts.TypeClaimed, Key: "c"}
	raws := func(ss ...string) []json.RawMessage {
		var out []json.RawMessage
		for _, s := range ss {
			out = append(out, json.RawMessage(s))
		}
		return out
	}
	got := []acts.Record{r, cb, cc}
	want := raws(`{"id":"r:a","type":"raised","key":"a"}`, `{"id":"c:c:r0","type":"claimed","key":"c"}`, `{"id":"c:b:r0","type":"claimed","key":"b"}`)
	if d := diffRecords("sent", claimsInOrderOf(got, want), want); d != "" {
		t.Errorf("reordered claims: %s", d)
	}
	for _, bad := range [][]json.RawMessage{
		raws(`{"id":"r:a","key":"a"}`, `{"id":"c:d:r0","key":"d"}`, `{"id":"c:b:r0","key":"b"}`), // another key
		raws(`{"id":"c:c:r0","key":"c"}`, `{"id":"r:a","key":"a"}`, `{"id":"c:b:r0","key":"b"}`), // a claim before a step-3 record
		raws(`{"id":"r:a","key":"a"}`, `{"id":"c:c:r1","key":"c"}`, `{"id":"c:b:r0","key":"b"}`), // another id
		raws(`{"id":"r:a","key":"a"}`, `{"id":"c:c:r0","key":"c"}`),                              // one missing
	} {
		if d := diffRecords("sent", claimsInOrderOf(got, bad), bad); d == "" {
			t.Errorf("%s: want a difference", bad)
		}
	}
}

// A case's params are read for its profile's own parameters; a zh-hant case
// without them uses the suite's tag, Owner (§5.7).
func TestCaseProfileParams(t *testing.T) {
	for _, c := range []struct {
		profile string
		params  map[string]string
		marker  string
	}{
		{"en", nil, " (waiting on owner: k)"},
		{"en", map[string]string{"principal_tag": "Owner"}, " (waiting on owner: k)"},
		{"zh-hant", nil, "(等 Owner:k)"},
		{"zh-hant", map[string]string{"principal_tag": "阿明"}, "(等 阿明:k)"},
	} {
		p, err := caseProfile(&fixtureCase{Profile: c.profile, Params: c.params})
		if err != nil {
			t.Errorf("%s %v: %v", c.profile, c.params, err)
			continue
		}
		if got := p.RenderMarker("k"); got != c.marker {
			t.Errorf("%s %v: marker %q, want %q", c.profile, c.params, got, c.marker)
		}
	}
	if _, err := caseProfile(&fixtureCase{Profile: "fr"}); err == nil {
		t.Error("unknown profile: want an error")
	}
}

// An amend.json case may leave terms_rev and need_id out of latest: they
// are then revision 1 and the ids §7 gives (r:<key>, a:<key>:<rev>).
func TestAmendCaseDefaults(t *testing.T) {
	dir := t.TempDir()
	body := `{"cases": [{"name": "defaults", "profile": "en", "project": "demo",
		"document": "## Tasks\n- [ ] [owner] Renew it now (waiting on owner: k1)\n- [ ] [owner] Pay it all (waiting on owner: k2)\n",
		"latest": {"k1": {"text": "Renew it"}, "k2": {"text": "Pay it", "terms_rev": 3}},
		"amended": [{"id": "a:k1:2", "terms_rev": 2, "supersedes": ["r:k1"]}, {"id": "a:k2:4", "terms_rev": 4, "supersedes": ["a:k2:3"]}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "amend.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if passed, failed, err := RunConformance(dir, &out); err != nil || passed != 1 || failed != 0 {
		t.Fatalf("%d passed, %d failed, %v\n%s", passed, failed, err, out.String())
	}
}
