package mcp_test

import (
	"os"
	"os/exec"
	"testing"
)

// TestNodeRoundTrip drives `tp mcp` as a task-passport harness does, from
// node: raw JSON-RPC over stdio with the reference's tool calls and result
// reading (testdata/roundtrip.mjs). With TP_REFERENCE_DIR set, the script
// also compares the seven tools with the reference's own declarations.
// Skipped where node is not installed.
func TestNodeRoundTrip(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	cmd := exec.Command(node, "testdata/roundtrip.mjs")
	cmd.Env = append(os.Environ(), "TP_BIN="+tpBin, "WORK="+t.TempDir())
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("node testdata/roundtrip.mjs: %v", err)
	}
}
