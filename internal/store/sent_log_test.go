package store

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
)

// The record of packs sent is a log (D6, D18): parseSent folds its lines
// into the packs it names, reads an older tp's array as its first lines,
// skips a line a crash cut short and refuses anything else.
func TestParseSent(t *testing.T) {
	t.Parallel()
	a := `{"version":1,"kind":"handoff","packed_at":"2026-12-02T10:00:00Z","content_sha256":"aa"}`
	b := `{"version":2,"kind":"handoff","packed_at":"2026-12-02T11:00:00Z","content_sha256":"bb"}`
	sealed := `{"version":1,"kind":"handoff","packed_at":"2026-12-02T12:00:00Z","content_sha256":"cc","sealed_to":["SHA256:k"]}`
	cases := []struct {
		name string
		log  string
		want []string // each pack as version/content/signer
		err  bool
	}{
		{"empty", "", []string{}, false},
		{"lines", a + "\n" + b + "\n", []string{"1/aa/", "2/bb/"}, false},
		{"an older tp's array", "[\n  " + a + ",\n  " + b + "\n]\n", []string{"1/aa/", "2/bb/"}, false},
		{"an older tp's array, then lines", "[" + a + "]\n" + b + "\n", []string{"1/aa/", "2/bb/"}, false},
		{"withdrawn", a + "\n" + b + "\n" + `{"withdrawn":` + a + "}\n", []string{"2/bb/"}, false},
		{"named twice, withdrawn once: named once", a + "\n" + a + "\n" + `{"withdrawn":` + a + "}\n", []string{"1/aa/"}, false},
		{"withdrawn names only the same pack", a + "\n" + `{"withdrawn":{"version":1,"kind":"handoff","packed_at":"2026-12-02T10:00:00Z","content_sha256":"zz"}}` + "\n", []string{"1/aa/"}, false},
		{"pinned: the packs before it, not sealed to a key", a + "\n" + sealed + "\n" + `{"pin":{"version":1,"receipt_signer":"SHA256:s"}}` + "\n" + a[:len(a)-1] + `,"packed_at":"2026-12-02T13:00:00Z"}` + "\n",
			[]string{"1/aa/SHA256:s", "1/cc/", "1/aa/"}, false},
		{"the first pin wins", a + "\n" + `{"pin":{"version":1,"receipt_signer":"SHA256:s"}}` + "\n" + `{"pin":{"version":1,"receipt_signer":"SHA256:t"}}` + "\n", []string{"1/aa/SHA256:s"}, false},
		{"the last line cut short", a + "\n" + b[:20], []string{"1/aa/"}, false},
		{"a line cut short, then another", a + "\n" + b[:20] + "\n" + b + "\n", []string{"1/aa/", "2/bb/"}, false},
		{"not a record", a + "\nhello\n", nil, true},
		{"a line of another shape", a + "\n" + `{"version":"one"}` + "\n", nil, true},
		{"a broken array", "[" + a + ",\n", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			packs, err := parseSent([]byte(c.log))
			if (err != nil) != c.err {
				t.Fatalf("err = %v, want an error: %v", err, c.err)
			}
			if c.err {
				return
			}
			got := []string{}
			for _, p := range packs {
				got = append(got, fmt.Sprintf("%d/%s/%s", p.Version, p.ContentSHA256, p.ReceiptSigner))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("packs %v, want %v", got, c.want)
			}
		})
	}
}

// Appenders take no lock and read nothing: packs recorded at once by many
// writers are all in the record, each on its own line; a line after one
// cut short starts on its own line.
func TestRecordSentAppends(t *testing.T) {
	t.Parallel()
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := MintID()
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := st.RecordSent(id, SentPack{Version: int64(i + 1), Kind: "handoff", PackedAt: "2026-12-02T10:00:00Z", ContentSHA256: "aa"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	packs, ok, err := st.readSent(id)
	if err != nil || !ok || len(packs) != n {
		t.Fatalf("%d packs recorded (%v, %v), want %d", len(packs), ok, err, n)
	}
	f, err := os.OpenFile(st.SentPath(id), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"version":99,"ki`) // a crash in the middle of a line
	f.Close()
	if err := st.RecordSent(id, SentPack{Version: 100, Kind: "handoff", PackedAt: "2026-12-02T10:00:00Z", ContentSHA256: "aa"}); err != nil {
		t.Fatal(err)
	}
	if packs, _, err = st.readSent(id); err != nil || len(packs) != n+1 || packs[n].Version != 100 {
		b, _ := os.ReadFile(st.SentPath(id))
		t.Fatalf("after a line cut short: %d packs (%v), want %d, the last version 100; the record:\n%s", len(packs), err, n+1, b)
	}
	if fi, _ := os.Stat(st.SentPath(id)); fi.Mode().Perm() != 0o600 {
		t.Errorf("record mode %v, want 0600", fi.Mode().Perm())
	}
}

// Withdraw takes back only what BeginSent appended.
func TestSentWithdraw(t *testing.T) {
	t.Parallel()
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := MintID()
	kept := SentPack{Version: 1, Kind: "handoff", PackedAt: "2026-12-02T10:00:00Z", ContentSHA256: "aa"}
	if err := st.RecordSent(id, kept); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    SentPack
	}{
		{"a pack named before stays named", kept},
		{"a new pack is taken back", SentPack{Version: 2, Kind: "handoff", PackedAt: "2026-12-02T11:00:00Z", ContentSHA256: "bb"}},
	} {
		w, err := st.BeginSent(id, c.p)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Withdraw(); err != nil {
			t.Fatal(err)
		}
		if err := w.Withdraw(); err != nil { // twice is harmless
			t.Fatal(err)
		}
		packs, _, err := st.Sent(id)
		if err != nil || len(packs) != 1 || !packs[0].same(kept) {
			t.Errorf("%s: the record names %+v (%v), want only %+v", c.name, packs, err, kept)
		}
	}
}
