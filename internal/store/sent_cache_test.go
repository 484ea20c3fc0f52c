package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sentWorld is a store with a record of one pack sent from passport id,
// and the record's clock an hour after the file's own stamps (so the racy
// rule allows remembering it).
func sentWorld(t *testing.T) (*Store, string) {
	t.Helper()
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := MintID()
	if err := st.RecordSent(id, SentPack{Version: 1, Kind: "handoff", PackedAt: "2026-12-02T10:00:00Z", ContentSHA256: "aa"}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(st.SentPath(id))
	if err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(time.Hour)
	st.sent.Clock = func() time.Time { return later }
	return st, id
}

func sentVersion(t *testing.T, st *Store, id string) int64 {
	t.Helper()
	packs, ok, err := st.Sent(id)
	if err != nil || !ok || len(packs) != 1 {
		t.Fatalf("Sent: %v %v %v", packs, ok, err)
	}
	return packs[0].Version
}

// TestSentRemembered: a record read again unchanged is not read again, and
// what a caller does to the packs it got does not change what the next
// caller gets.
func TestSentRemembered(t *testing.T) {
	st, id := sentWorld(t)
	packs, _, _ := st.Sent(id)
	packs[0].Version = 99
	if v := sentVersion(t, st, id); v != 1 || st.sent.Made != 1 {
		t.Fatalf("read again: version %d, %d reads of the file, want 1 and 1", v, st.sent.Made)
	}
}

// TestSentSwapped: a record changed after it was read is read again,
// however the change tries to hide: rewritten in place to the same size
// with its modification time put back (a new change time), or replaced by
// rename under the same size and times (a new inode); and a record the
// store itself rewrites (RecordSent) is seen at once.
func TestSentSwapped(t *testing.T) {
	for _, swap := range []struct {
		name string
		do   func(t *testing.T, st *Store, path string, changed []byte)
	}{
		{"rewritten in place, same size and mtime", func(t *testing.T, _ *Store, path string, changed []byte) {
			fi, _ := os.Stat(path)
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt(changed, 0); err != nil {
				t.Fatal(err)
			}
			f.Close()
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced by rename, same size and mtime", func(t *testing.T, _ *Store, path string, changed []byte) {
			fi, _ := os.Stat(path)
			tmp := path + ".new"
			if err := os.WriteFile(tmp, changed, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"changed by the store", func(t *testing.T, st *Store, path string, _ []byte) {
			id := strings.TrimSuffix(filepath.Base(path), ".sent")
			first := SentPack{Version: 1, Kind: "handoff", PackedAt: "2026-12-02T10:00:00Z", ContentSHA256: "aa"}
			if err := st.appendSentLine(id, sentLine{Withdrawn: &first}); err != nil {
				t.Fatal(err)
			}
			if err := st.RecordSent(id, SentPack{Version: 2, Kind: "handoff", PackedAt: "2026-12-02T11:00:00Z", ContentSHA256: "bb"}); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(swap.name, func(t *testing.T) {
			st, id := sentWorld(t)
			time.Sleep(20 * time.Millisecond) // the swap's change time is not the first write's
			if v := sentVersion(t, st, id); v != 1 {
				t.Fatalf("version %d", v)
			}
			body, err := os.ReadFile(st.SentPath(id))
			if err != nil {
				t.Fatal(err)
			}
			changed := bytes.Replace(body, []byte(`"version":1`), []byte(`"version":2`), 1)
			if bytes.Equal(changed, body) {
				t.Fatalf("the record is not written as the test expects: %s", body)
			}
			swap.do(t, st, st.SentPath(id), changed)
			if v := sentVersion(t, st, id); v != 2 {
				t.Fatalf("after the change: version %d: the old record was trusted", v)
			}
		})
	}
}

// TestSentRacy: a record that changed within the timestamp resolution of
// the moment it was read is not remembered.
func TestSentRacy(t *testing.T) {
	st, id := sentWorld(t)
	fi, err := os.Stat(st.SentPath(id))
	if err != nil {
		t.Fatal(err)
	}
	st.sent.Clock = func() time.Time { return fi.ModTime().Add(time.Millisecond) }
	sentVersion(t, st, id)
	sentVersion(t, st, id)
	if st.sent.Made != 2 {
		t.Fatalf("%d reads of a record that had just changed, read twice; want 2", st.sent.Made)
	}
}
