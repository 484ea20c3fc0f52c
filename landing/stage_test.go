package landing

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/store"
)

func stageIt(t *testing.T, path string, st *store.Store) (*Plan, *Staged, func(Decisions) (*Landed, error)) {
	t.Helper()
	p := openPack(t, path)
	pl, err := PlanLanding(context.Background(), p, st, envOn("laptop", "bob"))
	if err != nil {
		t.Fatal(err)
	}
	sg, err := Stage(context.Background(), p, pl, st, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return pl, sg, func(d Decisions) (*Landed, error) {
		d.Staged = sg
		return Land(context.Background(), p, pl, st, d)
	}
}

// The luggage is unpacked before the landing, where checks can read it;
// landing moves that folder into place and records when the check ran.
func TestStageThenLand(t *testing.T) {
	st := testStore(t)
	path := flatPack(t, handObj, attachment("notes/brief.md", "hello\n"))
	pl, sg, land := stageIt(t, path, st)
	b, err := os.ReadFile(filepath.Join(sg.Dir, "notes", "brief.md"))
	if err != nil || string(b) != "hello\n" {
		t.Fatalf("staged file: %q %v", b, err)
	}
	if _, err := os.Stat(st.FilesDir(pl.ID)); !os.IsNotExist(err) {
		t.Fatal("staging wrote the files folder before the landing")
	}
	ran := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ld, err := land(Decisions{CheckStatus: map[string]string{"c1": "passed"},
		CheckRuns: map[string]CheckRun{"c1": {Command: "cat notes/brief.md", Exit: 0, At: ran}}})
	if err != nil {
		t.Fatal(err)
	}
	if ld.FilesDir != st.FilesDir(pl.ID) || len(ld.Files) != 1 || ld.Files[0] != filepath.Join(ld.FilesDir, "notes", "brief.md") {
		t.Fatalf("landed %+v", ld)
	}
	if b, err := os.ReadFile(ld.Files[0]); err != nil || string(b) != "hello\n" {
		t.Fatalf("landed file: %q %v", b, err)
	}
	if _, err := os.Stat(sg.Dir); !os.IsNotExist(err) {
		t.Fatal("the staging folder is still there after landing")
	}
	raw, _ := os.ReadFile(st.Path(ld.ID))
	if !strings.Contains(string(raw), "2026-01-02T03:04:05Z") {
		t.Fatalf("run.ran_at is not when the check ran:\n%s", raw)
	}
	if err := sg.Abort(); err != nil {
		t.Fatalf("Abort after landing: %v", err)
	}
	if _, err := os.Stat(ld.Files[0]); err != nil {
		t.Fatal("Abort after landing removed the landed luggage")
	}
}

// Leaving without landing leaves nothing: Abort removes the staged folder,
// and the store is as it was before staging.
func TestStageAbortLeavesNothing(t *testing.T) {
	st := testStore(t)
	os.MkdirAll(st.Dir(), 0o700)
	before := snapshot(t, st.Dir())
	path := flatPack(t, handObj, attachment("a.txt", "x"))
	_, sg, _ := stageIt(t, path, st)
	if err := sg.Abort(); err != nil {
		t.Fatal(err)
	}
	sameSnapshot(t, before, snapshot(t, st.Dir()))
}

// A cancelled staging leaves nothing either.
func TestStageCancelMidway(t *testing.T) {
	st := testStore(t)
	os.MkdirAll(st.Dir(), 0o700)
	big := strings.Repeat("0123456789abcdef", 3<<16)
	path := flatPackAllowLarge(t, big)
	p := openPack(t, path)
	pl, err := PlanLanding(context.Background(), p, st, envOn("x", "y"))
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st.Dir())
	ctx, cancel := context.WithCancel(context.Background())
	_, err = Stage(ctx, p, pl, st, "", func(done, total int64) {
		if done > 0 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	sameSnapshot(t, before, snapshot(t, st.Dir()))
}

// A pack without luggage stages an empty folder (its checks still run in a
// folder of their own) and lands with no files folder.
func TestStageWithoutLuggage(t *testing.T) {
	st := testStore(t)
	path := flatPack(t, handObj)
	pl, sg, land := stageIt(t, path, st)
	if fi, err := os.Stat(sg.Dir); err != nil || !fi.IsDir() {
		t.Fatalf("no staging folder: %v", err)
	}
	ld, err := land(Decisions{})
	if err != nil {
		t.Fatal(err)
	}
	if ld.FilesDir != "" {
		t.Errorf("files dir %q for a pack with no luggage", ld.FilesDir)
	}
	if _, err := os.Stat(st.FilesDir(pl.ID)); !os.IsNotExist(err) {
		t.Error("an empty files folder was left")
	}
	if _, err := os.Stat(sg.Dir); !os.IsNotExist(err) {
		t.Error("the staging folder was left")
	}
}

// A landing that moved the staged luggage into place and then could not
// save the passport puts the luggage back in staging: landing again works
// (issue 10), with or without luggage, and nothing is left in between.
func TestStagedLandRetryAfterSaveFails(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
	}{
		{"with luggage", []string{attachment("notes/brief.md", "hello\n")}},
		{"without luggage", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := testStore(t)
			path := flatPack(t, handObj, tc.files...)
			pl, sg, land := stageIt(t, path, st)
			// Something already at the passport's path: the save fails.
			if err := os.WriteFile(st.Path(pl.ID), []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := land(Decisions{}); err == nil {
				t.Fatal("landed over an existing passport file")
			}
			if _, err := os.Stat(st.FilesDir(pl.ID)); !os.IsNotExist(err) {
				t.Fatalf("the files folder is left after a failed landing: %v", err)
			}
			if fi, err := os.Stat(sg.Dir); err != nil || !fi.IsDir() {
				t.Fatalf("the staged luggage is gone after a failed landing: %v", err)
			}
			os.Remove(st.Path(pl.ID))
			ld, err := land(Decisions{})
			if err != nil {
				t.Fatalf("landing again: %v", err)
			}
			if len(tc.files) > 0 {
				if b, err := os.ReadFile(filepath.Join(ld.FilesDir, "notes", "brief.md")); err != nil || string(b) != "hello\n" {
					t.Fatalf("landed file: %q %v", b, err)
				}
			} else if _, err := os.Stat(st.FilesDir(pl.ID)); !os.IsNotExist(err) {
				t.Fatal("an empty files folder was left")
			}
			if _, err := os.Stat(sg.Dir); !os.IsNotExist(err) {
				t.Fatal("the staging folder is still there after landing")
			}
		})
	}
}
