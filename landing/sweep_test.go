package landing

import (
	"errors"
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
