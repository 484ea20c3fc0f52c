package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
)

// FuzzReadState: whatever bytes sit in <id>.json, reading never panics, and
// a file that reads as a passport survives a save and reads back with its
// version advanced by one and every other field but the stamps unchanged.
func FuzzReadState(f *testing.F) {
	for _, seed := range []string{
		`{"id":"F","version":1}`,
		"\ufeff{\"id\":\"F\"}",
		`{"id":"F","version":"2","created_at":0,"x":[1e21,-0,"\ud800"]}`,
		`{"id":"F","id":"F","version":null}`,
		`{"id":"G"}`, `[]`, `{"id":`, `{"id":"F","version":1.5}`, "{\"id\":\"F\",\"t\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "F.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, _ := Open(dir)
		entries, skipped, err := s.List()
		if err != nil || len(entries)+len(skipped) != 1 {
			t.Fatalf("List: %v %v %v", entries, skipped, err)
		}
		st, err := s.Get("F")
		if err != nil {
			if len(skipped) != 1 {
				t.Fatalf("Get failed (%v) but List did not skip the file", err)
			}
			return
		}
		saved, err := s.Save(st.V, st.Version)
		if err != nil {
			t.Fatalf("save of a readable passport: %v", err)
		}
		back, err := s.Get("F")
		if err != nil || back.Version != st.Version+1 {
			t.Fatalf("read back: %+v %v", back, err)
		}
		if string(ojson.Canonical(back.V)) != string(ojson.Canonical(saved)) {
			t.Fatal("stored bytes differ from the saved state")
		}
		for _, m := range st.V.Obj().Members() {
			switch m.Key {
			case "id", "version", "created_at", "updated_at":
				continue
			}
			if string(ojson.Compact(back.V.Get(m.Key))) != string(ojson.Compact(m.Value)) {
				t.Fatalf("field %q changed in a save", m.Key)
			}
		}
	})
}
