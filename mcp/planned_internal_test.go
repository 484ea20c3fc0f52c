package mcp

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// plannedWorld is judgeWorld with the flat example pack beside the bag: a
// flat pack's title can be changed without breaking a digest, so a swap
// leaves a pack that still lands, under another title.
func plannedWorld(t *testing.T) (*Server, string, []byte) {
	t.Helper()
	s, bag, _ := judgeWorld(t)
	body, err := os.ReadFile(filepath.Join("..", "examples", "handoff.taskpack.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(filepath.Dir(bag), "in.taskpack.json")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(time.Hour)
	s.planned.Clock = func() time.Time { return later }
	return s, path, body
}

// dryRun plans landing path through the tool and returns the plan's title.
func dryRun(t *testing.T, s *Server, path string) string {
	t.Helper()
	r, err := s.land(context.Background(), landArgs{Path: path, DryRun: true})
	if err != nil {
		t.Fatalf("dry run: %v", err)
	}
	return r.Title
}

// TestPlannedPackRemembered: a second dry run of an unchanged pack plans
// from the pack as read the first time, and says the same.
func TestPlannedPackRemembered(t *testing.T) {
	s, path, _ := plannedWorld(t)
	first := dryRun(t, s, path)
	if again := dryRun(t, s, path); again != first || s.planned.Made != 1 {
		t.Fatalf("planned again: %q (first %q), %d reads, want the same and 1", again, first, s.planned.Made)
	}
}

// TestPlannedPackSwapped: a pack changed after a dry run planned it is
// read again, however the change tries to hide: a pack that still lands,
// with another title, of the same size, written in place with the
// modification time put back, or renamed over it with the same times.
func TestPlannedPackSwapped(t *testing.T) {
	for _, swap := range packSwaps {
		t.Run(swap.name, func(t *testing.T) {
			s, path, body := plannedWorld(t)
			time.Sleep(20 * time.Millisecond) // the swap's change time is not the first write's
			first := dryRun(t, s, path)
			spoiled := bytes.Replace(body, []byte("Prepare the Q4 board deck"), []byte("Prepare the Q5 board deck"), 1)
			if bytes.Equal(spoiled, body) {
				t.Fatal("the example's title is not where the test looks for it")
			}
			swap.do(t, path, spoiled)
			if again := dryRun(t, s, path); s.planned.Made != 2 || again != "Prepare the Q5 board deck" {
				t.Fatalf("after the swap: title %q (before %q), %d reads: the old pack was trusted", again, first, s.planned.Made)
			}
		})
	}
}

// TestPlannedPackRacy: a pack that changed within the timestamp
// resolution of the moment it was read is not remembered.
func TestPlannedPackRacy(t *testing.T) {
	s, path, _ := plannedWorld(t)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	s.planned.Clock = func() time.Time { return fi.ModTime().Add(time.Millisecond) }
	dryRun(t, s, path)
	dryRun(t, s, path)
	if s.planned.Made != 2 {
		t.Fatalf("%d reads of a pack that had just changed, want 2", s.planned.Made)
	}
}

// TestPlannedPackLandsFresh: the landing after a dry run reads the file
// again, so a pack swapped between the two lands as it is now (here:
// refused, its bytes no longer matching their digests), never as the dry
// run saw it; and a dry run repeated after the landing says it landed.
func TestPlannedPackLandsFresh(t *testing.T) {
	s, bag, body := judgeWorld(t)
	s.planned.Clock = s.judged.Clock
	if _, err := s.land(context.Background(), landArgs{Path: bag, DryRun: true}); err != nil {
		t.Fatal(err)
	}
	// Spoiled under the same stamp as far as the cache could tell: the
	// landing must not ask it.
	spoiled := append([]byte{}, body...)
	spoiled[len(spoiled)/2] ^= 0x20
	if err := os.WriteFile(bag, spoiled, 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := s.land(context.Background(), landArgs{Path: bag}); err == nil {
		t.Fatalf("a spoiled pack landed as %v", r.PassportID)
	}
	if err := os.WriteFile(bag, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.land(context.Background(), landArgs{Path: bag}); err != nil {
		t.Fatal(err)
	}
	r, err := s.land(context.Background(), landArgs{Path: bag, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Plan.AlreadyLandedAs == "" {
		t.Fatal("a dry run after the landing does not say the pack landed: the store was not asked again")
	}
}
