package landing

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// deferBag is a bag whose luggage file "a.txt" holds other bytes than the
// manifest vouches for; every tag file is right, so only reading the
// luggage can tell.
func deferBag(t *testing.T) string {
	t.Helper()
	obj := packtest.RefObject(t)
	good := []byte("what the manifest vouches for\n")
	b := packtest.RawBag(t, ojson.Canonical(obj), []file{{Name: "a.txt", Data: good}}, func(entries *[]file) {
		for i, e := range *entries {
			if e.Name == "data/files/a.txt" {
				(*entries)[i].Data = []byte("WHAT THE MANIFEST VOUCHES FOR\n") // same size: Oxum agrees
			}
		}
	})
	path := filepath.Join(t.TempDir(), "corrupt.taskpack")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDeferLuggage(t *testing.T) {
	path := deferBag(t)

	// Verified up front (the default): Open refuses.
	if _, err := pack.Open(path, pack.Options{}); err == nil {
		t.Fatal("Open accepted luggage that does not match its digest")
	}
	// Strict ignores DeferLuggage: judging reads every byte.
	if _, err := pack.Open(path, pack.Options{Strict: true, DeferLuggage: true}); err == nil {
		t.Fatal("a strict Open deferred the luggage check")
	}

	// Deferred: Open succeeds and says so; the plan does not claim the
	// bytes were verified; landing fails and leaves nothing behind.
	p, err := pack.Open(path, pack.Options{DeferLuggage: true})
	if err != nil {
		t.Fatalf("deferred Open: %v", err)
	}
	defer p.Close()
	if p.LuggageVerified {
		t.Error("LuggageVerified is true although no luggage byte was read")
	}
	st := testStore(t)
	pl, err := PlanLanding(context.Background(), p, st, envOn("m", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	if pl.Integrity.Verified {
		t.Error("the plan claims verified luggage")
	}
	before := snapshot(t, st.Dir())
	_, err = Land(context.Background(), p, pl, st, Decisions{})
	var pe *pack.Error
	if !errors.As(err, &pe) || pe.Rule != pack.RuleDigest {
		t.Fatalf("Land = %v, want a %s error", err, pack.RuleDigest)
	}
	sameSnapshot(t, before, snapshot(t, st.Dir()))
}

// Deferring the digests does not defer the structure: a payload file the
// manifest does not list is still refused at Open.
func TestDeferLuggageStillChecksManifest(t *testing.T) {
	obj := packtest.RefObject(t)
	b := packtest.RawBag(t, ojson.Canonical(obj), []file{{Name: "a.txt", Data: []byte("a")}}, func(entries *[]file) {
		*entries = append(*entries, file{Name: "data/files/stowaway.txt", Data: []byte("nobody vouched")})
	})
	path := filepath.Join(t.TempDir(), "stowaway.taskpack")
	os.WriteFile(path, b, 0o600)
	_, err := pack.Open(path, pack.Options{DeferLuggage: true})
	var pe *pack.Error
	if !errors.As(err, &pe) || pe.Rule != pack.RuleUnlisted {
		t.Fatalf("Open = %v, want %s", err, pack.RuleUnlisted)
	}
}
