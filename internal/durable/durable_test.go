package durable

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// names lists a folder's entries.
func names(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

func TestWriteFileReplaces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "a.json")
	if err := WriteFile(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	info, _ := os.Stat(path)
	if string(b) != "two" || info.Mode().Perm() != 0o644 {
		t.Errorf("got %q %v, want two 0644", b, info.Mode().Perm())
	}
	if got := names(t, dir); len(got) != 1 {
		t.Errorf("folder holds %v, want only a.json", got)
	}
}

// A failure at any step before the rename leaves the old file and no
// temporary file.
func TestFailedWriteLeavesNoTempAndNoPartialTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T)
		write func(path string) error
		want  string
	}{
		{"fill fails half-way", nil, func(path string) error {
			return Write(path, 0o644, func(w *bufio.Writer) error {
				w.WriteString("partial")
				w.Flush()
				return errors.New("producer broke")
			})
		}, "producer broke"},
		{"check refuses", nil, func(path string) error {
			return WriteFileIf(path, []byte("new"), 0o644, func() error { return errors.New("changed meanwhile") })
		}, "changed meanwhile"},
		{"rename fails", nil, func(path string) error {
			o := ops{rename: func(string, string) error { return errors.New("disk pulled") }}
			return o.writeData(path, []byte("new"), 0o644, nil)
		}, "disk pulled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "target")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t)
			}
			err := tc.write(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
			if b, _ := os.ReadFile(path); string(b) != "old" {
				t.Errorf("target holds %q after a failed write", b)
			}
			if got := names(t, dir); len(got) != 1 || got[0] != "target" {
				t.Errorf("folder holds %v after a failed write, want only target", got)
			}
		})
	}
}

func TestFailedRenameIsTypedAndNamesTarget(t *testing.T) {
	t.Parallel()
	o := ops{rename: func(string, string) error {
		return &os.LinkError{Op: "rename", Old: "x", New: "y", Err: fs.ErrPermission}
	}}
	path := filepath.Join(t.TempDir(), "p")
	err := o.writeData(path, nil, 0o644, nil)
	var de *Error
	if !errors.As(err, &de) || de.Path != path || de.Op != "rename" || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("err = %#v", err)
	}
}

func TestWriteIntoMissingFolderFails(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "no", "such", "f")
	err := WriteFile(path, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want one naming %s", err, path)
	}
}

func TestRenameRemovesSourceOnFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.WriteFile(src, []byte("x"), 0o644)
	// Renaming a file over a non-empty folder fails.
	os.MkdirAll(filepath.Join(dir, "dst", "x"), 0o755)
	if err := Rename(src, filepath.Join(dir, "dst")); err == nil {
		t.Fatal("rename over a folder succeeded")
	}
	if _, err := os.Stat(src); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("source left behind: %v", err)
	}
	if err := os.WriteFile(src, []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Rename(src, filepath.Join(dir, "moved")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "moved")); string(b) != "y" {
		t.Errorf("moved holds %q", b)
	}
}

func TestCreateExclusiveNeverReplaces(t *testing.T) {
	t.Parallel()
	for _, batch := range []bool{false, true} {
		t.Run(fmt.Sprint("batch=", batch), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "rec")
			var b *Batch
			if batch {
				b = &Batch{}
			}
			if err := CreateExclusive(path, []byte("first"), 0o644, b); err != nil {
				t.Fatal(err)
			}
			err := CreateExclusive(path, []byte("second"), 0o644, b)
			if !errors.Is(err, fs.ErrExist) {
				t.Errorf("second create: %v, want ErrExist", err)
			}
			if b != nil {
				if err := b.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			if got, _ := os.ReadFile(path); string(got) != "first" {
				t.Errorf("rec holds %q", got)
			}
			if got := names(t, dir); len(got) != 1 {
				t.Errorf("folder holds %v, want only rec", got)
			}
		})
	}
}

func TestWriteVolatile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "cache")
	for _, s := range []string{"a", "bb"} {
		if err := WriteVolatile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != s {
			t.Errorf("cache holds %q, want %q", got, s)
		}
	}
	if got := names(t, dir); len(got) != 1 {
		t.Errorf("folder holds %v", got)
	}
}

func TestNewBatchChoosesOneFlushOnlyForMany(t *testing.T) {
	t.Parallel()
	if NewBatch(ManyFiles).FlushOnce() {
		t.Error("a batch of ManyFiles flushes once; it should fsync each file")
	}
	if NewBatch(ManyFiles+1).FlushOnce() != syncFSAvailable {
		t.Errorf("a batch beyond ManyFiles: flush once = %v, want %v", !syncFSAvailable, syncFSAvailable)
	}
	var zero Batch
	if zero.FlushOnce() {
		t.Error("the zero Batch flushes once")
	}
}

// The batch form, both ways: every file written lands whole, in nested
// folders, and a name that exists already is refused without touching it.
func TestBatchWritesManyNewFiles(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, ManyFiles + 20} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir := t.TempDir()
			b := NewBatch(n)
			for i := range n {
				sub := filepath.Join(dir, fmt.Sprint("d", i%3))
				os.MkdirAll(sub, 0o755)
				b.Dir(dir)
				if err := b.WriteNew(filepath.Join(sub, fmt.Sprint("f", i)), []byte(fmt.Sprint(i)), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			if err := b.Commit(); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				p := filepath.Join(dir, fmt.Sprint("d", i%3), fmt.Sprint("f", i))
				got, err := os.ReadFile(p)
				info, _ := os.Stat(p)
				if err != nil || string(got) != fmt.Sprint(i) || info.Mode().Perm() != 0o640 {
					t.Fatalf("%s: %q %v", p, got, err)
				}
			}
			existing := filepath.Join(dir, "d0", "f0")
			if err := b.WriteNew(existing, []byte("over"), 0o644); !errors.Is(err, fs.ErrExist) {
				t.Errorf("WriteNew over an existing file: %v", err)
			}
			if got, _ := os.ReadFile(existing); string(got) != "0" {
				t.Errorf("existing file changed to %q", got)
			}
		})
	}
}

func TestBatchCommitReportsAVanishedFolder(t *testing.T) {
	t.Parallel()
	b := NewBatch(1)
	missing := filepath.Join(t.TempDir(), "gone")
	b.Dir(missing)
	err := b.Commit()
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("commit = %v, want an error naming %s", err, missing)
	}
	if err := b.Commit(); err != nil {
		t.Errorf("a second commit with nothing new: %v", err)
	}
}

func TestSyncDirFolderDeepestFirst(t *testing.T) {
	t.Parallel()
	var s syncSet
	for _, d := range []string{"/a", "/a/b/c", "/a/b", "/a/b/"} {
		s.add(d)
	}
	got := strings.Join(s.take(), " ")
	if got != "/a/b/c /a/b /a" {
		t.Errorf("take = %s", got)
	}
	if len(s.take()) != 0 {
		t.Error("take did not empty the set")
	}
}

func TestIsTemp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f, tmp, err := createTemp(dir, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !IsTemp(filepath.Base(tmp)) || IsTemp("record.json") {
		t.Errorf("IsTemp(%s) false or IsTemp(record.json) true", tmp)
	}
}

// RenameNew never replaces what is at the new name (a file, a folder, a
// link even when it dangles): the old file goes, the new name keeps its
// bytes, and the error says it exists.
func TestRenameNewNeverReplaces(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, target string)
	}{
		{"file", func(t *testing.T, target string) { os.WriteFile(target, []byte("keep"), 0o600) }},
		{"folder", func(t *testing.T, target string) { os.Mkdir(target, 0o755) }},
		{"dangling link", func(t *testing.T, target string) { os.Symlink(filepath.Join(filepath.Dir(target), "nowhere"), target) }},
		{"nothing", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, target := filepath.Join(dir, "src"), filepath.Join(dir, "target")
			if err := os.WriteFile(src, []byte("new"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, target)
			}
			before, _ := os.Lstat(target)
			err := RenameNew(src, target)
			if _, serr := os.Lstat(src); serr == nil {
				t.Errorf("the source is left behind")
			}
			if tc.setup == nil {
				if err != nil {
					t.Fatal(err)
				}
				if b, _ := os.ReadFile(target); string(b) != "new" {
					t.Errorf("target holds %q", b)
				}
				return
			}
			if !errors.Is(err, fs.ErrExist) {
				t.Fatalf("err = %v, want fs.ErrExist", err)
			}
			after, _ := os.Lstat(target)
			if after == nil || before.Mode() != after.Mode() {
				t.Errorf("the target changed: %v → %v", before, after)
			}
			if tc.name == "file" {
				if b, _ := os.ReadFile(target); string(b) != "keep" {
					t.Errorf("the file was replaced: %q", b)
				}
			}
		})
	}
}

// TestPooledBuffersNeverCarryBytesOver: writes share pooled buffers, so a
// small write after a big one must hold exactly its own bytes, and a write
// whose fill fails leaves nothing for the next write to flush.
func TestPooledBuffersNeverCarryBytesOver(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("B"), 3<<20/2)
	if err := Write(filepath.Join(dir, "big"), 0o600, func(w *bufio.Writer) error { _, err := w.Write(big); return err }); err != nil {
		t.Fatal(err)
	}
	fail := errors.New("fill failed")
	if err := Write(filepath.Join(dir, "failed"), 0o600, func(w *bufio.Writer) error { w.WriteString("half"); return fail }); err != fail {
		t.Fatalf("err = %v, want the fill's", err)
	}
	for _, write := range []func(string, fs.FileMode, func(*bufio.Writer) error) error{Write, beginSyncCommit} {
		p := filepath.Join(dir, "small")
		if err := write(p, 0o640, func(w *bufio.Writer) error { _, err := w.WriteString("small"); return err }); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil || string(b) != "small" {
			t.Fatalf("small file holds %q (%v), want exactly \"small\"", b, err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
			t.Errorf("mode %v, want 0640", fi.Mode().Perm())
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "failed")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed write left its file: %v", err)
	}
}
