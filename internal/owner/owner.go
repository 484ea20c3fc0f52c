// Package owner names a process on a host, so that what a process leaves
// behind (a lock, a temporary file or folder) can be told to be an orphan
// once that process is gone — at once, on the host that made it, instead of
// after a grace period. Only this host can tell whether one of its pids
// still runs; a name from another host is never an orphan here.
package owner

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Host is this host's name as the system gives it (not TP_MACHINE, which
// names the machine to people and may be shared).
func Host() string {
	h, _ := os.Hostname()
	return h
}

// hostTag is the first 8 hex digits of the SHA-256 of Host(): short enough
// for a file name, and no host name spelled out in a synced folder.
// It is computed once: writers name a temporary file per record or luggage
// file, and a uname(2) and a hash each time showed in their profiles.
var hostTag = sync.OnceValue(func() string {
	sum := sha256.Sum256([]byte(Host()))
	return hex.EncodeToString(sum[:4])
})

// Tag names this process on this host: "<host>-<pid>". It holds only
// [0-9a-f-], so it fits in any file name.
func Tag() string { return tag() }

var tag = sync.OnceValue(func() string { return hostTag() + "-" + strconv.Itoa(os.Getpid()) })

// Gone reports whether tag (from Tag) names a process of this host that no
// longer runs. A tag from another host, one that does not parse, or this
// process's own is never gone.
func Gone(tag string) bool {
	host, pid, ok := strings.Cut(tag, "-")
	if !ok || host != hostTag() {
		return false
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 || n == os.Getpid() {
		return false
	}
	return !PIDAlive(n)
}

// Find reads a tag out of a name that carries one as "<before><tag>-<rest>"
// after marker, e.g. ".tmp-<host>-<pid>-<random>" with marker ".tmp-". It
// returns "" when the name carries none (an older name).
func Find(name, marker string) string {
	i := strings.LastIndex(name, marker)
	if i < 0 {
		return ""
	}
	parts := strings.Split(name[i+len(marker):], "-")
	if len(parts) != 3 || len(parts[0]) != 8 {
		return ""
	}
	if _, err := strconv.Atoi(parts[1]); err != nil {
		return ""
	}
	return parts[0] + "-" + parts[1]
}
