package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// §4: acknowledge applied records only after the document write is durable.
// When the write fails (here: an agent edited the document meanwhile), the
// settlement stays unacknowledged, so the next run applies it again.
func TestActsSyncNoAckWhenWriteFails(t *testing.T) {
	dir, env := actsEnv(t)
	doc := filepath.Join(dir, "STATE.md")
	os.WriteFile(doc, []byte("## Tasks\n\n- [ ] [owner] Collect the shed key\n"), 0o644)
	if code, _, stderr := runWith(env, "acts", "sync", doc, "--project", "garden"); code != exitOK {
		t.Fatalf("first sync: %d %s", code, stderr)
	}
	stamped, _ := os.ReadFile(doc)
	key := strings.TrimSuffix(strings.SplitN(string(stamped), "waiting on owner: ", 2)[1], ")\n")
	if code, _, stderr := runWith(env, "acts", "settle", key, "--outcome", "done"); code != exitOK {
		t.Fatalf("settle: %d %s", code, stderr)
	}

	old := beforeDocWrite
	defer func() { beforeDocWrite = old }()
	edited := string(stamped) + "- [ ] [agent] Water the seedlings\n"
	beforeDocWrite = func() { os.WriteFile(doc, []byte(edited), 0o644) }
	if code, _, _ := runWith(env, "acts", "sync", doc, "--project", "garden"); code == exitOK {
		t.Fatal("sync succeeded although the document changed under it")
	}
	if got, _ := os.ReadFile(doc); string(got) != edited {
		t.Fatalf("the agent's edit was overwritten:\n%s", got)
	}

	// Not acknowledged: the next run still strikes the line.
	beforeDocWrite = nil
	code, stdout, stderr := runWith(env, "acts", "sync", doc, "--project", "garden")
	if code != exitOK || !strings.Contains(stdout, "applied settled") {
		t.Fatalf("the settlement was acknowledged before the write: %d %q %q", code, stdout, stderr)
	}
	if got, _ := os.ReadFile(doc); strings.Contains(string(got), "Collect the shed key") || !strings.Contains(string(got), "Water the seedlings") {
		t.Fatalf("document after the retry:\n%s", got)
	}
}
