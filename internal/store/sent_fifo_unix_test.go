//go:build unix

package store

import (
	"errors"
	"syscall"
	"testing"
)

// A record of packs sent that is a FIFO is refused at once, as the store
// refuses any file that is not regular (D15): appending neither waits on
// it nor writes into it.
func TestRecordSentRefusesAFIFO(t *testing.T) {
	t.Parallel()
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := MintID()
	if err := syscall.Mkfifo(st.SentPath(id), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	err = st.RecordSent(id, SentPack{Version: 1, Kind: "handoff", PackedAt: "2026-12-02T10:00:00Z", ContentSHA256: "aa"})
	var nr *NotRegularError
	if !errors.As(err, &nr) {
		t.Fatalf("err = %v, want a *NotRegularError", err)
	}
}
