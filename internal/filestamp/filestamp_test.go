package filestamp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRacy(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 2, 10, 0, 0, 500_000_000, time.UTC)
	at := func(d time.Duration) int64 { return now.Add(d).UnixNano() }
	whole := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC).UnixNano()
	for _, tc := range []struct {
		name         string
		mtime, ctime int64
		racy         bool
	}{
		{"changed a tick ago", at(-5 * time.Millisecond), at(-5 * time.Millisecond), true},
		{"written long ago, inode changed now", at(-time.Hour), at(-time.Millisecond), true},
		{"changed a second ago", at(-time.Second), at(-time.Second), false},
		{"in the future (another clock)", at(time.Minute), at(time.Minute), true},
		{"whole-second stamps, 0.5 s ago", whole, whole, true},
		{"whole-second stamps, an hour ago", whole - int64(time.Hour), whole - int64(time.Hour), false},
	} {
		st := Stamp{Mtime: tc.mtime, Ctime: tc.ctime}
		if got := st.Racy(now); got != tc.racy {
			t.Errorf("%s: Racy = %v, want %v", tc.name, got, tc.racy)
		}
	}
}

// TestOfTargetFollowsLinks: Of is a link's own stamp, OfTarget the stamp
// of the file it names, so pointing the link elsewhere changes OfTarget.
func TestOfTargetFollowsLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b, link := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "link")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("same"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(a, link); err != nil {
		t.Skip("no symbolic links here")
	}
	sa, okA := OfTarget(a)
	sl, okL := OfTarget(link)
	if !okA {
		t.Skip("no stamps here")
	}
	if !okL || sa != sl {
		t.Fatalf("OfTarget(link) = %+v, want a's %+v", sl, sa)
	}
	if own, _ := Of(link); own == sa {
		t.Fatalf("Of(link) is the target's stamp")
	}
	os.Remove(link)
	if err := os.Symlink(b, link); err != nil {
		t.Fatal(err)
	}
	if sl2, _ := OfTarget(link); sl2 == sa {
		t.Fatalf("the link names b now, its stamp is still a's")
	}
}
