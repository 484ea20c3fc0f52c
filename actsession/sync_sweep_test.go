package actsession

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/owner"
)

// A sync killed with -9 while writing leaves records/.tmp-* behind; the next
// sync removes those whose writer is gone from this host, and never a live
// writer's, another host's, or a recent one that names no writer (issue 11).
func TestSyncSweepsTempsOfDeadWriters(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	host, _, _ := strings.Cut(owner.Tag(), "-")
	pid := strconv.Itoa(cmd.Process.Pid)
	l, _, req := syncFixture(t)
	dir := l.RecordsDir(req.Project)
	files := map[string]bool{ // name → should be swept
		".tmp-" + host + "-" + pid + "-0123456789abcdef": true,
		".tmp-" + owner.Tag() + "-0123456789abcdef":      false,
		".tmp-0badf00d-" + pid + "-0123456789abcdef":     false,
		".tmp-fedcba9876543210":                          false, // no owner, fresh
		".tmp-aaaabbbbccccdddd":                          true,  // no owner, old
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(`{"half":`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(dir, ".tmp-aaaabbbbccccdddd"), past, past)
	if _, err := Sync(context.Background(), l, req); err != nil {
		t.Fatal(err)
	}
	for name, swept := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, fs.ErrNotExist); gone != swept {
			t.Errorf("%s: removed = %v, want %v", name, gone, swept)
		}
	}
}
