//go:build unix

package cli

import (
	"bytes"
	"crypto/rand"
	"fmt"
	mrand "math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

type tpRunner struct {
	t   *testing.T
	bin string
	env []string
	dir string
}

func (r tpRunner) cmd(args ...string) *exec.Cmd {
	c := exec.Command(r.bin, args...)
	c.Env, c.Dir = r.env, r.dir
	return c
}

func (r tpRunner) run(args ...string) (string, error) {
	var out bytes.Buffer
	c := r.cmd(args...)
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	return out.String(), err
}

// killAt starts tp and kills it with SIGKILL after d (or lets it finish
// first); it reports whether the kill landed before the end.
func (r tpRunner) killAt(d time.Duration, args ...string) bool {
	c := r.cmd(args...)
	if err := c.Start(); err != nil {
		r.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	select {
	case <-done:
		return false
	case <-time.After(d):
		c.Process.Signal(syscall.SIGKILL)
		<-done
		return true
	}
}

// leftovers lists what a killed run may leave and a later run must not:
// staging folders, temporary files, store locks, a files folder without
// its passport.
func leftovers(t *testing.T, roots ...string) []string {
	var out []string
	for _, root := range roots {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			n := d.Name()
			switch {
			case strings.Contains(n, ".landing-"), strings.HasPrefix(n, ".tmp-"),
				strings.HasSuffix(n, ".lock") && n != ".registrar.lock", strings.Contains(n, ".stale-"):
				out = append(out, p)
			case d.IsDir() && strings.HasSuffix(n, ".files") && filepath.Dir(p) == root:
				if _, err := os.Stat(strings.TrimSuffix(p, ".files") + ".json"); err != nil {
					out = append(out, p+" (no passport)")
				}
			}
			return nil
		})
	}
	return out
}

// Issue 11: kill -9 of a landing or of a sync at random points; the next run
// succeeds at once and leaves nothing behind. The kill points are random
// (the seed is logged), spread over the time one whole run takes.
func TestKilledLandingAndSyncLeaveNothingBehind(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills tp many times")
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rnd := mrand.New(mrand.NewSource(seed))
	work := t.TempDir()
	r := tpRunner{t: t, bin: tpBinary(t), dir: work}
	r.env = append(os.Environ(), "TP_STORE="+filepath.Join(work, "home"), "TP_ACTS="+filepath.Join(work, "acts"),
		"TP_MACHINE=crashbox", "TP_ACTOR=crash", "NO_COLOR=1", "HOME="+work)

	// A pack with enough luggage that a landing takes a while.
	out, err := r.run("new", "--title", "Crash", "--goal", "Survive kill -9", "--plain")
	if err != nil {
		t.Fatalf("new: %v %s", err, out)
	}
	id := ""
	for _, f := range strings.Fields(out) {
		if strings.HasPrefix(f, "TP-") {
			id = strings.Trim(f, ".,:")
			break
		}
	}
	if id == "" {
		t.Fatalf("no id in %q", out)
	}
	args := []string{"pack", id, "--out", filepath.Join(work, "crash.taskpack"), "--plain"}
	for i := 0; i < 24; i++ {
		b := make([]byte, 512<<10)
		rand.Read(b)
		p := filepath.Join(work, fmt.Sprintf("lug%02d.bin", i))
		os.WriteFile(p, b, 0o644)
		args = append(args, "--file", p)
	}
	if out, err := r.run(args...); err != nil {
		t.Fatalf("pack: %v %s", err, out)
	}
	landStore := filepath.Join(work, "landed")
	landEnv := append(append([]string(nil), r.env...), "TP_STORE="+landStore)
	lr := r
	lr.env = landEnv

	start := time.Now()
	if out, err := lr.run("land", "crash.taskpack", "--plain", "--again"); err != nil {
		t.Fatalf("a whole landing: %v %s", err, out)
	}
	whole := time.Since(start)
	killed := 0
	for i := 0; i < 8; i++ {
		if lr.killAt(time.Duration(rnd.Int63n(int64(whole)+1)), "land", "crash.taskpack", "--plain", "--again") {
			killed++
		}
		before := time.Now()
		if out, err := lr.run("land", "crash.taskpack", "--plain", "--again"); err != nil {
			t.Fatalf("landing after a kill: %v %s", err, out)
		}
		if waited := time.Since(before); waited > 20*time.Second {
			t.Logf("the landing after a kill took %v", waited) // a stale lock held it up
		}
		if l := leftovers(t, landStore); len(l) > 0 {
			t.Fatalf("after kill %d and a landing: left %v", i, l)
		}
	}

	// The registrar: a document of many principal lines.
	var doc strings.Builder
	doc.WriteString("# Crash\n\n## Tasks\n\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&doc, "- [ ] [owner] Sign form %d for the crash test\n", i)
	}
	docPath := filepath.Join(work, "STATE.md")
	write := func() { os.WriteFile(docPath, []byte(doc.String()), 0o644) }
	write()
	start = time.Now()
	if out, err := r.run("acts", "sync", "STATE.md", "--project", "crash0", "--plain"); err != nil {
		t.Fatalf("a whole sync: %v %s", err, out)
	}
	whole = time.Since(start)
	for i := 0; i < 8; i++ {
		write()
		project := fmt.Sprintf("crash%d", i+1)
		if r.killAt(time.Duration(rnd.Int63n(int64(whole)+1)), "acts", "sync", "STATE.md", "--project", project, "--plain") {
			killed++
		}
		if out, err := r.run("acts", "sync", "STATE.md", "--project", project, "--plain"); err != nil {
			t.Fatalf("sync after a kill: %v %s", err, out)
		}
		if out, err := r.run("acts", "lint", "STATE.md"); err != nil {
			t.Fatalf("the document after a killed sync: %v %s", err, out)
		}
		if l := leftovers(t, filepath.Join(work, "acts")); len(l) > 0 {
			t.Fatalf("after kill %d and a sync: left %v", i, l)
		}
	}
	t.Logf("%d of 16 runs were killed before they ended", killed)
}
