package mcp

import (
	"testing"
	"time"
)

// A default wait returns before the 60 s most clients give a request
// (the TypeScript SDK's default, not reset by progress unless asked), and
// a wait with a progressToken says it is alive several times a minute.
func TestWaitDefaultsUnderClientTimeouts(t *testing.T) {
	t.Parallel()
	const clientTimeout = 60 * time.Second
	if defaultWait >= clientTimeout-10*time.Second {
		t.Errorf("default wait %v: not safely under a %v request timeout", defaultWait, clientTimeout)
	}
	if progressEvery > 10*time.Second || progressEvery >= defaultWait {
		t.Errorf("progress every %v: too rare for a client that resets its timeout on progress", progressEvery)
	}
}
