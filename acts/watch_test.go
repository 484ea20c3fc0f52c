package acts

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Records that appear together — a whole project folder moved into the
// log, as a pull or a sync tool does — are reported raise first, whatever
// their file names say (a claim's "c:…" sorts before a raise's "r:…").
func TestWatchReportsFilesFoundTogetherInOrder(t *testing.T) {
	root := t.TempDir()
	l := OpenLog(filepath.Join(root, "acts"))
	staging := OpenLog(filepath.Join(root, "elsewhere"))
	key := DeriveKey("garden", "Renew the domain")
	base := Record{PH: "0.3", Ext: "acts/0.3", Key: key, Project: "garden", TS: "2026-12-01T10:00:00Z"}
	raised := base
	raised.ID, raised.Type, raised.Origin, raised.By, raised.Terms, raised.TermsRev = RaisedID(key), TypeRaised, "requester", "registrar:garden", &Terms{Text: "Renew the domain"}, 1
	claimed := base
	claimed.ID, claimed.Type, claimed.Origin, claimed.By, claimed.Outcome, claimed.Evidence = "c:x", TypeClaimed, "agent", "agent:7", "done", &Evidence{Basis: "paid"}
	for _, r := range []Record{claimed, raised} {
		if _, err := staging.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var got []string
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- l.Watch(ctx, WatchRequest{
			Types: map[string]bool{TypeRaised: true, TypeClaimed: true},
			Ready: func() { close(ready) },
			Emit: func(r Record, _ []byte) error {
				got = append(got, r.Type)
				if len(got) == 2 {
					cancel()
				}
				return nil
			},
		})
	}()
	<-ready
	if err := os.Rename(filepath.Join(staging.Dir, EncodeName("garden")), filepath.Join(l.Dir, EncodeName("garden"))); err != nil {
		t.Fatal(err)
	}
	<-done
	if len(got) != 2 || got[0] != TypeRaised || got[1] != TypeClaimed {
		t.Fatalf("reported %v, want [raised claimed]", got)
	}
}
