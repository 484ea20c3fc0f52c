package actsession

import (
	"context"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A task line longer than MaxTaskTextBytes is reported as malformed and
// never raised: its record would be larger than the reader takes, and the
// act would vanish (issue 11). At the limit, even with every byte escaped
// in JSON, the record is written and read back.
func TestOverlongTaskLineIsNeverRaised(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l := recordlog.OpenLog(filepath.Join(dir, "acts"))
	prof := enProfile(t)
	run := func(text string) *SyncReport {
		t.Helper()
		doc := filepath.Join(dir, "STATE.md")
		if err := os.WriteFile(doc, []byte("## Tasks\n\n- [ ] [owner] "+text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := Sync(context.Background(), l, SyncRequest{Document: doc, Project: "p", Profile: prof, Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}

	long := "a" + strings.Repeat("b", 1<<20)
	rep := run(long)
	if len(rep.Sent) != 0 {
		t.Fatalf("an over-long line was raised: %d records", len(rep.Sent))
	}
	probs, err := acts.Lint([]byte("## Tasks\n- [ ] [owner] "+long+"\n"), prof)
	if err != nil || len(probs) != 1 || !strings.Contains(probs[0].Reason, "more than the 65536 a task line may hold") {
		t.Fatalf("lint: %v %v", probs, err)
	}

	// Every byte escaped (\u0001 is six bytes in JSON): still a record the
	// reader takes.
	edge := "a" + strings.Repeat("\x01", acts.MaxTaskTextBytes-1)
	rep = run(edge)
	if len(rep.Sent) != 1 {
		t.Fatalf("a line at the limit: %d records sent", len(rep.Sent))
	}
	ld, err := l.Load("p")
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Records) != 1 || len(ld.Problems) != 0 {
		t.Fatalf("the record at the limit did not read back: %d records, problems %v", len(ld.Records), ld.Problems)
	}
}

// The log never writes a record its reader would skip.
func TestLogRefusesRecordsReadersSkip(t *testing.T) {
	t.Parallel()
	l := recordlog.OpenLog(filepath.Join(t.TempDir(), "acts"))
	r := raisedRecord(acts.DeriveKey("demo", "x"), strings.Repeat("x", recordlog.MaxRecordFile))
	if _, err := l.WriteRecord(r); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Fatalf("write of an oversized record: %v", err)
	}
	if ents, _ := os.ReadDir(l.RecordsDir("demo")); len(ents) != 0 {
		t.Fatalf("left %d files", len(ents))
	}
}
