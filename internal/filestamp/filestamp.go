// Package filestamp is a file's identity as the kernel keeps it (device,
// inode, size, change times), for remembering what a file held without
// reading it again, and the one rule for when that identity may be
// trusted: git's "racily clean" rule (D15).
package filestamp

import "time"

// Stamp is a file's identity: which inode, how big, when its content and
// its inode last changed. Two equal stamps taken at different times mean
// the file did not change between them, unless it changed within the
// filesystem's timestamp resolution of the first (Racy).
type Stamp struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // ns since the epoch
}

// Racy reports whether the file changed so close to now that another
// change in the same timestamp tick would leave the stamp as it is: the
// kernel's file clock is coarse (a scheduler tick, up to 10 ms), and a
// filesystem whose stamps have no sub-second part (FAT, some network
// mounts) counts in whole seconds or two. A stamp in the future (another
// clock) is racy too.
func (st Stamp) Racy(now time.Time) bool {
	window := 50 * time.Millisecond
	if st.Mtime%int64(time.Second) == 0 || st.Ctime%int64(time.Second) == 0 {
		window = 3 * time.Second
	}
	changed := max(st.Mtime, st.Ctime)
	return now.UnixNano()-changed < int64(window)
}
