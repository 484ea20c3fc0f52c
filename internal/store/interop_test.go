package store

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
)

// reference finds the reference implementation (task-passport 0.3.0, a
// checkout named by $TP_REFERENCE_DIR) and node; these tests skip when
// either is missing.
func reference(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir = os.Getenv("TP_REFERENCE_DIR")
	if dir == "" {
		t.Skip("TP_REFERENCE_DIR is not set (a task-passport 0.3.0 checkout; see INTEROP.md)")
	}
	return node, dir
}

// runNode runs an ES module script that can import the reference's store as
// REF/store.js; args follow. It returns stdout and fails the test on error
// unless allowFail.
func runNode(t *testing.T, node, ref, script string, allowFail bool, args ...string) (string, error) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "script.mjs")
	script = strings.ReplaceAll(script, "REF/", "file://"+filepath.ToSlash(ref)+"/")
	if err := os.WriteFile(f, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{f}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && !allowFail {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	if err != nil {
		return stderr.String(), err
	}
	return string(out), nil
}

func runCLI(t *testing.T, node, ref, store string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(node, append([]string{filepath.Join(ref, "cli.js")}, args...)...)
	cmd.Env = append(os.Environ(), "TASK_PASSPORT_STORE="+store)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("task-passport %v: %v", args, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("task-passport %v: %v\n%s", args, err, out)
	}
	return m
}

func TestInteropReferenceStoreOpensInTp(t *testing.T) {
	t.Parallel()
	node, ref := reference(t)
	s := newStore(t)
	created := runCLI(t, node, ref, s.Dir(), "new", "--title", "Made by the reference", "--goal", "Interop")
	id := created["passport_id"].(string)

	entries, skipped, err := s.List()
	if err != nil || len(skipped) != 0 || len(entries) != 1 || entries[0].ID != id || entries[0].Version != 1 {
		t.Fatalf("tp lists %+v %v %v", entries, skipped, err)
	}
	st, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(st.V.Obj().Keys(), ","); got != strings.Join(referenceKeys, ",") {
		t.Errorf("reference keys %s; NewState assumes %v", got, referenceKeys)
	}
	data, _ := os.ReadFile(s.Path(id))
	if string(ojson.Canonical(st.V)) != string(data) {
		t.Error("tp does not re-encode the reference's file byte for byte")
	}

	// tp saves version 2; the reference opens it.
	if _, err := s.Update(id, func(v *ojson.Value) error {
		v.Set("current_state", ojson.NewString("tp was here"))
		v.Set("asks", ojson.NewArray(parse(t, `{"id":"a1","status":"open"}`)))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	opened := runCLI(t, node, ref, s.Dir(), "open", id)
	state := opened["state"].(map[string]any)
	if opened["state_version"].(float64) != 2 || state["current_state"] != "tp was here" || state["asks"] == nil {
		t.Errorf("the reference opened %v", opened)
	}
	listed := runCLI(t, node, ref, s.Dir(), "list")
	if listed["count"].(float64) != 1 {
		t.Errorf("the reference lists %v", listed)
	}

	// The reference saves version 3 over tp's; a stale save from the
	// reference reports the conflict in its own words.
	saveScript := `import { createDirectoryPassportProvider } from 'REF/store.js'
const [dir, id, expected] = process.argv.slice(2)
const p = createDirectoryPassportProvider({ directory: dir, lockTimeoutMs: 300 })
const { state } = await p.open(id)
state.from_reference = true
try { const saved = await p.save(state, Number(expected)); console.log(JSON.stringify(saved)) }
catch (e) { console.error(e.message); process.exit(3) }
`
	if _, err := runNode(t, node, ref, saveScript, false, s.Dir(), id, "2"); err != nil {
		t.Fatal(err)
	}
	st, err = s.Get(id)
	if err != nil || st.Version != 3 || st.V.Get("from_reference").Kind() != ojson.Bool || st.V.Get("created_at").Text() != created["state"].(map[string]any)["created_at"] {
		t.Errorf("after the reference's save: %+v %v", st, err)
	}
	msg, err := runNode(t, node, ref, saveScript, true, s.Dir(), id, "2")
	if err == nil || !strings.Contains(msg, "expected task passport version 2, found 3") {
		t.Errorf("reference stale save: %v %s", err, msg)
	}

	// tp's lock holds the reference off; tp's lock body is one it can read.
	lock := s.Path(id) + ".lock"
	if err := createLock(lock, s.now()); err != nil {
		t.Fatal(err)
	}
	msg, err = runNode(t, node, ref, saveScript, true, s.Dir(), id, "3")
	if err == nil || !strings.Contains(msg, "busy") {
		t.Errorf("the reference saved through tp's lock: %v %s", err, msg)
	}
	os.Remove(lock)

	// A passport tp creates is listed by the reference.
	v, err := s.Create("Made by tp", "Interop back", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	listed = runCLI(t, node, ref, s.Dir(), "list")
	if listed["count"].(float64) != 2 {
		t.Errorf("the reference lists %v after tp created %s", listed, v.Get("id").Text())
	}
	opened = runCLI(t, node, ref, s.Dir(), "open", v.Get("id").Text())
	if opened["state"].(map[string]any)["title"] != "Made by tp" {
		t.Errorf("reference open: %v", opened)
	}
}

// Saving the same state with the same clock gives the same bytes in both.
func TestInteropSaveBytesIdentical(t *testing.T) {
	t.Parallel()
	node, ref := reference(t)
	state := `{"10":"idx","spec":"2origin/0.1","id":"TP-BYTE-0001","title":"ünïcode \u2028 \"q\" </script>","n":[1e21,1e-7,0.1,-0],"created_at":"","nested":{"b":{},"a":[]},"ctl":"\u0001\t"}`
	fixed := "2026-04-05T06:07:08Z"
	script := `import { createDirectoryPassportProvider } from 'REF/store.js'
Date.prototype.toISOString = () => '` + strings.TrimSuffix(fixed, "Z") + `.000Z'
const [dir, json, expected] = process.argv.slice(2)
const p = createDirectoryPassportProvider({ directory: dir })
const saved = await p.save(JSON.parse(json), Number(expected))
`
	for _, expected := range []int64{0, 1} {
		nodeDir, tpDir := t.TempDir(), t.TempDir()
		if expected == 1 {
			prior := `{"id":"TP-BYTE-0001","version":1,"created_at":"2001-01-01T00:00:00Z"}`
			writeFile(t, filepath.Join(nodeDir, "TP-BYTE-0001.json"), prior)
			writeFile(t, filepath.Join(tpDir, "TP-BYTE-0001.json"), prior)
		}
		runNode(t, node, ref, script, false, nodeDir, state, strconv.FormatInt(expected, 10))
		s, _ := Open(tpDir)
		s.Now = fixedClock(fixed)
		if _, err := s.Save(parse(t, state), expected); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(filepath.Join(nodeDir, "TP-BYTE-0001.json"))
		b, _ := os.ReadFile(filepath.Join(tpDir, "TP-BYTE-0001.json"))
		if string(a) != string(b) {
			t.Errorf("expected_version %d: reference wrote\n%s\ntp wrote\n%s", expected, a, b)
		}
	}
}

// A stale lock left by a dead tp process is retired by the reference, and
// one left by a dead reference process is retired by tp.
func TestInteropStaleLockFromEitherSide(t *testing.T) {
	t.Parallel()
	node, ref := reference(t)
	s := newStore(t)
	v, err := s.Create("t", "g", CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := v.Get("id").Text()
	lock := s.Path(id) + ".lock"
	script := `import { createDirectoryPassportProvider } from 'REF/store.js'
const [dir, id, expected] = process.argv.slice(2)
const p = createDirectoryPassportProvider({ directory: dir, lockTimeoutMs: 300 })
const { state } = await p.open(id)
await p.save(state, Number(expected))
`
	// tp's lock body, dead pid, old: the reference retires it.
	writeFile(t, lock, strings.Replace(`{"pid":PID,"created_at":"2020-01-01T00:00:00.000Z"}`, "PID", strconv.Itoa(deadPID(t)), 1))
	ageFile(t, lock)
	runNode(t, node, ref, script, false, s.Dir(), id, "1")

	// The reference's lock body, dead pid, old: tp retires it.
	holder := `import { open } from 'node:fs/promises'
const h = await open(process.argv[2], 'wx', 0o600)
await h.writeFile(JSON.stringify({ pid: process.pid, created_at: new Date().toISOString() }))
await h.close()
`
	runNode(t, node, ref, holder, false, lock)
	ageFile(t, lock)
	s.LockTimeout = 300 * time.Millisecond
	st, _ := s.Get(id)
	if _, err := s.Save(st.V, st.Version); err != nil {
		t.Errorf("tp did not retire the reference's stale lock: %v", err)
	}
}

func ageFile(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	old := info.ModTime().Add(-31 * time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

// A passport the reference landed from its own pack (asks, landing checks
// without a status) is read by tp, answered and attested here, and opened
// again by the reference with tp's fields in place.
func TestInteropReferenceLandedPassport(t *testing.T) {
	t.Parallel()
	node, ref := reference(t)
	a, b := newStore(t), newStore(t)
	created := runCLI(t, node, ref, a.Dir(), "new", "--title", "Sender", "--goal", "Send work")
	id := created["passport_id"].(string)
	pack := filepath.Join(t.TempDir(), "x.taskpack")
	runCLI(t, node, ref, a.Dir(), "pack", id, "--out", pack,
		"--ask", "Which delimiter?|one character|locale", "--check", "Go installed|go version")
	landed := runCLI(t, node, ref, b.Dir(), "land", pack)
	lid := landed["passport_id"].(string)

	entries, skipped, err := b.List()
	if err != nil || len(skipped) != 0 || len(entries) != 1 || entries[0].ID != lid {
		t.Fatalf("tp lists %+v %v %v", entries, skipped, err)
	}
	if entries[0].OpenAsks != 1 || entries[0].PendingChecks != 1 {
		t.Errorf("reference-landed passport: %d open asks, %d pending checks; want 1 and 1", entries[0].OpenAsks, entries[0].PendingChecks)
	}
	out, err := b.Update(lid, func(v *ojson.Value) error {
		if err := AnswerAsk(v, "a1", ";", "bo@box", time.Now()); err != nil {
			return err
		}
		return SetCheck(v, "c1", "passed", "bo@box", time.Now())
	})
	if err != nil {
		t.Fatal(err)
	}
	opened := runCLI(t, node, ref, b.Dir(), "open", lid)
	state := opened["state"].(map[string]any)
	ask := state["asks"].([]any)[0].(map[string]any)
	check := state["landing_checks"].([]any)[0].(map[string]any)
	v, _ := out.Get("version").Int()
	if ask["status"] != "answered" || ask["answer"] != ";" || check["status"] != "passed" || opened["state_version"].(float64) != float64(v) {
		t.Errorf("the reference reads ask %v check %v version %v", ask, check, opened["state_version"])
	}
}
