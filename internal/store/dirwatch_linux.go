//go:build linux

package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sync"

	"golang.org/x/sys/unix"
)

// The kernel's word on which names in a store folder changed (inotify), for
// a long-lived process that asks the store the same question again and
// again (Store.Watch). One inotify instance serves the whole process — the
// kernel allows a user few instances (128 by default) and many watches —
// and is read without blocking when a subscriber asks, so every change
// finished before the question is in the answer: no goroutine, no delay.

// watchMask is every change to a name in the folder, and the folder's own
// end: created, removed, renamed away or onto, written, its mode or times
// set, and the folder itself removed or moved.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// maxNamesHeld bounds the names a subscriber's changes hold.
const maxNamesHeld = 4096

type dirWatcher struct {
	mu   sync.Mutex
	fd   int
	subs map[int32][]*dirSub // by watch descriptor: the folder's subscribers
	buf  []byte
}

// theWatcher is the process's inotify instance; nil when none could be made.
var theWatcher = sync.OnceValue(func() *dirWatcher {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &dirWatcher{fd: fd, subs: map[int32][]*dirSub{}, buf: make([]byte, 64<<10)}
})

// dirSub is one subscriber's changes since it last took them. Two Stores
// on one folder share the kernel's watch and each has its own dirSub.
type dirSub struct {
	w     *dirWatcher
	wd    int32
	names map[string]struct{}
	seen  bool // any event at all, a name in it or not
	lost  bool // the kernel's queue overflowed: changes were dropped
	gone  bool // the folder was removed or moved: the watch is over
}

// dirChanges is what a subscriber takes: the names that changed, whether
// anything at all did, and whether the watch can be believed (lost: look
// at everything; gone: look at everything and subscribe again).
type dirChanges struct {
	names      []string
	seen       bool
	lost, gone bool
}

// watchDir subscribes to the changes in dir; nil when it cannot be watched
// (no inotify here, or the kernel's limit of watches reached).
func watchDir(dir string) *dirSub {
	w := theWatcher()
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// Changes queued for this folder before the subscription are not this
	// subscriber's: read them out first (to the folder's other subscribers).
	w.drainLocked()
	wd, err := unix.InotifyAddWatch(w.fd, dir, watchMask)
	if err != nil {
		return nil
	}
	s := &dirSub{w: w, wd: int32(wd), names: map[string]struct{}{}}
	w.subs[s.wd] = append(w.subs[s.wd], s)
	return s
}

// take returns the changes since the last take (or the subscription) and
// forgets them.
func (s *dirSub) take() dirChanges {
	w := s.w
	w.mu.Lock()
	defer w.mu.Unlock()
	w.drainLocked()
	c := dirChanges{seen: s.seen, lost: s.lost, gone: s.gone}
	for n := range s.names {
		c.names = append(c.names, n)
	}
	clear(s.names)
	s.seen, s.lost = false, false
	return c
}

// drainLocked reads every event queued and hands each to its folder's
// subscribers. A read error other than "nothing queued" counts as lost
// changes for every subscriber.
func (w *dirWatcher) drainLocked() {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			if err != nil && !errors.Is(err, unix.EAGAIN) {
				w.lostAll()
			}
			return
		}
		w.dispatch(w.buf[:n])
	}
}

// dispatch hands the events in b (struct inotify_event, one after another,
// each name NUL-padded) to their subscribers.
func (w *dirWatcher) dispatch(b []byte) {
	const head = unix.SizeofInotifyEvent
	for len(b) >= head {
		wd := int32(binary.NativeEndian.Uint32(b[0:4]))
		mask := binary.NativeEndian.Uint32(b[4:8])
		size := int(binary.NativeEndian.Uint32(b[12:16]))
		if head+size > len(b) {
			w.lostAll() // a torn event: the kernel never writes one
			return
		}
		name := string(bytes.TrimRight(b[head:head+size], "\x00"))
		b = b[head+size:]
		switch {
		case mask&unix.IN_Q_OVERFLOW != 0:
			w.lostAll()
		case mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_UNMOUNT) != 0:
			// The folder is no longer the store's (or no longer is): end
			// the watch; a subscriber that asks again watches the path anew.
			for _, s := range w.subs[wd] {
				s.gone = true
			}
			delete(w.subs, wd)
			if mask&unix.IN_IGNORED == 0 {
				_, _ = unix.InotifyRmWatch(w.fd, uint32(wd))
			}
		default:
			for _, s := range w.subs[wd] {
				s.seen = true
				switch {
				case name == "":
				case len(s.names) >= maxNamesHeld:
					// A subscriber that has not asked for long (a Store
					// no longer used): hold no more, it looks at
					// everything if it ever asks again.
					s.lost = true
					clear(s.names)
				default:
					s.names[name] = struct{}{}
				}
			}
		}
	}
}

func (w *dirWatcher) lostAll() {
	for _, subs := range w.subs {
		for _, s := range subs {
			s.lost = true
		}
	}
}
