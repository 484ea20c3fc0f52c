package actsession

import (
	"context"
	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/acts/recordlog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Records that appear together — a whole project folder moved into the
// log, as a pull or a sync tool does — are reported raise first, whatever
// their file names say (a claim's "c:…" sorts before a raise's "r:…").
func TestWatchReportsFilesFoundTogetherInOrder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	l := recordlog.OpenLog(filepath.Join(root, "acts"))
	staging := recordlog.OpenLog(filepath.Join(root, "elsewhere"))
	key := acts.DeriveKey("garden", "Renew the domain")
	base := acts.Record{PH: "0.3", Ext: "acts/0.3", Key: key, Project: "garden", TS: "2026-12-01T10:00:00Z"}
	raised := base
	raised.ID, raised.Type, raised.Origin, raised.By, raised.Terms, raised.TermsRev = acts.RaisedID(key), acts.TypeRaised, "requester", "registrar:garden", &acts.Terms{Text: "Renew the domain"}, 1
	claimed := base
	claimed.ID, claimed.Type, claimed.Origin, claimed.By, claimed.Outcome, claimed.Evidence = "c:x", acts.TypeClaimed, "agent", "agent:7", "done", &acts.Evidence{Basis: "paid"}
	for _, r := range []acts.Record{claimed, raised} {
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
		done <- Watch(ctx, l, WatchRequest{
			Types: map[string]bool{acts.TypeRaised: true, acts.TypeClaimed: true},
			Ready: func() { close(ready) },
			Emit: func(r acts.Record, _ []byte) error {
				got = append(got, r.Type)
				if len(got) == 2 {
					cancel()
				}
				return nil
			},
		})
	}()
	<-ready
	if err := os.Rename(filepath.Join(staging.Dir, recordlog.EncodeName("garden")), filepath.Join(l.Dir, recordlog.EncodeName("garden"))); err != nil {
		t.Fatal(err)
	}
	<-done
	if len(got) != 2 || got[0] != acts.TypeRaised || got[1] != acts.TypeClaimed {
		t.Fatalf("reported %v, want [raised claimed]", got)
	}
}
