package recordlog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"
)

// The registrar's locks are OS file locks (flock on Unix, LockFileEx on
// Windows) through go-internal's lockedfile: a lock goes with the process
// that holds it, so a crash never leaves one held, and no age rule is
// needed for them (the passport store's lock files are another protocol,
// D15's). They are per machine: the acts repository ignores *.lock and
// commits never take them.

// lockNotice is how long a lock is waited for before the caller is told
// that another run holds it.
const lockNotice = 100 * time.Millisecond

// LockProject takes the project's registrar lock
// (<acts-dir>/<project>/.registrar.lock), so two registrar runs over one
// project on this machine take turns: each reads the document and the log,
// writes and acknowledges before the other reads (D9; §4's "acknowledge
// only after the write is durable" would break if one run's write landed
// over another's strike). wait, if not nil, is called once when the lock
// is not had at once (another run holds it), and the call goes on waiting.
func (l *Log) LockProject(project string, wait func()) (unlock func(), err error) {
	return l.lockIn(project, ".registrar.lock", wait)
}

// lockPrincipals serialises changes of a project's principals on this
// machine (two settles registering a first principal at once). Its file is
// in the cache folder (Log.CacheDir), so no file appears in a project
// folder that is a git working tree (D20) for a command that only settles;
// without a cache folder it is <acts-dir>/<project>/.principals.lock.
func (l *Log) lockPrincipals(project string) (unlock func(), err error) {
	path, err := l.principalsLockPath(project)
	if err != nil {
		return nil, err
	}
	return lockFile(path, nil)
}

// principalsLockPath is the principals lock's file. In the cache folder it
// is named by the project folder's identity — its device and inode where
// the system has them, else its path with every link resolved — never by
// the path string it was reached by: one folder reached through a link, or
// by two spellings, is one lock.
func (l *Log) principalsLockPath(project string) (string, error) {
	dir := l.ProjectDir(project)
	if err := l.mkdirInside(dir); err != nil {
		return "", fmt.Errorf("record log: %w", err)
	}
	if l.CacheDir == "" {
		return filepath.Join(dir, ".principals.lock"), nil
	}
	id, err := folderIdentity(dir)
	if err != nil {
		return "", fmt.Errorf("record log: %w", err)
	}
	locks := filepath.Join(l.CacheDir, "locks")
	if err := os.MkdirAll(locks, 0o700); err != nil {
		return "", fmt.Errorf("record log: %w", err)
	}
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(locks, "principals-"+hex.EncodeToString(sum[:16])+".lock"), nil
}

// folderIdentity names the folder at dir by what it is, not how it was
// reached.
func folderIdentity(dir string) (string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if id, ok := fileID(fi); ok {
		return id, nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(real)
	if err != nil {
		return "", err
	}
	return "path:" + abs, nil
}

func (l *Log) lockIn(project, name string, wait func()) (unlock func(), err error) {
	dir := l.ProjectDir(project)
	if err := l.mkdirInside(dir); err != nil {
		return nil, fmt.Errorf("record log: %w", err)
	}
	return lockFile(filepath.Join(dir, name), wait)
}

// lockFile takes the lock on path, calling wait (when set) if it is not
// had within lockNotice.
func lockFile(path string, wait func()) (unlock func(), err error) {
	type got struct {
		f   *lockedfile.File
		err error
	}
	done := make(chan got, 1)
	go func() {
		// No link is followed to the lock file (D9): a link planted there
		// would make tp create or lock a file elsewhere.
		f, err := lockedfile.OpenFile(path, os.O_RDWR|os.O_CREATE|oNoFollow, 0o644)
		done <- got{f, err}
	}()
	var g got
	select {
	case g = <-done:
	case <-time.After(lockNotice):
		if wait != nil {
			wait()
		}
		g = <-done
	}
	if g.err != nil {
		return nil, fmt.Errorf("record log: locking %s: %w", path, g.err)
	}
	return func() { g.f.Close() }, nil
}
