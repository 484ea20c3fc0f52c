//go:build unix

package acts

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// LockProject takes the project's registrar lock (an flock on
// <acts-dir>/<project>/.registrar.lock), so two registrar runs over one
// project on this machine take turns: each reads the document and the log,
// writes and acknowledges before the other reads (D9; §4's "acknowledge
// only after the write is durable" would break if one run's write landed
// over another's strike). wait, if not nil, is called once when another run
// holds the lock, before blocking. The lock goes with the process, so a
// crash never leaves it held.
func (l *Log) LockProject(project string, wait func()) (unlock func(), err error) {
	dir := l.ProjectDir(project)
	if err := l.mkdirInside(dir); err != nil {
		return nil, fmt.Errorf("record log: %w", err)
	}
	path := filepath.Join(dir, ".registrar.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("record log: %w", err)
	}
	fd := int(f.Fd())
	err = flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		if wait != nil {
			wait()
		}
		err = flock(fd, syscall.LOCK_EX)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("record log: locking %s: %w", path, err)
	}
	return func() {
		flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}

func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// lockPrincipals serialises changes of a project's principals on this
// machine (two settles registering a first principal at once). It locks
// the project folder itself, so no lock file appears in a folder that may
// be a git work tree (D20).
func (l *Log) lockPrincipals(project string) (unlock func(), err error) {
	dir := l.ProjectDir(project)
	if err := l.mkdirInside(dir); err != nil {
		return nil, fmt.Errorf("record log: %w", err)
	}
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, fmt.Errorf("record log: %w", err)
	}
	if err := flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("record log: locking %s: %w", dir, err)
	}
	return func() {
		flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
