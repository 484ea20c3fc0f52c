package landing

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/owner"
)

// A landing killed with -9 leaves its staging folder; the next landing
// removes it at once when its owner is gone from this host (issue 11), and
// leaves a live landing's folder and another host's alone.
func TestSweepDeadLandingsAtOnce(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	host, _, _ := strings.Cut(owner.Tag(), "-")
	dead := host + "-" + strconv.Itoa(cmd.Process.Pid)
	st := testStore(t)
	if err := os.MkdirAll(st.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	deadDir := filepath.Join(st.Dir(), ".TP-DEAD-DEAD.files.landing-"+dead+"-aaaa")
	live := filepath.Join(st.Dir(), ".TP-LIVE-LIVE.files.landing-"+owner.Tag()+"-bbbb")
	other := filepath.Join(st.Dir(), ".TP-OTHR-OTHR.files.landing-0badf00d-"+strconv.Itoa(cmd.Process.Pid)+"-cccc")
	for _, d := range []string{deadDir, live, other} {
		if err := os.MkdirAll(filepath.Join(d, "x"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	landIt(t, flatPack(t, handObj, attachment("a.txt", "A")), st, envOn("x", "y"), Decisions{})
	if _, err := os.Stat(deadDir); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the staging folder of a dead landing was kept")
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s removed: %v", filepath.Base(d), err)
		}
	}
}

// A landing killed between moving its luggage into place and saving its
// passport leaves <id>.files with no <id>.json, and its lock; the next
// landing removes both — unless another landing is under way, whose files
// folder looks the same for a moment (issue 11).
func TestSweepOrphanFilesFolder(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	deadLock := fmt.Sprintf(`{"pid":%d,"created_at":"x","host":%q}`, cmd.Process.Pid, owner.Host())
	liveLock := fmt.Sprintf(`{"pid":%d,"created_at":"x","host":%q}`, os.Getpid(), owner.Host())
	for _, c := range []struct {
		name      string
		otherLock string // another landing's lock body, "" for none
		swept     bool
	}{
		{"no other landing", "", true},
		{"a dead landing's lock", deadLock, true},
		{"a live landing under way", liveLock, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := testStore(t)
			if err := os.MkdirAll(filepath.Join(st.FilesDir("TP-ORPH-AAAA"), "x"), 0o700); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(st.Path("TP-ORPH-AAAA")+".lock", []byte(deadLock), 0o600)
			if c.otherLock != "" {
				os.WriteFile(filepath.Join(st.Dir(), "landing-0123456789abcdef.lock"), []byte(c.otherLock), 0o600)
			}
			landIt(t, flatPack(t, handObj, attachment("a.txt", "A")), st, envOn("x", "y"), Decisions{})
			_, err := os.Stat(st.FilesDir("TP-ORPH-AAAA"))
			if gone := errors.Is(err, fs.ErrNotExist); gone != c.swept {
				t.Fatalf("orphan files folder removed = %v, want %v", gone, c.swept)
			}
			if _, err := os.Stat(st.Path("TP-ORPH-AAAA") + ".lock"); !errors.Is(err, fs.ErrNotExist) {
				t.Fatal("a dead save's lock was kept")
			}
		})
	}
}
